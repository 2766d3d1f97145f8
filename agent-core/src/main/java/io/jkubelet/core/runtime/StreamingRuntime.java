package io.jkubelet.core.runtime;

import java.net.URI;
import java.util.List;

/**
 * A runtime that serves exec, attach and port-forward sessions on a streaming server of its own, as upstream's {@code
 * kubecontainer.StreamingRuntime}: each call asks the runtime for a one-time URL of a session (CRI {@code Exec},
 * {@code Attach}, {@code PortForward}) and the kubelet proxies the client's upgrade request there. A runtime without
 * one (Docker) serves sessions through {@link RuntimeService#exec}, {@link RuntimeService#attach} and {@link
 * RuntimeService#portForward} instead, with the kubelet ending the client's protocol itself.
 *
 * <p>Thread-safe. Each call blocks until the runtime has answered, within the runtime's request timeout.
 */
public interface StreamingRuntime {

    /**
     * The URL of a session running {@code command} in the running container with the streams asked for.
     *
     * @throws NotFoundException when the container does not exist
     */
    URI getExec(String containerId, List<String> command, boolean stdin, boolean stdout, boolean stderr, boolean tty);

    /**
     * The URL of a session attached to the container's main process with the streams asked for.
     *
     * @throws NotFoundException when the container does not exist
     */
    URI getAttach(String containerId, boolean stdin, boolean stdout, boolean stderr, boolean tty);

    /**
     * The URL of a session forwarding to {@code ports} in the sandbox's network namespace; empty when the client names
     * the ports in its session (SPDY's streams do).
     *
     * @throws NotFoundException when the sandbox does not exist
     */
    URI getPortForward(String podSandboxId, List<Integer> ports);
}
