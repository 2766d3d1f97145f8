package io.jkubelet.cri;

import io.grpc.stub.StreamObserver;
import io.jkubelet.cri.v1.CriApi;
import io.jkubelet.cri.v1.RuntimeServiceGrpc;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * The CRI {@code RuntimeService} of the fake runtime, upstream's {@code FakeRuntimeService} served over gRPC: sandboxes
 * and containers kept in maps, in the order they were made, their states moved as a runtime moves them, every call
 * recorded and any of them failed on demand ({@link FakeCriRecorder}). What a real runtime adds of its own (the
 * verbose {@code info}, writable layers, exec answers, streaming URLs) a test sets in the public fields. Unknown ids
 * are NotFound, as containerd answers them. Calls arrive on the test's thread (the in-process server runs them
 * there), one at a time.
 */
final class FakeRuntimeService extends RuntimeServiceGrpc.RuntimeServiceImplBase {

    /** A container and the sandbox it was created in. */
    record FakeContainer(String sandboxId, CriApi.ContainerStatus status) {}

    private final FakeCriRecorder recorder;
    private final FakeImageService images;
    private int nextId = 1;

    final Map<String, CriApi.PodSandboxStatus> sandboxes = new LinkedHashMap<>();
    final Map<String, FakeContainer> containers = new LinkedHashMap<>();
    /** The verbose {@code info} of a sandbox or container by id, given only when the call asks for it. */
    final Map<String, Map<String, String>> verboseInfo = new LinkedHashMap<>();
    /** ListContainerStats's writable layers, by container id. */
    final Map<String, CriApi.FilesystemUsage> writableLayers = new LinkedHashMap<>();
    /** The verbose Status's {@code info} (containerd's {@code config}, {@code cniconfig}...). */
    final Map<String, String> statusInfo = new LinkedHashMap<>();
    /** The time the runtime stamps on what it creates, starts and stops, in nanoseconds since the epoch. */
    long nowNanos = 1_700_000_000_123_456_789L;
    String podIp = "10.88.0.7";
    CriApi.ExecSyncResponse execAnswer = CriApi.ExecSyncResponse.getDefaultInstance();
    /** The streaming server's address: Exec, Attach and PortForward answer {@code <streamingBase>/<kind>/<token>}. */
    String streamingBase = "http://127.0.0.1:35001";

    FakeRuntimeService(FakeCriRecorder recorder, FakeImageService images) {
        this.recorder = recorder;
        this.images = images;
    }

    @Override
    public void version(CriApi.VersionRequest request, StreamObserver<CriApi.VersionResponse> out) {
        recorder.answer("Version", request, out, () -> CriApi.VersionResponse.newBuilder().setVersion("0.1.0")
                .setRuntimeName("fakeRuntime").setRuntimeVersion("1.6.20").setRuntimeApiVersion("v1").build());
    }

    @Override
    public void status(CriApi.StatusRequest request, StreamObserver<CriApi.StatusResponse> out) {
        recorder.answer("Status", request, out, () -> CriApi.StatusResponse.newBuilder()
                .setStatus(CriApi.RuntimeStatus.newBuilder()
                        .addConditions(CriApi.RuntimeCondition.newBuilder().setType("RuntimeReady").setStatus(true))
                        .addConditions(CriApi.RuntimeCondition.newBuilder().setType("NetworkReady").setStatus(true)))
                .putAllInfo(request.getVerbose() ? statusInfo : Map.of()).build());
    }

    // ------------------------------------------------------------------ sandboxes

    @Override
    public void runPodSandbox(CriApi.RunPodSandboxRequest request, StreamObserver<CriApi.RunPodSandboxResponse> out) {
        recorder.answer("RunPodSandbox", request, out, () -> {
            CriApi.PodSandboxConfig config = request.getConfig();
            String id = "sandbox-" + nextId++;
            sandboxes.put(id, CriApi.PodSandboxStatus.newBuilder().setId(id).setMetadata(config.getMetadata())
                    .setState(CriApi.PodSandboxState.SANDBOX_READY).setCreatedAt(nowNanos)
                    .setNetwork(CriApi.PodSandboxNetworkStatus.newBuilder().setIp(podIp))
                    .setLinux(CriApi.LinuxPodSandboxStatus.newBuilder().setNamespaces(CriApi.Namespace.newBuilder()
                            .setOptions(config.getLinux().getSecurityContext().getNamespaceOptions())))
                    .putAllLabels(config.getLabelsMap()).putAllAnnotations(config.getAnnotationsMap()).build());
            return CriApi.RunPodSandboxResponse.newBuilder().setPodSandboxId(id).build();
        });
    }

    @Override
    public void stopPodSandbox(CriApi.StopPodSandboxRequest request, StreamObserver<CriApi.StopPodSandboxResponse> out) {
        recorder.answer("StopPodSandbox", request, out, () -> {
            String id = request.getPodSandboxId();
            sandboxes.put(id, sandbox(id).toBuilder().setState(CriApi.PodSandboxState.SANDBOX_NOTREADY).build());
            return CriApi.StopPodSandboxResponse.getDefaultInstance();
        });
    }

