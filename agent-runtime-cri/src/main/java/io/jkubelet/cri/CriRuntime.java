package io.jkubelet.cri;

import io.jkubelet.cadvisor.CgroupReader;
import io.jkubelet.core.runtime.LinuxContainerResources;
import io.jkubelet.core.runtime.Container;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.PodSandboxState;
import io.jkubelet.core.runtime.PodSandboxStats;
import io.jkubelet.core.runtime.ContainerConfig;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.ContainerStatus;
import io.jkubelet.core.runtime.ExecResult;
import io.jkubelet.core.runtime.FilesystemUsage;
import io.jkubelet.core.runtime.Image;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.NotFoundException;
import io.jkubelet.core.runtime.PodSandbox;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PodSandboxFilter;
import io.jkubelet.core.runtime.PodSandboxStatus;
import io.jkubelet.core.runtime.RegistryAuth;
import io.jkubelet.core.runtime.RuntimeEvent;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.runtime.RuntimeVersion;
import io.jkubelet.core.runtime.StreamingRuntime;
import io.jkubelet.cri.v1.CriApi;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The runtime port on a CRI v1 runtime: each method is the CRI call of the same name, within
 * {@code runtimeRequestTimeout} (twice that for RunPodSandbox, a stop's grace period or an exec's timeout more for
 * StopContainer and ExecSync, as upstream's remote runtime). Thread-safe: gRPC stubs are.
 */
public final class CriRuntime implements RuntimeService, ImageService, AutoCloseable {
    /** The CRI version the kubelet names in its Version request. */
    static final String KUBELET_API_VERSION = "v1";

    private final CriCalls calls;
    private final CriImages images;
    private final CriStats stats;
    private final CriStreaming streaming;

    CriRuntime(CriCalls calls) {
        this(calls, Clock.systemUTC(), Path.of("/proc"), CgroupReader.DEFAULT_ROOT);
    }

    /** Usage read at {@code clock}'s time under {@code proc} and the cgroup hierarchy at {@code cgroupRoot}. */
    CriRuntime(CriCalls calls, Clock clock, Path proc, Path cgroupRoot) {
        this.calls = calls;
        this.images = new CriImages(calls);
        this.stats = new CriStats(calls, clock, proc, cgroupRoot);
        this.streaming = new CriStreaming(calls);
    }

    /** The runtime's endpoint, as the kubelet was given it. */
    public String endpoint() {
        return calls.endpoint().toString();
    }

    @Override
    public RuntimeVersion version() {
        CriApi.VersionResponse v = calls.runtime("Version", null,
                s -> s.version(CriApi.VersionRequest.newBuilder().setVersion(KUBELET_API_VERSION).build()));
        return new RuntimeVersion(v.getRuntimeName(), v.getRuntimeVersion(), v.getRuntimeApiVersion());
    }

    // ------------------------------------------------------------------ sandboxes

    @Override
    public String runPodSandbox(PodSandboxConfig config, String runtimeHandler) {
        // Upstream gives RunPodSandbox twice the request timeout: it sets up the network too.
        return calls.runtime("RunPodSandbox", config.metadata().namespace() + "/" + config.metadata().name(),
                calls.requestTimeout().multipliedBy(2),
                s -> s.runPodSandbox(CriApi.RunPodSandboxRequest.newBuilder()
                        .setConfig(RuntimeToCri.sandboxConfig(config)).setRuntimeHandler(runtimeHandler).build()))
                .getPodSandboxId();
    }

    @Override
    public void stopPodSandbox(String podSandboxId) {
        calls.runtime("StopPodSandbox", podSandboxId, s -> s.stopPodSandbox(
                CriApi.StopPodSandboxRequest.newBuilder().setPodSandboxId(podSandboxId).build()));
    }

    @Override
    public void removePodSandbox(String podSandboxId) {
        try {
            calls.runtime("RemovePodSandbox", podSandboxId, s -> s.removePodSandbox(
                    CriApi.RemovePodSandboxRequest.newBuilder().setPodSandboxId(podSandboxId).build()));
        } catch (NotFoundException alreadyGone) {
            // Removing a removed sandbox succeeds (the port's contract, and the CRI's).
        }
    }

    @Override
    public PodSandboxStatus podSandboxStatus(String podSandboxId) {
        return CriToRuntime.sandboxStatus(calls.runtime("PodSandboxStatus", podSandboxId, s -> s.podSandboxStatus(
                CriApi.PodSandboxStatusRequest.newBuilder().setPodSandboxId(podSandboxId).build())).getStatus());
    }

    @Override
    public List<PodSandbox> listPodSandbox(PodSandboxFilter filter) {
        CriApi.PodSandboxFilter.Builder f = CriApi.PodSandboxFilter.newBuilder();
        if (filter != null) {
            if (filter.id() != null) {
                f.setId(filter.id());
            }
            if (filter.state() != null) {
                f.setState(CriApi.PodSandboxStateValue.newBuilder().setState(switch (filter.state()) {
                    case SANDBOX_READY -> CriApi.PodSandboxState.SANDBOX_READY;
                    case SANDBOX_NOTREADY -> CriApi.PodSandboxState.SANDBOX_NOTREADY;
                }));
            }
            if (filter.labelSelector() != null) {
                f.putAllLabelSelector(filter.labelSelector());
            }
        }
        return calls.runtime("ListPodSandbox", null, s -> s.listPodSandbox(
                        CriApi.ListPodSandboxRequest.newBuilder().setFilter(f).build()))
                .getItemsList().stream().map(CriToRuntime::sandbox).toList();
    }

    // ------------------------------------------------------------------ containers

    @Override
    public String createContainer(String podSandboxId, ContainerConfig config, PodSandboxConfig sandboxConfig) {
        return calls.runtime("CreateContainer", config.metadata().name() + " in sandbox " + podSandboxId,
                s -> s.createContainer(CriApi.CreateContainerRequest.newBuilder()
                        .setPodSandboxId(podSandboxId)
                        .setConfig(RuntimeToCri.containerConfig(config))
                        .setSandboxConfig(RuntimeToCri.sandboxConfig(sandboxConfig))
                        .build())).getContainerId();
    }

    @Override
    public void startContainer(String containerId) {
        calls.runtime("StartContainer", containerId, s -> s.startContainer(
                CriApi.StartContainerRequest.newBuilder().setContainerId(containerId).build()));
    }

    @Override
    public void updateContainerResources(String containerId, LinuxContainerResources resources) {
        calls.runtime("UpdateContainerResources", containerId, s -> s.updateContainerResources(
                CriApi.UpdateContainerResourcesRequest.newBuilder().setContainerId(containerId)
                        .setLinux(RuntimeToCri.resources(resources)).build()));
    }

    @Override
    public void stopContainer(String containerId, Duration timeout) {
        calls.runtime("StopContainer", containerId, timeout.plus(calls.requestTimeout()), s -> s.stopContainer(
                CriApi.StopContainerRequest.newBuilder().setContainerId(containerId)
                        .setTimeout(timeout.toSeconds()).build()));
    }

    @Override
    public void removeContainer(String containerId) {
        try {
            calls.runtime("RemoveContainer", containerId, s -> s.removeContainer(
                    CriApi.RemoveContainerRequest.newBuilder().setContainerId(containerId).build()));
        } catch (NotFoundException alreadyGone) {
            // Removing a removed container succeeds.
        }
    }

    @Override
    public List<Container> listContainers(ContainerFilter filter) {
        CriApi.ContainerFilter.Builder f = CriApi.ContainerFilter.newBuilder();
        if (filter != null) {
            if (filter.id() != null) {
                f.setId(filter.id());
            }
            if (filter.state() != null) {
                f.setState(CriApi.ContainerStateValue.newBuilder().setState(switch (filter.state()) {
                    case CONTAINER_CREATED -> CriApi.ContainerState.CONTAINER_CREATED;
                    case CONTAINER_RUNNING -> CriApi.ContainerState.CONTAINER_RUNNING;
                    case CONTAINER_EXITED -> CriApi.ContainerState.CONTAINER_EXITED;
                    case CONTAINER_UNKNOWN -> CriApi.ContainerState.CONTAINER_UNKNOWN;
                }));
            }
            if (filter.podSandboxId() != null) {
                f.setPodSandboxId(filter.podSandboxId());
            }
            if (filter.labelSelector() != null) {
                f.putAllLabelSelector(filter.labelSelector());
            }
        }
        return calls.runtime("ListContainers", null, s -> s.listContainers(
                        CriApi.ListContainersRequest.newBuilder().setFilter(f).build()))
                .getContainersList().stream().map(CriToRuntime::container).toList();
    }

    @Override
    public ContainerStatus containerStatus(String containerId) {
        return CriToRuntime.containerStatus(calls.runtime("ContainerStatus", containerId, s -> s.containerStatus(
                CriApi.ContainerStatusRequest.newBuilder().setContainerId(containerId).build())).getStatus());
    }

    /**
     * ExecSync with the timeout in whole seconds (the CRI's unit; rounded up, as 0 would mean none); a call that
     * outlives it is reported as timed out, as upstream's remote runtime turns DeadlineExceeded into a timeout.
     */
    @Override
    public ExecResult execSync(String containerId, List<String> command, Duration timeout) {
        // Without a timeout (a lifecycle hook's) the CRI's 0, none, and a call without a deadline, as upstream's
        // remote runtime for a timeout of 0; a hook's exec ended with a 1 s timeout or overflowed the deadline.
        boolean none = timeout.compareTo(RuntimeService.NO_TIMEOUT) >= 0;
        long seconds = none ? 0 : Math.max(1, (timeout.toMillis() + 999) / 1000);
        try {
            CriApi.ExecSyncResponse r = calls.runtime("ExecSync", containerId,
                    none ? null : timeout.plus(calls.requestTimeout()),
                    s -> s.execSync(CriApi.ExecSyncRequest.newBuilder().setContainerId(containerId)
                            .addAllCmd(command).setTimeout(seconds).build()));
            return new ExecResult(r.getExitCode(), r.getStdout().toByteArray(), r.getStderr().toByteArray(), false);
        } catch (CriCallException e) {
            if (CriErrors.isTimeout(e)) {
                return new ExecResult(-1, new byte[0], new byte[0], true);
            }
            throw e;
        }
    }

    /** Exec, attach and port-forward are served by the runtime's streaming server (see {@link CriStreaming}). */
    @Override
    public Optional<StreamingRuntime> streamingRuntime() {
        return Optional.of(streaming);
    }

    @Override
    public void reopenContainerLog(String containerId) {
        calls.runtime("ReopenContainerLog", containerId, s -> s.reopenContainerLog(
                CriApi.ReopenContainerLogRequest.newBuilder().setContainerId(containerId).build()));
    }

    /** Events from a one-second list of the containers (see {@link CriContainerEvents}). */
    @Override
    public AutoCloseable watchEvents(Consumer<RuntimeEvent> listener) {
        return new CriContainerEvents(this::listContainers, listener);
    }

    /** The ready sandboxes with their running containers; see {@link CriStats}. */
    @Override
    public List<PodSandboxStats> listPodSandboxStats(Map<String, String> labelSelector) {
        List<PodSandbox> sandboxes = listPodSandbox(new PodSandboxFilter(null, PodSandboxState.SANDBOX_READY, labelSelector));
        List<Container> running = listContainers(new ContainerFilter(null, ContainerState.CONTAINER_RUNNING, null, null));
        return stats.list(sandboxes, running);
    }

    // ------------------------------------------------------------------ images

    @Override
    public List<Image> listImages() {
        return images.listImages();
    }

    @Override
    public Optional<Image> imageStatus(String image) {
        return images.imageStatus(image);
    }

    @Override
    public String pullImage(String image, RegistryAuth auth) {
        return images.pullImage(image, auth);
    }

    @Override
    public void removeImage(String image) {
        images.removeImage(image);
    }

    @Override
    public FilesystemUsage imageFsInfo() {
        return images.imageFsInfo();
    }

    @Override
    public List<String> pinnedImages() {
        return images.pinnedImages();
    }

    @Override
    public void close() {
        calls.close();
    }
}
