package io.jkubelet.core.metrics;

import io.jkubelet.core.runtime.LinuxContainerResources;
import io.jkubelet.core.runtime.Container;
import io.jkubelet.core.runtime.ContainerConfig;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.ContainerStats;
import io.jkubelet.core.runtime.ContainerStatus;
import io.jkubelet.core.runtime.ExecResult;
import io.jkubelet.core.runtime.PodSandbox;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PodSandboxFilter;
import io.jkubelet.core.runtime.PodSandboxStats;
import io.jkubelet.core.runtime.PodSandboxStatus;
import io.jkubelet.core.runtime.RuntimeEvent;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.runtime.RuntimeVersion;
import io.jkubelet.core.runtime.StreamingIo;
import io.jkubelet.core.runtime.StreamingRuntime;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A {@link RuntimeService} that counts and times every call in {@code kubelet_runtime_operations_*}, with
 * upstream's operation names ({@code pkg/kubelet/kuberuntime/instrumented_services.go}). The event
 * subscription is a stream, not an operation, and is passed through. Thread-safe as the delegate.
 */
public final class InstrumentedRuntimeService implements RuntimeService {
    private final RuntimeService delegate;
    private final KubeletMetrics metrics;

    public InstrumentedRuntimeService(RuntimeService delegate, KubeletMetrics metrics) {
        this.delegate = delegate;
        this.metrics = metrics;
    }

    static <T> T record(KubeletMetrics metrics, String operation, Supplier<T> call) {
        long start = System.nanoTime();
        boolean failed = true;
        try {
            T result = call.get();
            failed = false;
            return result;
        } finally {
            metrics.observeRuntimeOperation(operation, Duration.ofNanos(System.nanoTime() - start), failed);
        }
    }

    static void record(KubeletMetrics metrics, String operation, Runnable call) {
        record(metrics, operation, () -> {
            call.run();
            return null;
        });
    }

    @Override
    public RuntimeVersion version() {
        return record(metrics, "version", delegate::version);
    }

    @Override
    public String runPodSandbox(PodSandboxConfig config, String runtimeHandler) {
        return record(metrics, "run_podsandbox", () -> delegate.runPodSandbox(config, runtimeHandler));
    }

    @Override
    public void stopPodSandbox(String podSandboxId) {
        record(metrics, "stop_podsandbox", () -> delegate.stopPodSandbox(podSandboxId));
    }

    @Override
    public void removePodSandbox(String podSandboxId) {
        record(metrics, "remove_podsandbox", () -> delegate.removePodSandbox(podSandboxId));
    }

    @Override
    public PodSandboxStatus podSandboxStatus(String podSandboxId) {
        return record(metrics, "podsandbox_status", () -> delegate.podSandboxStatus(podSandboxId));
    }

    @Override
    public List<PodSandbox> listPodSandbox(PodSandboxFilter filter) {
        return record(metrics, "list_podsandbox", () -> delegate.listPodSandbox(filter));
    }

    @Override
    public String createContainer(String podSandboxId, ContainerConfig config, PodSandboxConfig sandboxConfig) {
        return record(metrics, "create_container", () -> delegate.createContainer(podSandboxId, config, sandboxConfig));
    }

    @Override
    public void startContainer(String containerId) {
        record(metrics, "start_container", () -> delegate.startContainer(containerId));
    }

    @Override
    public void updateContainerResources(String containerId, LinuxContainerResources resources) {
        record(metrics, "update_container", () -> delegate.updateContainerResources(containerId, resources));
    }

    @Override
    public void stopContainer(String containerId, Duration timeout) {
        record(metrics, "stop_container", () -> delegate.stopContainer(containerId, timeout));
    }

    @Override
    public void removeContainer(String containerId) {
        record(metrics, "remove_container", () -> delegate.removeContainer(containerId));
    }

    @Override
    public void reopenContainerLog(String containerId) {
        record(metrics, "reopen_container_log", () -> delegate.reopenContainerLog(containerId));
    }

    @Override
    public List<Container> listContainers(ContainerFilter filter) {
        return record(metrics, "list_containers", () -> delegate.listContainers(filter));
    }

    @Override
    public ContainerStatus containerStatus(String containerId) {
        return record(metrics, "container_status", () -> delegate.containerStatus(containerId));
    }

    @Override
    public ExecResult execSync(String containerId, List<String> command, Duration timeout) {
        return record(metrics, "exec_sync", () -> delegate.execSync(containerId, command, timeout));
    }

    /** The streaming server's calls, each counted as upstream's runtime operation of its name. */
    @Override
    public Optional<StreamingRuntime> streamingRuntime() {
        return delegate.streamingRuntime().map(server -> new StreamingRuntime() {
            @Override
            public URI getExec(String containerId, List<String> command, boolean stdin, boolean stdout,
                    boolean stderr, boolean tty) {
                return record(metrics, "exec", () -> server.getExec(containerId, command, stdin, stdout, stderr, tty));
            }

            @Override
            public URI getAttach(String containerId, boolean stdin, boolean stdout, boolean stderr, boolean tty) {
                return record(metrics, "attach", () -> server.getAttach(containerId, stdin, stdout, stderr, tty));
            }

            @Override
            public URI getPortForward(String podSandboxId, List<Integer> ports) {
                return record(metrics, "port_forward", () -> server.getPortForward(podSandboxId, ports));
            }
        });
    }

    // The kubelet's own sessions last as long as they do, so they are passed through uncounted: upstream's
    // runtime operations of these names only hand out a streaming URL.
    @Override
    public int exec(String containerId, List<String> command, StreamingIo io)
            throws InterruptedException {
        return delegate.exec(containerId, command, io);
    }

    @Override
    public void attach(String containerId, StreamingIo io) throws InterruptedException {
        delegate.attach(containerId, io);
    }

    @Override
    public void portForward(String podSandboxId, int port, InputStream in, OutputStream out)
            throws IOException, InterruptedException {
        delegate.portForward(podSandboxId, port, in, out);
    }

    @Override
    public AutoCloseable watchEvents(Consumer<RuntimeEvent> listener) {
        return delegate.watchEvents(listener);
    }

    @Override
    public List<PodSandboxStats> listPodSandboxStats(Map<String, String> labelSelector) {
        return record(metrics, "list_podsandbox_stats", () -> delegate.listPodSandboxStats(labelSelector));
    }

    @Override
    public ContainerStats containerStats(String containerId) {
        return record(metrics, "container_stats", () -> delegate.containerStats(containerId));
    }
}
