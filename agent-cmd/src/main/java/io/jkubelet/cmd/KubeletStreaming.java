package io.jkubelet.cmd;

import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.runtime.StreamingIo;
import io.jkubelet.core.runtime.StreamingRuntime;
import io.jkubelet.server.streaming.ContainerStreaming;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Optional;

/**
 * The streaming endpoints' view of the runtime: containers and sandboxes are looked up among the pods
 * the runtime runs (the PLEG's last relist, as upstream's {@code findContainer} reads its runtime cache),
 * and the streams go straight to the runtime port, or to the runtime's streaming server when it has one.
 */
final class KubeletStreaming implements ContainerStreaming {

    private final ContainerAccess containers;
    private final RuntimeService runtime;

    KubeletStreaming(ContainerAccess containers) {
        this.containers = containers;
        this.runtime = containers.runtime();
    }

    @Override
    public Optional<String> findRunningContainer(String namespace, String podName, String containerName) {
        return containers.findRunningContainer(namespace, podName, containerName);
    }

    @Override
    public Optional<String> findSandbox(String podUid) {
        return containers.findSandbox(podUid);
    }

    @Override
    public Optional<StreamingRuntime> streamingRuntime() {
        return runtime.streamingRuntime();
    }

    @Override
    public int exec(String containerId, List<String> command, StreamingIo io) throws InterruptedException {
        return runtime.exec(containerId, command, io);
    }

    @Override
    public void attach(String containerId, StreamingIo io) throws InterruptedException {
        runtime.attach(containerId, io);
    }

    @Override
    public void portForward(String podSandboxId, int port, InputStream in, OutputStream out)
            throws IOException, InterruptedException {
        runtime.portForward(podSandboxId, port, in, out);
    }
}