    @Override
    public void removePodSandbox(CriApi.RemovePodSandboxRequest request,
                                 StreamObserver<CriApi.RemovePodSandboxResponse> out) {
        recorder.answer("RemovePodSandbox", request, out, () -> {
            String id = request.getPodSandboxId();
            sandbox(id);
            sandboxes.remove(id);
            containers.values().removeIf(c -> c.sandboxId().equals(id));
            return CriApi.RemovePodSandboxResponse.getDefaultInstance();
        });
    }

    @Override
    public void podSandboxStatus(CriApi.PodSandboxStatusRequest request,
                                 StreamObserver<CriApi.PodSandboxStatusResponse> out) {
        recorder.answer("PodSandboxStatus", request, out, () -> CriApi.PodSandboxStatusResponse.newBuilder()
                .setStatus(sandbox(request.getPodSandboxId()))
                .putAllInfo(verbose(request.getVerbose(), request.getPodSandboxId())).build());
    }

    @Override
    public void listPodSandbox(CriApi.ListPodSandboxRequest request, StreamObserver<CriApi.ListPodSandboxResponse> out) {
        recorder.answer("ListPodSandbox", request, out, () -> {
            CriApi.PodSandboxFilter f = request.getFilter();
            Predicate<CriApi.PodSandboxStatus> matches = s -> (f.getId().isEmpty() || f.getId().equals(s.getId()))
                    && (!f.hasState() || f.getState().getState() == s.getState())
                    && s.getLabelsMap().entrySet().containsAll(f.getLabelSelectorMap().entrySet());
            CriApi.ListPodSandboxResponse.Builder b = CriApi.ListPodSandboxResponse.newBuilder();
            sandboxes.values().stream().filter(matches).forEach(s -> b.addItems(CriApi.PodSandbox.newBuilder()
                    .setId(s.getId()).setMetadata(s.getMetadata()).setState(s.getState())
                    .setCreatedAt(s.getCreatedAt()).putAllLabels(s.getLabelsMap())
                    .putAllAnnotations(s.getAnnotationsMap())));
            return b.build();
        });
    }

    // ------------------------------------------------------------------ containers

    /** As containerd: the image's id as the container's image ref, the log path under the sandbox's directory. */
    @Override
    public void createContainer(CriApi.CreateContainerRequest request, StreamObserver<CriApi.CreateContainerResponse> out) {
        recorder.answer("CreateContainer", request, out, () -> {
            sandbox(request.getPodSandboxId());
            CriApi.ContainerConfig config = request.getConfig();
            String id = "container-" + nextId++;
            String imageRef = images.find(config.getImage().getImage()).map(CriApi.Image::getId)
                    .orElse(config.getImage().getImage());
            containers.put(id, new FakeContainer(request.getPodSandboxId(), CriApi.ContainerStatus.newBuilder()
                    .setId(id).setMetadata(config.getMetadata()).setState(CriApi.ContainerState.CONTAINER_CREATED)
                    .setCreatedAt(nowNanos).setImage(config.getImage()).setImageRef(imageRef)
                    .putAllLabels(config.getLabelsMap()).putAllAnnotations(config.getAnnotationsMap())
                    .addAllMounts(config.getMountsList())
                    .setLogPath(request.getSandboxConfig().getLogDirectory() + "/" + config.getLogPath()).build()));
            return CriApi.CreateContainerResponse.newBuilder().setContainerId(id).build();
        });
    }

    @Override
    public void startContainer(CriApi.StartContainerRequest request, StreamObserver<CriApi.StartContainerResponse> out) {
        recorder.answer("StartContainer", request, out, () -> {
            update(request.getContainerId(), s -> s.setState(CriApi.ContainerState.CONTAINER_RUNNING)
                    .setStartedAt(nowNanos));
            return CriApi.StartContainerResponse.getDefaultInstance();
        });
    }

    /** As a process that exits on its stop signal: exit code 0, containerd's reason {@code Completed}. */
    @Override
    public void stopContainer(CriApi.StopContainerRequest request, StreamObserver<CriApi.StopContainerResponse> out) {
        recorder.answer("StopContainer", request, out, () -> {
            update(request.getContainerId(), s -> s.setState(CriApi.ContainerState.CONTAINER_EXITED)
                    .setFinishedAt(nowNanos).setExitCode(0).setReason("Completed"));
            return CriApi.StopContainerResponse.getDefaultInstance();
        });
    }

    @Override
    public void removeContainer(CriApi.RemoveContainerRequest request, StreamObserver<CriApi.RemoveContainerResponse> out) {
        recorder.answer("RemoveContainer", request, out, () -> {
            container(request.getContainerId());
            containers.remove(request.getContainerId());
            return CriApi.RemoveContainerResponse.getDefaultInstance();
        });
    }

