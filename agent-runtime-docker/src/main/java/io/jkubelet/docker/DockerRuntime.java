package io.jkubelet.docker;

import io.jkubelet.cadvisor.CgroupReader;
import io.jkubelet.core.runtime.LinuxContainerResources;
import io.jkubelet.core.runtime.Container;
import io.jkubelet.core.runtime.ContainerConfig;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.PodSandboxStats;
import io.jkubelet.core.runtime.StreamingIo;
import io.jkubelet.docker.engine.ContainerInspect;
import io.jkubelet.docker.engine.ContainerSummary;
import io.jkubelet.docker.engine.DockerEngine;
import io.jkubelet.docker.engine.SystemVersion;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.ContainerStatus;
import io.jkubelet.core.runtime.ExecResult;
import io.jkubelet.core.runtime.FilesystemUsage;
import io.jkubelet.core.runtime.Image;
import io.jkubelet.core.runtime.ImagePullException;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.NotFoundException;
import io.jkubelet.core.runtime.PodSandbox;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PodSandboxFilter;
import io.jkubelet.core.runtime.PodSandboxState;
import io.jkubelet.core.runtime.PodSandboxStatus;
import io.jkubelet.core.runtime.RegistryAuth;
import io.jkubelet.core.runtime.RuntimeEvent;
import io.jkubelet.core.runtime.RuntimeProcess;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.runtime.RuntimeVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * The runtime port on a Docker engine, with dockershim's conventions: a sandbox is a "pause" container named
 * {@code k8s_POD_<pod>_<ns>_<uid>_<attempt>} that owns the pod's network, IPC and UTS namespaces; app
 * containers ({@code k8s_<container>_<pod>_<ns>_<uid>_<attempt>}) join them; CRI labels are Docker labels,
 * CRI annotations are labels prefixed {@code annotation.}; and each container's CRI log path is a symlink to
 * Docker's json log file.
 *
 * <p>Thread-safe: the adapter keeps no state of its own beyond open event streams, and the engine client
 * is thread-safe. Every failure is a {@link NotFoundException} (Docker answered 404), an
 * {@link ImagePullException} (pulls), a {@link DockerCallException} naming the call, its object and Docker's
 * message, or an {@link IllegalArgumentException} for a config Docker cannot express.
 *
 * <p>Built by {@link DockerRuntimeFactory#connect}; close it to release its connections.
 */
public final class DockerRuntime implements RuntimeService, ImageService, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DockerRuntime.class);
    /**
     * The runtime's name in its version, and the one runtime handler it has besides the default (dockershim's
     * {@code runtimeName}): a RuntimeClass with handler {@code docker} runs on Docker.
     */
    public static final String RUNTIME_NAME = "docker";
    private static final RuntimeProcess DOCKERD = RuntimeProcess.withPidFile("dockerd", Path.of("/var/run/docker.pid"));

    /** jkubelet's own Engine API client (issue 14 replaced docker-java with it). */
    private final DockerEngine engine;
    private final String endpoint;
    private final DockerRuntimeOptions options;
    private final Clock clock;
    private final DockerImages images;
    private final DockerExec exec;
    private final DockerStats stats;
    private final DockerStreaming streaming;
    private final DockerRemovals removals;
    private final DockerSandboxes sandboxes;
    private final Set<DockerEventStream> eventStreams = ConcurrentHashMap.newKeySet();
    private final ExecutorService stopper = Executors.newVirtualThreadPerTaskExecutor();
    /** CRI log paths of containers created but not yet started, so that a start needs no inspection. */
    private final Map<String, String> pendingLogLinks = new ConcurrentHashMap<>();
    /** What {@code docker info} says, read once when first needed. */
    private final DockerHost host;

    /**
     * @param engine the daemon's client, short calls bounded by {@link DockerRuntimeOptions#requestTimeout()}
     * @param endpoint where the daemon listens, for messages and to know whether it is on this host
     */
    public DockerRuntime(DockerEngine engine, String endpoint, DockerRuntimeOptions options, Clock clock) {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.options = Objects.requireNonNull(options, "options");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.images = new DockerImages(engine, options.imagePullProgressDeadline());
        this.exec = new DockerExec(engine, endpoint.startsWith("unix://"));
        this.host = new DockerHost(engine);
        this.stats = new DockerStats(engine, host, clock, Path.of("/proc"), CgroupReader.DEFAULT_ROOT);
        this.streaming = new DockerStreaming(engine, exec, this::podSandboxStatus);
        this.removals = new DockerRemovals(engine, options.requestTimeout());
        this.sandboxes = new DockerSandboxes(engine, options, host, images, removals, stopper, this::removeContainer);
    }

    /**
     * Fails when the kubelet names cgroups otherwise than Docker does (dockershim's start-up check): pod cgroups
     * would not be where Docker puts their containers. An engine that names no driver uses cgroupfs.
     *
     * @param kubeletCgroupDriver {@code cgroupDriver}: {@code cgroupfs} or {@code systemd}
     * @throws IllegalStateException with dockershim's message when they differ
     */
    public void checkCgroupDriver(String kubeletCgroupDriver) {
        host.checkCgroupDriver(kubeletCgroupDriver);
    }

    /** The endpoint this runtime talks to, e.g. {@code unix:///var/run/docker.sock}. */
    public String endpoint() {
        return endpoint;
    }

    /**
     * dockerd, this runtime's own daemon, for the node's {@code runtime} system container (upstream's
     * {@code dockerProcessName} and {@code dockerPidFile}): it writes its pid to {@code /var/run/docker.pid} unless its
     * {@code --pidfile} says otherwise, and is then found by name.
     */
    public RuntimeProcess runtimeProcess() {
        return DOCKERD;
    }

    @Override
    public RuntimeVersion version() {
        SystemVersion v = DockerCalls.call("docker version", engine::version);
        return new RuntimeVersion(RUNTIME_NAME, v.version(), v.apiVersion());
    }

    // ------------------------------------------------------------------ sandboxes

    @Override
    public String runPodSandbox(PodSandboxConfig config, String runtimeHandler) {
        return sandboxes.run(config, runtimeHandler);
    }

    @Override
    public void stopPodSandbox(String podSandboxId) {
        sandboxes.stop(podSandboxId);
    }

    @Override
    public void removePodSandbox(String podSandboxId) {
        sandboxes.remove(podSandboxId);
    }

    @Override
    public PodSandboxStatus podSandboxStatus(String podSandboxId) {
        return DockerStatuses.sandboxStatus(sandboxes.require(podSandboxId));
    }

    @Override
    public List<PodSandbox> listPodSandbox(PodSandboxFilter filter) {
        return sandboxes.list(filter);
    }

    // ------------------------------------------------------------------ containers

    @Override
    public String createContainer(String podSandboxId, ContainerConfig config, PodSandboxConfig sandboxConfig) {
        Objects.requireNonNull(config, "container config");
        DockerCalls.requireId(podSandboxId, "pod sandbox");
        CreateSpec spec = CreateSpecs.container(podSandboxId, config, sandboxConfig, options,
                host.cgroupDriverFor(sandboxConfig == null ? null : sandboxConfig.cgroupParent()));
        try {
            String id = DockerCalls.call("create container " + spec.name(),
                    () -> engine.containers().create(spec.name(), spec.toConfig()).id());
            String logPath = spec.labels().get(DockerLabels.CONTAINER_LOG_PATH);
            if (logPath != null && !logPath.isEmpty()) {
                pendingLogLinks.put(id, logPath);
            }
            return id;
        } catch (RuntimeException e) {
            // Only on failure: is the sandbox gone? (Checking first would cost a call on every start.)
            sandboxes.require(podSandboxId);
            throw e;
        }
    }

    @Override
    public void startContainer(String containerId) {
        DockerCalls.requireId(containerId, "container");
        RuntimeException startFailure = null;
        try {
            engine.containers().start(containerId);
        } catch (RuntimeException e) {
            startFailure = e;
        }
        // Like dockershim, link the log even for a container that failed to start: its log may say why.
        // A container this adapter created has its json-file log at a path Docker fixes, so no inspection.
        String criLogPath = pendingLogLinks.remove(containerId);
        String root = criLogPath == null ? null : host.rootDirIfKnown();
        if (root != null) {
            ContainerLogLinks.link(containerId, criLogPath,
                    Path.of(root, "containers", containerId, containerId + "-json.log").toString());
            if (startFailure != null) {
                throw DockerErrors.translate("start container " + containerId, startFailure);
            }
            return;
        }
        ContainerInspect inspected;
        try {
            inspected = engine.containers().inspect(containerId);
        } catch (RuntimeException e) {
            throw DockerErrors.translate("start container " + containerId, startFailure != null ? startFailure : e);
        }
        ContainerLogLinks.link(containerId,
                DockerStatuses.labelsOf(inspected).get(DockerLabels.CONTAINER_LOG_PATH), inspected.logPath());
        if (startFailure != null) {
            throw DockerErrors.translate("start container " + containerId, startFailure);
        }
    }

    /** {@code docker update}: the container's CPU, memory and cpuset settings (dockershim's UpdateContainerResources). */
    @Override
    public void updateContainerResources(String containerId, LinuxContainerResources r) {
        DockerCalls.requireId(containerId, "container");
        engine.containers().update(containerId, CreateSpecs.update(r));
    }

    /** {@code docker stop} with the timeout in whole seconds (rounded up); returns when the container exited. */
    @Override
    public void stopContainer(String containerId, Duration timeout) {
        DockerCalls.requireId(containerId, "container");
        Objects.requireNonNull(timeout, "timeout");
        removals.stop(containerId, timeout, false);
    }

    @Override
    public void removeContainer(String containerId) {
        DockerCalls.requireId(containerId, "container");
        pendingLogLinks.remove(containerId);
        ContainerInspect inspected;
        try {
            inspected = engine.containers().inspect(containerId);
        } catch (RuntimeException e) {
            if (DockerErrors.isNotFound(e)) {
                return;
            }
            throw DockerErrors.translate("remove container " + containerId, e);
        }
        // Docker deletes the log file with the container, so the link would dangle.
        ContainerLogLinks.unlink(containerId, DockerStatuses.labelsOf(inspected).get(DockerLabels.CONTAINER_LOG_PATH));
        removals.remove(containerId, "container");
    }

    @Override
    public List<Container> listContainers(ContainerFilter filter) {
        ContainerFilter f = filter == null ? ContainerFilter.ALL : filter;
        Map<String, String> labels = new HashMap<>();
        if (f.labelSelector() != null) {
            labels.putAll(f.labelSelector());
        }
        labels.put(DockerLabels.CONTAINER_TYPE, DockerLabels.TYPE_CONTAINER);
        if (f.podSandboxId() != null) {
            labels.put(DockerLabels.SANDBOX_ID, f.podSandboxId());
        }
        Map<String, List<String>> filters = DockerLabels.filterFor(labels);
        if (f.id() != null) {
            filters.put("id", List.of(f.id()));
        }
        if (f.state() != null && f.state() != ContainerState.CONTAINER_UNKNOWN) {
            filters.put("status", List.of(switch (f.state()) {
                case CONTAINER_CREATED -> "created";
                case CONTAINER_RUNNING -> "running";
                default -> "exited";
            }));
        }
        List<Container> result = new ArrayList<>();
        for (ContainerSummary c : DockerCalls.call("list containers", () -> engine.containers().list(true, filters))) {
            Optional<Container> converted = DockerStatuses.listedContainer(c);
            if (converted.isEmpty()) {
                log.debug("Skipping container {}: its name {} is not a container name", c.id(), c.names());
            } else if (f.state() != ContainerState.CONTAINER_UNKNOWN || converted.get().state() == f.state()) {
                result.add(converted.get());
            }
        }
        return result;
    }

    @Override
    public ContainerStatus containerStatus(String containerId) {
        DockerCalls.requireId(containerId, "container");
        ContainerInspect r = DockerCalls.call("inspect container " + containerId,
                () -> engine.containers().inspect(containerId));
        if (!DockerStatuses.isContainer(DockerStatuses.labelsOf(r))) {
            throw new NotFoundException("container " + containerId + " not found: it is not a pod's container");
        }
        List<String> repoDigests = r.image() == null ? List.of() : images.inspect(r.image())
                .map(i -> i.repoDigests() == null ? List.<String>of() : i.repoDigests()).orElse(List.of());
        return DockerStatuses.containerStatus(r, repoDigests);
    }

    @Override
    public ExecResult execSync(String containerId, List<String> command, Duration timeout) {
        DockerCalls.requireId(containerId, "container");
        Objects.requireNonNull(timeout, "timeout");
        return exec.execSync(containerId, command, timeout);
    }

    @Override
    public int exec(String containerId, List<String> command, StreamingIo io)
            throws InterruptedException {
        DockerCalls.requireId(containerId, "container");
        return streaming.exec(containerId, command, Objects.requireNonNull(io, "io"));
    }

    @Override
    public void attach(String containerId, StreamingIo io) throws InterruptedException {
        DockerCalls.requireId(containerId, "container");
        streaming.attach(containerId, Objects.requireNonNull(io, "io"));
    }

    @Override
    public void portForward(String podSandboxId, int port, InputStream in, OutputStream out)
            throws IOException, InterruptedException {
        DockerCalls.requireId(podSandboxId, "pod sandbox");
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is out of range 1..65535");
        }
        streaming.portForward(podSandboxId, port, in, out);
    }

    @Override
    public AutoCloseable watchEvents(Consumer<RuntimeEvent> listener) {
        DockerEventStream[] holder = new DockerEventStream[1];
        DockerEventStream stream = new DockerEventStream(engine, listener, clock, () -> eventStreams.remove(holder[0]));
        holder[0] = stream;
        eventStreams.add(stream);
        stream.start();
        return stream;
    }

    /**
     * Ready sandboxes with their running containers' usage: one list of each, then one inspection per
     * container (its pid, cgroup parent and start time) and reads of its cgroup and writable layer.
     */
    @Override
    public List<PodSandboxStats> listPodSandboxStats(Map<String, String> labelSelector) {
        Map<String, String> selector = labelSelector == null ? Map.of() : labelSelector;
        List<PodSandbox> sandboxes = listPodSandbox(new PodSandboxFilter(null, PodSandboxState.SANDBOX_READY, selector));
        List<Container> containers = listContainers(new ContainerFilter(null, ContainerState.CONTAINER_RUNNING, null, selector));
        return stats.list(sandboxes, containers);
    }

    // ------------------------------------------------------------------ images

    @Override
    public List<Image> listImages() {
        return images.list();
    }

    @Override
    public Optional<Image> imageStatus(String image) {
        return images.status(image);
    }

    @Override
    public String pullImage(String image, RegistryAuth auth) {
        return images.pull(image, auth);
    }

    /**
     * Removes an image: by id with every tag and digest (what image GC asks), by tag or digest only that
     * reference. Idempotent; fails with Docker's conflict message while a container uses the image.
     */
    @Override
    public void removeImage(String image) {
        images.remove(image);
    }

    @Override
    public FilesystemUsage imageFsInfo() {
        // The stats provider asks every round; the data root does not change while the engine runs.
        String root = host.rootDirIfKnown();
        return root == null ? images.fsInfo() : images.fsInfo(root);
    }

    /** Ends every event subscription and closes the connections to Docker. */
    @Override
    public void close() {
        for (DockerEventStream stream : List.copyOf(eventStreams)) {
            stream.close();
        }
        stopper.shutdownNow();
        engine.close();
    }

}
