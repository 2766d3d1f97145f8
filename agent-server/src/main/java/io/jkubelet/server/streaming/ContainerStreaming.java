package io.jkubelet.server.streaming;

import io.jkubelet.core.runtime.StreamingIo;
import io.jkubelet.core.runtime.StreamingRuntime;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Optional;

/**
 * What the streaming endpoints ({@code /exec}, {@code /attach}, {@code /portForward}) need from the
 * kubelet: the runtime's view of a pod's running containers and sandbox (upstream {@code findContainer}
 * and {@code GetPortForward} over {@code GetPods}), and the runtime's streaming calls.
 *
 * <p>Thread-safe; called from virtual threads, one per session, which may block for the session's life.
 */
public interface ContainerStreaming {

    /** No runtime: no container is ever found. */
    ContainerStreaming NONE = new ContainerStreaming() {
        @Override
        public Optional<String> findRunningContainer(String namespace, String podName, String containerName) {
            return Optional.empty();
        }

        @Override
        public Optional<String> findSandbox(String podUid) {
            return Optional.empty();
        }

        @Override
        public int exec(String containerId, List<String> command, StreamingIo io) {
            throw new IllegalStateException("no container runtime");
        }

        @Override
        public void attach(String containerId, StreamingIo io) {
            throw new IllegalStateException("no container runtime");
        }

        @Override
        public void portForward(String podSandboxId, int port, InputStream in, OutputStream out) throws IOException {
            throw new IOException("no container runtime");
        }
    };

    /**
     * The runtime's streaming server, when it has one: sessions are then proxied to the URLs it gives ({@link
     * StreamProxy}) instead of being served through {@link #exec}, {@link #attach} and {@link #portForward}.
     */
    default Optional<StreamingRuntime> streamingRuntime() {
        return Optional.empty();
    }

    /** The id of the running container {@code containerName} of pod {@code namespace/podName} on the runtime. */
    Optional<String> findRunningContainer(String namespace, String podName, String containerName);

    /** The id of the pod's sandbox on the runtime, preferring a ready one; empty when it has none. */
    Optional<String> findSandbox(String podUid);

    /** See {@link io.jkubelet.core.runtime.RuntimeService#exec}. */
    int exec(String containerId, List<String> command, StreamingIo io) throws InterruptedException;

    /** See {@link io.jkubelet.core.runtime.RuntimeService#attach}. */
    void attach(String containerId, StreamingIo io) throws InterruptedException;

    /** See {@link io.jkubelet.core.runtime.RuntimeService#portForward}. */
    void portForward(String podSandboxId, int port, InputStream in, OutputStream out) throws IOException, InterruptedException;
}