    @Override
    public void listContainers(CriApi.ListContainersRequest request, StreamObserver<CriApi.ListContainersResponse> out) {
        recorder.answer("ListContainers", request, out, () -> {
            CriApi.ContainerFilter f = request.getFilter();
            Predicate<FakeContainer> matches = c -> (f.getId().isEmpty() || f.getId().equals(c.status().getId()))
                    && (f.getPodSandboxId().isEmpty() || f.getPodSandboxId().equals(c.sandboxId()))
                    && (!f.hasState() || f.getState().getState() == c.status().getState())
                    && c.status().getLabelsMap().entrySet().containsAll(f.getLabelSelectorMap().entrySet());
            CriApi.ListContainersResponse.Builder b = CriApi.ListContainersResponse.newBuilder();
            containers.values().stream().filter(matches).forEach(c -> b.addContainers(CriApi.Container.newBuilder()
                    .setId(c.status().getId()).setPodSandboxId(c.sandboxId()).setMetadata(c.status().getMetadata())
                    .setImage(c.status().getImage()).setImageRef(c.status().getImageRef())
                    .setState(c.status().getState()).setCreatedAt(c.status().getCreatedAt())
                    .putAllLabels(c.status().getLabelsMap()).putAllAnnotations(c.status().getAnnotationsMap())));
            return b.build();
        });
    }

    @Override
    public void containerStatus(CriApi.ContainerStatusRequest request, StreamObserver<CriApi.ContainerStatusResponse> out) {
        recorder.answer("ContainerStatus", request, out, () -> CriApi.ContainerStatusResponse.newBuilder()
                .setStatus(container(request.getContainerId()).status())
                .putAllInfo(verbose(request.getVerbose(), request.getContainerId())).build());
    }

    @Override
    public void reopenContainerLog(CriApi.ReopenContainerLogRequest request,
                                   StreamObserver<CriApi.ReopenContainerLogResponse> out) {
        recorder.answer("ReopenContainerLog", request, out, () -> {
            container(request.getContainerId());
            return CriApi.ReopenContainerLogResponse.getDefaultInstance();
        });
    }

    @Override
    public void execSync(CriApi.ExecSyncRequest request, StreamObserver<CriApi.ExecSyncResponse> out) {
        recorder.answer("ExecSync", request, out, () -> {
            container(request.getContainerId());
            return execAnswer;
        });
    }

    @Override
    public void exec(CriApi.ExecRequest request, StreamObserver<CriApi.ExecResponse> out) {
        recorder.answer("Exec", request, out, () -> CriApi.ExecResponse.newBuilder()
                .setUrl(session("exec", container(request.getContainerId()).status().getId())).build());
    }

    @Override
    public void attach(CriApi.AttachRequest request, StreamObserver<CriApi.AttachResponse> out) {
        recorder.answer("Attach", request, out, () -> CriApi.AttachResponse.newBuilder()
                .setUrl(session("attach", container(request.getContainerId()).status().getId())).build());
    }

    @Override
    public void portForward(CriApi.PortForwardRequest request, StreamObserver<CriApi.PortForwardResponse> out) {
        recorder.answer("PortForward", request, out, () -> CriApi.PortForwardResponse.newBuilder()
                .setUrl(session("portforward", sandbox(request.getPodSandboxId()).getId())).build());
    }

    @Override
    public void listContainerStats(CriApi.ListContainerStatsRequest request,
                                   StreamObserver<CriApi.ListContainerStatsResponse> out) {
        recorder.answer("ListContainerStats", request, out, () -> {
            CriApi.ListContainerStatsResponse.Builder b = CriApi.ListContainerStatsResponse.newBuilder();
            writableLayers.forEach((id, layer) -> b.addStats(CriApi.ContainerStats.newBuilder()
                    .setAttributes(CriApi.ContainerAttributes.newBuilder().setId(id)).setWritableLayer(layer)));
            return b.build();
        });
    }

    // ------------------------------------------------------------------ what tests set and read

    /** Adds a container as the runtime would list it, e.g. one that exited with a reason of its own. */
    void put(String sandboxId, CriApi.ContainerStatus status) {
        containers.put(status.getId(), new FakeContainer(sandboxId, status));
    }

    CriApi.ContainerStatus status(String containerId) {
        return container(containerId).status();
    }

    private CriApi.PodSandboxStatus sandbox(String id) {
        CriApi.PodSandboxStatus s = sandboxes.get(id);
        if (s == null) {
            throw FakeCriRecorder.notFound("sandbox \"" + id + "\"");
        }
        return s;
    }

    private FakeContainer container(String id) {
        FakeContainer c = containers.get(id);
        if (c == null) {
            throw FakeCriRecorder.notFound("container \"" + id + "\"");
        }
        return c;
    }

    private void update(String id, UnaryOperator<CriApi.ContainerStatus.Builder> change) {
        FakeContainer c = container(id);
        containers.put(id, new FakeContainer(c.sandboxId(), change.apply(c.status().toBuilder()).build()));
    }

    private Map<String, String> verbose(boolean asked, String id) {
        return asked ? verboseInfo.getOrDefault(id, Map.of()) : Map.of();
    }

    private String session(String kind, String id) {
        return streamingBase + "/" + kind + "/" + id + "-" + nextId++;
    }
}
