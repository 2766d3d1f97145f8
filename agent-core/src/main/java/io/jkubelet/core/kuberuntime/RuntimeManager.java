package io.jkubelet.core.kuberuntime;

import io.jkubelet.core.prober.ProbeVerdicts;
import io.jkubelet.core.podutil.PodSpecs;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Probe;
import io.jkubelet.core.container.ContainerStatus;
import io.jkubelet.core.container.RuntimePodStatus;
import io.jkubelet.core.container.SandboxStatus;
import io.jkubelet.core.container.State;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.images.ImageManager;
import io.jkubelet.core.lifecycle.HandlerRunner;
import io.jkubelet.core.lifecycle.HookException;
import io.jkubelet.core.lifecycle.HttpHookClient;
import io.jkubelet.core.runtime.ContainerConfig;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.Mount;
import io.jkubelet.core.runtime.NamespaceMode;
import io.jkubelet.core.runtime.NotFoundException;
import io.jkubelet.core.runtime.PodSandbox;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PodSandboxFilter;
import io.jkubelet.core.runtime.PodSandboxState;
import io.jkubelet.core.runtime.PodSandboxStatus;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.util.Backoff;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumeManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Runs pods on the runtime port (upstream {@code kubeGenericRuntimeManager}): reads a pod's state from the
 * runtime, acts on {@link ComputePodActions}' decision, starts containers with crash-loop backoff and kills
 * them with their grace period. Thread-safe; pod workers call it for different pods at once.
 */
public final class RuntimeManager {
    private static final Logger log = LoggerFactory.getLogger(RuntimeManager.class);

    public static final String CRASH_LOOP_BACK_OFF = "CrashLoopBackOff";
    public static final String CREATE_CONTAINER_CONFIG_ERROR = "CreateContainerConfigError";
    public static final String CREATE_CONTAINER_ERROR = "CreateContainerError";
    public static final String RUN_CONTAINER_ERROR = "RunContainerError";
    /** The start error of a container whose postStart hook failed (upstream {@code ErrPostStartHook}). */
    public static final String POST_START_HOOK_ERROR = "PostStartHookError";
    /** Kill reason of a container whose postStart hook failed (upstream {@code reasonFailedPostStartHook}). */
    static final String REASON_FAILED_POST_START_HOOK = "FailedPostStartHook";
    /** Grace periods are raised to this, as upstream's {@code minimumGracePeriodInSeconds}. */
    static final long MINIMUM_GRACE_PERIOD_SECONDS = 2;
    /** The last 4 KiB of a termination message file are kept (upstream {@code MaxContainerTerminationMessageLength}). */
    static final int MAX_TERMINATION_MESSAGE_LENGTH = 4096;

    private final RuntimeService runtime;
    private final ImageManager images;
    private final ContainerConfigFactory configs;
    private final VolumeManager volumes;
    private final PodDirs dirs;
    private final NodeContext node;
    private final EventRecorder recorder;
    private final Backoff crashBackoff;
    private final String runtimeType;
    private final HandlerRunner hooks;
    private final Clock clock;
    private final TimedWait waits;

    /**
     * @param hookHttp sends the requests of {@code httpGet} lifecycle hooks
     */
    public RuntimeManager(RuntimeService runtime, ImageManager images, ContainerConfigFactory configs,
                          VolumeManager volumes, PodDirs dirs, NodeContext node, EventRecorder recorder, Clock clock,
                          HttpHookClient hookHttp) {
        this(runtime, images, configs, volumes, dirs, node, recorder, clock, hookHttp, TimedWait.REAL);
    }

    RuntimeManager(RuntimeService runtime, ImageManager images, ContainerConfigFactory configs,
                   VolumeManager volumes, PodDirs dirs, NodeContext node, EventRecorder recorder, Clock clock,
                   HttpHookClient hookHttp, TimedWait waits) {
        this.runtime = runtime;
        this.images = images;
        this.configs = configs;
        this.volumes = volumes;
        this.dirs = dirs;
        this.node = node;
        this.recorder = recorder;
        this.crashBackoff = new Backoff(clock, Duration.ofSeconds(10), Duration.ofSeconds(300));
        this.runtimeType = runtime.version().runtimeName();
        this.clock = clock;
        this.waits = waits;
        this.hooks = new HandlerRunner(runtime, hookHttp, this::podIps);
    }

    /** The IPs an {@code httpGet} hook without a host goes to: the node's for a host-network pod. */
    private List<String> podIps(Pod pod) {
        if (PodSpecs.hostNetwork(pod)) {
            return node.hostIps();
        }
        var m = pod.getMetadata();
        return getPodStatus(m.getUid(), m.getName(), m.getNamespace()).ips();
    }

    public String runtimeType() {
        return runtimeType;
    }

    public Backoff crashBackoff() {
        return crashBackoff;
    }

    /** Everything the runtime has of one pod (upstream {@code GetPodStatus}). */
    public RuntimePodStatus getPodStatus(String uid, String name, String namespace) {
        List<SandboxStatus> sandboxes = new ArrayList<>();
        List<String> ips = List.of();
        for (PodSandbox sb : runtime.listPodSandbox(scoped(PodSandboxFilter.forPodUid(uid)))) {
            PodSandboxStatus st;
            try {
                st = runtime.podSandboxStatus(sb.id());
            } catch (NotFoundException e) {
                continue;
            }
            List<String> sbIps = new ArrayList<>();
            if (!st.ip().isEmpty()) {
                sbIps.add(st.ip());
            }
            sbIps.addAll(st.additionalIps());
            boolean ready = st.state() == PodSandboxState.SANDBOX_READY;
            boolean hostNetwork = st.namespaceOptions() != null && st.namespaceOptions().network() == NamespaceMode.NODE;
            sandboxes.add(new SandboxStatus(st.id(), st.metadata().attempt(), ready, st.createdAt(), sbIps, hostNetwork));
        }
        sandboxes.sort((a, b) -> Integer.compare(b.attempt(), a.attempt()));
        for (SandboxStatus s : sandboxes) {
            if (s.ready()) {
                ips = s.ips();
                break;
            }
        }
        List<ContainerStatus> containers = new ArrayList<>();
        for (var c : runtime.listContainers(scoped(ContainerFilter.forPodUid(uid)))) {
            try {
                containers.add(toStatus(runtime.containerStatus(c.id()), c.podSandboxId()));
            } catch (NotFoundException e) {
                // removed between list and inspect
            }
        }
        return new RuntimePodStatus(uid, name, namespace, ips, sandboxes, containers);
    }

    private PodSandboxFilter scoped(PodSandboxFilter f) {
        var labels = new java.util.HashMap<>(f.labelSelector() == null ? Map.of() : f.labelSelector());
        labels.put(Labels.NODE_NAME, node.nodeName());
        return new PodSandboxFilter(f.id(), f.state(), labels);
    }

    private ContainerFilter scoped(ContainerFilter f) {
        var labels = new java.util.HashMap<>(f.labelSelector() == null ? Map.of() : f.labelSelector());
        labels.put(Labels.NODE_NAME, node.nodeName());
        return new ContainerFilter(f.id(), f.state(), f.podSandboxId(), labels);
    }

    private ContainerStatus toStatus(io.jkubelet.core.runtime.ContainerStatus s, String sandboxId) {
        Map<String, String> a = s.annotations();
        int restartCount = parseInt(a.get(Labels.CONTAINER_RESTART_COUNT));
        String tmPath = a.getOrDefault(Labels.CONTAINER_TERMINATION_MESSAGE_PATH, "");
        String message = s.message();
        State state = State.of(s.state());
        if (state == State.EXITED) {
            // As upstream's convertToKubeContainerStatus: the file's message, or for FallbackToLogsOnError
            // with an empty file the log tail, is appended to the runtime's own message. A container that
            // could not even run has no logs to fall back to.
            boolean fallbackToLogs = "FallbackToLogsOnError".equals(a.get(Labels.CONTAINER_TERMINATION_MESSAGE_POLICY))
                    && s.exitCode() != 0 && !"ContainerCannotRun".equals(s.reason());
            TerminationMessage tm = terminationMessage(s.mounts(), tmPath, fallbackToLogs);
            String text = tm.checkLogs() ? LogTail.tail(s.logPath()) : tm.message();
            if (!text.isEmpty()) {
                message = message == null || message.isEmpty() ? text : message + ": " + text;
            }
        }
        return new ContainerStatus(s.id(), runtimeType, s.metadata().name(), state, s.createdAt(), s.startedAt(),
                s.finishedAt(), s.exitCode(), s.image(), s.imageRef(), a.getOrDefault(Labels.CONTAINER_HASH, ""),
                restartCount, s.reason(), message, sandboxId, tmPath, s.logPath());
    }

    /** A termination message file's text, or that the log tail must be read instead. */
    record TerminationMessage(String message, boolean checkLogs) {}

    /**
     * Reads the last {@value #MAX_TERMINATION_MESSAGE_LENGTH} bytes of the termination message file
     * (upstream {@code getTerminationMessage} with {@code tail.ReadAtMost}).
     */
    static TerminationMessage terminationMessage(List<Mount> mounts, String tmPath, boolean fallbackToLogs) {
        if (tmPath.isEmpty()) {
            return new TerminationMessage("", fallbackToLogs);
        }
        for (Mount m : mounts) {
            if (!m.containerPath().equals(tmPath)) {
                continue;
            }
            Path p = Path.of(m.hostPath());
            try (var ch = Files.newByteChannel(p)) {
                long size = ch.size();
                int n = (int) Math.min(size, MAX_TERMINATION_MESSAGE_LENGTH);
                ch.position(size - n);
                var buf = java.nio.ByteBuffer.allocate(n);
                while (buf.hasRemaining() && ch.read(buf) >= 0) {
                    // read the tail fully
                }
                String text = new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8);
                return new TerminationMessage(text, fallbackToLogs && text.isEmpty());
            } catch (java.nio.file.NoSuchFileException e) {
                return new TerminationMessage("", fallbackToLogs);
            } catch (IOException e) {
                return new TerminationMessage("Error on reading termination log " + p + ": " + e.getMessage(), false);
            }
        }
        return new TerminationMessage("", fallbackToLogs);
    }

    private static int parseInt(String s) {
        try {
            return s == null ? 0 : Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * Brings the runtime in line with the pod spec (upstream {@code SyncPod}): kills what must go, creates the
     * sandbox when needed, then starts the next init container or the app containers.
     */
    public SyncResult syncPod(Pod pod, RuntimePodStatus podStatus, ProbeVerdicts probes) {
        SyncResult result = new SyncResult();
        PodActions actions = ComputePodActions.compute(pod, podStatus, probes);
        log.debug("computePodActions for pod {}: {}", PodSpecs.format(pod), actions);
        if (actions.killPod()) {
            if (!podStatus.runningContainers().isEmpty() || podStatus.sandboxes().stream().anyMatch(SandboxStatus::ready)) {
                killPod(pod, podStatus, null);
            }
            if (actions.createSandbox()) {
                // A new sandbox means initialisation starts over.
                for (Container ic : PodSpecs.initContainers(pod)) {
                    for (ContainerStatus cs : podStatus.containersByName(ic.getName())) {
                        removeContainerQuietly(cs.id());
                    }
                }
            }
        } else {
            actions.containersToKill().forEach((id, k) -> {
                killContainer(pod, id, k.name(), k.message(), k.reason(), null);
            });
        }
        if (!actions.createSandbox() && actions.nextInitContainerToStart() == null
                && actions.initContainersToStart().isEmpty() && actions.containersToStart().isEmpty()) {
            if (!actions.killPod()) {
                // Every sync of a running pod sets its volumes up again, as upstream's remount of configMap,
                // secret, downwardAPI and projected volumes: changed objects reach the containers' files.
                refreshVolumes(pod, result);
            }
            return result;
        }

        Map<String, Path> volumePaths;
        try {
            volumePaths = volumes.mountVolumes(pod);
        } catch (VolumeException e) {
            recorder.event(References.pod(pod), EventRecorder.WARNING, "FailedMount", e.getMessage());
            result.fail(e.getMessage());
            return result;
        }

        String sandboxId = actions.sandboxId();
        int attempt = actions.attempt();
        List<String> podIps = podStatus.ips();
        PodSandboxConfig sandboxConfig = configs.sandboxConfig(pod, attempt);
        if (actions.createSandbox()) {
            try {
                long t0 = System.nanoTime();
                Files.createDirectories(Path.of(sandboxConfig.logDirectory()));
                sandboxId = runtime.runPodSandbox(sandboxConfig);
                long t1 = System.nanoTime();
                PodSandboxStatus st = runtime.podSandboxStatus(sandboxId);
                podIps = st.ip().isEmpty() ? List.of() : List.of(st.ip());
                log.debug("Created sandbox {} for pod {} in {} ms (status {} ms)", sandboxId, PodSpecs.format(pod),
                        (t1 - t0) / 1_000_000, (System.nanoTime() - t1) / 1_000_000);
            } catch (IOException | RuntimeException e) {
                String msg = "Failed to create pod sandbox: " + e.getMessage();
                recorder.event(References.pod(pod), EventRecorder.WARNING, "FailedCreatePodSandBox", msg);
                result.fail(msg);
                return result;
            }
        }
        String podIp = PodSpecs.hostNetwork(pod) ? firstOrNull(node.hostIps()) : firstOrNull(podIps);
        Path etcHosts = ensureEtcHosts(pod, podIp);

        if (actions.nextInitContainerToStart() != null) {
            result.add(start(pod, podStatus, actions.nextInitContainerToStart(), sandboxId, sandboxConfig, podIp,
                    volumePaths, etcHosts));
            return result;
        }
        // A pod with sidecars (upstream SyncPod step 6 with SidecarContainers): start them in order; a sidecar
        // that fails to start does not hold up the rest, any other init container does.
        List<Container> initContainers = PodSpecs.initContainers(pod);
        for (int idx : actions.initContainersToStart()) {
            Container ic = initContainers.get(idx);
            SyncResult.StartResult r = start(pod, podStatus, ic, sandboxId, sandboxConfig, podIp, volumePaths, etcHosts);
            result.add(r);
            if (!r.ok() && !PodSpecs.isRestartableInitContainer(ic)) {
                return result;
            }
        }
        List<Container> containers = PodSpecs.containers(pod);
        for (int idx : actions.containersToStart()) {
            result.add(start(pod, podStatus, containers.get(idx), sandboxId, sandboxConfig, podIp, volumePaths, etcHosts));
        }
        return result;
    }

    private void refreshVolumes(Pod pod, SyncResult result) {
        try {
            volumes.remountVolumes(pod);
        } catch (VolumeException e) {
            recorder.event(References.pod(pod), EventRecorder.WARNING, "FailedMount", e.getMessage());
            result.fail(e.getMessage());
        }
    }

    private static String firstOrNull(List<String> l) {
        return l.isEmpty() ? null : l.get(0);
    }

    private SyncResult.StartResult start(Pod pod, RuntimePodStatus podStatus, Container c, String sandboxId,
                                         PodSandboxConfig sandboxConfig, String podIp, Map<String, Path> volumePaths,
                                         Path etcHosts) {
        String name = c.getName();
        var ref = References.container(pod, c);
        // Crash-loop backoff, keyed by the container's spec hash so that a changed spec starts at once.
        Optional<ContainerStatus> lastExited = podStatus.containersByName(name).stream()
                .filter(s -> s.state() == State.EXITED).findFirst();
        if (lastExited.isPresent() && lastExited.get().finishedAt() != null) {
            String key = backoffKey(pod, c);
            if (crashBackoff.isInBackOffSince(key, lastExited.get().finishedAt())) {
                recorder.event(ref, EventRecorder.WARNING, "BackOff",
                        "Back-off restarting failed container " + name + " in pod " + PodSpecs.format(pod));
                String msg = "back-off " + goDuration(crashBackoff.get(key)) + " restarting failed container=" + name
                        + " pod=" + PodSpecs.format(pod);
                return new SyncResult.StartResult(name, CRASH_LOOP_BACK_OFF, msg);
            }
            crashBackoff.next(key, lastExited.get().finishedAt());
        }

        try {
            images.ensureImageExists(pod, c, null);
        } catch (ImageManager.ImageException e) {
            return new SyncResult.StartResult(name, e.reason(), e.getMessage());
        }
        int restartCount = podStatus.findContainerStatusByName(name).map(s -> s.restartCount() + 1)
                .orElseGet(() -> restartCountFromLogs(sandboxConfig, name));
        ContainerConfig config;
        try {
            Path tmFile = terminationMessageFile(pod, name);
            config = configs.containerConfig(pod, c, restartCount, podIp, volumePaths, etcHosts, tmFile);
        } catch (ContainerConfigFactory.ConfigException | IOException e) {
            recorder.event(ref, EventRecorder.WARNING, "Failed", "Error: " + e.getMessage());
            return new SyncResult.StartResult(name, CREATE_CONTAINER_CONFIG_ERROR, e.getMessage());
        }
        String id;
        try {
            id = runtime.createContainer(sandboxId, config, sandboxConfig);
        } catch (RuntimeException e) {
            recorder.event(ref, EventRecorder.WARNING, "Failed", "Error: " + e.getMessage());
            return new SyncResult.StartResult(name, CREATE_CONTAINER_ERROR, e.getMessage());
        }
        recorder.event(ref, EventRecorder.NORMAL, "Created", "Created container " + name);
        try {
            runtime.startContainer(id);
        } catch (RuntimeException e) {
            recorder.event(ref, EventRecorder.WARNING, "Failed", "Error: " + e.getMessage());
            return new SyncResult.StartResult(name, RUN_CONTAINER_ERROR, e.getMessage());
        }
        recorder.event(ref, EventRecorder.NORMAL, "Started", "Started container " + name);
        linkLegacyLog(pod, name, id, Path.of(sandboxConfig.logDirectory()).resolve(config.logPath()));
        if (c.getLifecycle() != null && c.getLifecycle().getPostStart() != null) {
            // Synchronous, as upstream's startContainer: the next container waits for this hook.
            try {
                hooks.run(id, pod, c, c.getLifecycle().getPostStart(), HandlerRunner.NO_TIMEOUT);
            } catch (HookException e) {
                log.error("Failed to execute PostStartHook of container {} in pod {}: {}", name, PodSpecs.format(pod),
                        e.getMessage());
                // Upstream (since 1.26) keeps the hook's output out of the event so that no secret leaks.
                recorder.event(ref, EventRecorder.WARNING, "FailedPostStartHook", "PostStartHook failed");
                killContainer(pod, id, name, "FailedPostStartHook", REASON_FAILED_POST_START_HOOK, null);
                return new SyncResult.StartResult(name, POST_START_HOOK_ERROR, e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new SyncResult.StartResult(name, POST_START_HOOK_ERROR, "PostStartHook of container " + name
                        + " was interrupted");
            }
        }
        return new SyncResult.StartResult(name, "", "");
    }

    /** After an agent restart with containers gone, continue counting from the log files left behind. */
    private static int restartCountFromLogs(PodSandboxConfig sandboxConfig, String name) {
        Path dir = Path.of(sandboxConfig.logDirectory()).resolve(name);
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        int max = -1;
        try (var s = Files.list(dir)) {
            for (Path p : s.toList()) {
                String f = p.getFileName().toString();
                if (f.matches("\\d+\\.log")) {
                    max = Math.max(max, Integer.parseInt(f.substring(0, f.length() - 4)));
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
        return max + 1;
    }

    /**
     * How long the named container's crash-loop back-off still runs, or empty when it is not backing off
     * from a known exit (no exited instance, or no such container in the spec).
     */
    public Optional<Duration> crashLoopRemaining(Pod pod, RuntimePodStatus podStatus, String containerName) {
        Optional<ContainerStatus> exited = podStatus.containersByName(containerName).stream()
                .filter(s -> s.state() == State.EXITED && s.finishedAt() != null).findFirst();
        Optional<Container> spec = PodSpecs.findContainer(pod, containerName);
        if (exited.isEmpty() || spec.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(crashBackoff.remaining(backoffKey(pod, spec.get()), exited.get().finishedAt()));
    }

    static String backoffKey(Pod pod, Container c) {
        var m = pod.getMetadata();
        return m.getName() + "_" + m.getNamespace() + "_" + m.getUid() + "_" + c.getName() + "_" + ContainerHash.of(c);
    }

    private Path terminationMessageFile(Pod pod, String containerName) throws IOException {
        Path dir = dirs.containerDir(pod.getMetadata().getUid(), containerName);
        Files.createDirectories(dir);
        byte[] rnd = new byte[4];
        ThreadLocalRandom.current().nextBytes(rnd);
        Path f = dir.resolve(HexFormat.of().formatHex(rnd));
        Files.createFile(f);
        // The container may run as any user and must be able to write its message.
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-rw-rw-"));
        return f;
    }

    /** The kubelet-managed /etc/hosts, or null for a host-network pod (it keeps the node's file). */
    private Path ensureEtcHosts(Pod pod, String podIp) {
        if (PodSpecs.hostNetwork(pod)) {
            return null;
        }
        Path f = dirs.etcHosts(pod.getMetadata().getUid());
        StringBuilder sb = new StringBuilder("# Kubernetes-managed hosts file.\n")
                .append("127.0.0.1\tlocalhost\n")
                .append("::1\tlocalhost ip6-localhost ip6-loopback\n")
                .append("fe00::0\tip6-localnet\n")
                .append("fe00::0\tip6-mcastprefix\n")
                .append("fe00::1\tip6-allnodes\n")
                .append("fe00::2\tip6-allrouters\n");
        if (podIp != null) {
            String host = ContainerConfigFactory.hostname(pod);
            String sub = pod.getSpec().getSubdomain();
            if (sub != null && !sub.isEmpty()) {
                String fqdn = host + "." + sub + "." + pod.getMetadata().getNamespace() + ".svc." + node.clusterDomain();
                sb.append(podIp).append('\t').append(fqdn).append('\t').append(host).append('\n');
            } else {
                sb.append(podIp).append('\t').append(host).append('\n');
            }
        }
        if (pod.getSpec().getHostAliases() != null && !pod.getSpec().getHostAliases().isEmpty()) {
            sb.append("\n# Entries added by HostAliases.\n");
            for (var ha : pod.getSpec().getHostAliases()) {
                sb.append(ha.getIp()).append('\t').append(String.join("\t", ha.getHostnames())).append('\n');
            }
        }
        try {
            Files.createDirectories(f.getParent());
            Path tmp = f.resolveSibling("etc-hosts.tmp");
            Files.writeString(tmp, sb.toString());
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
            Files.move(tmp, f, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            log.warn("Failed to write hosts file for pod {}: {}", PodSpecs.format(pod), e.getMessage());
            return null;
        }
        return f;
    }

    /** {@code /var/log/containers/<pod>_<ns>_<container>-<id>.log} -> the container's log under the pod log dir. */
    private void linkLegacyLog(Pod pod, String container, String id, Path target) {
        Path link = node.containerLogsDir().resolve(pod.getMetadata().getName() + "_" + pod.getMetadata().getNamespace()
                + "_" + container + "-" + id + ".log");
        try {
            Files.createDirectories(node.containerLogsDir());
            Files.deleteIfExists(link);
            Files.createSymbolicLink(link, target);
        } catch (IOException e) {
            log.warn("Failed to create legacy log link {}: {}", link, e.getMessage());
        }
    }

    /**
     * Stops one container with its grace period (upstream {@code killContainer}).
     *
     * @param message the Killing event's message, or empty for "Stopping container X"
     * @param reason why: {@link ComputePodActions#REASON_LIVENESS_PROBE} or {@code REASON_STARTUP_PROBE} use the
     *     probe's own {@code terminationGracePeriodSeconds} when set
     * @param gracePeriodOverride seconds that replace the pod's grace period, or null
     */
    public void killContainer(Pod pod, String containerId, String name, String message, String reason,
                              Long gracePeriodOverride) {
        killContainer(pod, containerId, name, message, reason, gracePeriodOverride, null);
    }

    /**
     * Upstream 1.30 {@code killContainer} (pkg/kubelet/kuberuntime/kuberuntime_container.go): Killing event;
     * grace from {@link #terminationGracePeriod}, replaced by the override; the preStop hook, cut off at the
     * grace period, whose time is taken off the grace; then, for a pod with sidecars, the wait for this
     * container's turn (also taken off the grace); the grace raised to {@value #MINIMUM_GRACE_PERIOD_SECONDS}
     * s; StopContainer. The preStop hook runs before the turn wait, so sidecars run theirs at once, while
     * their stop signal waits for the regular containers.
     */
    private void killContainer(Pod pod, String containerId, String name, String message, String reason,
                               Long gracePeriodOverride, TerminationOrdering ordering) {
        Optional<Container> spec = PodSpecs.findContainer(pod, name);
        long grace = terminationGracePeriod(pod, spec.orElse(null), reason);
        var ref = spec.map(c -> References.container(pod, c)).orElseGet(() -> References.pod(pod));
        recorder.event(ref, EventRecorder.NORMAL, "Killing",
                message == null || message.isEmpty() ? "Stopping container " + name : message);
        if (gracePeriodOverride != null) {
            grace = gracePeriodOverride;
        }
        try {
            var preStop = spec.map(Container::getLifecycle).map(l -> l.getPreStop()).orElse(null);
            if (preStop != null && grace > 0 && isRunning(containerId)) {
                grace -= executePreStopHook(pod, containerId, spec.get(), preStop, grace);
            }
            if (ordering != null && grace > 0) {
                // Whole seconds, truncated, as upstream.
                grace -= (long) ordering.waitForTurn(name, grace);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            log.warn("Interrupted while stopping container {} of pod {}; stopping it now", name, PodSpecs.format(pod));
        }
        // Always a short window, so that a container is not SIGKILLed needlessly.
        grace = Math.max(grace, MINIMUM_GRACE_PERIOD_SECONDS);
        log.debug("Killing container {} of pod {} with a grace period of {}s", name, PodSpecs.format(pod), grace);
        try {
            runtime.stopContainer(containerId, Duration.ofSeconds(grace));
        } catch (NotFoundException e) {
            // already gone
        }
        if (ordering != null) {
            ordering.containerTerminated(name);
        }
    }

    private boolean isRunning(String containerId) {
        try {
            return runtime.containerStatus(containerId).state() == io.jkubelet.core.runtime.ContainerState.CONTAINER_RUNNING;
        } catch (NotFoundException e) {
            return false;
        }
    }

    /**
     * Runs the preStop hook on its own thread and waits for it at most the grace period (upstream
     * {@code executePreStopHook}). A hook still running then is interrupted and left behind; only a hook
     * that failed in time gives a {@code FailedPreStopHook} event.
     *
     * @return the whole seconds spent, truncated
     */
    private long executePreStopHook(Pod pod, String containerId, Container c,
                                    io.fabric8.kubernetes.api.model.LifecycleHandler preStop, long grace)
            throws InterruptedException {
        long start = clock.millis();
        CountDownLatch done = new CountDownLatch(1);
        HookException[] failure = new HookException[1];
        Thread hook = Thread.ofVirtual().name("prestop-" + c.getName()).start(() -> {
            try {
                hooks.run(containerId, pod, c, preStop, Duration.ofSeconds(grace));
            } catch (HookException e) {
                failure[0] = e;
            } catch (InterruptedException e) {
                // cut off at the end of the grace period
            } catch (RuntimeException e) {
                failure[0] = new HookException(e.getMessage(), e);
            } finally {
                done.countDown();
            }
        });
        if (waits.await(done, Duration.ofSeconds(grace))) {
            if (failure[0] != null) {
                log.error("PreStop hook of container {} in pod {} failed: {}", c.getName(), PodSpecs.format(pod),
                        failure[0].getMessage());
                // Upstream (since 1.26) keeps the hook's output out of the event so that no secret leaks.
                recorder.event(References.container(pod, c), EventRecorder.WARNING, "FailedPreStopHook",
                        "PreStopHook failed");
            }
        } else {
            log.info("PreStop hook of container {} in pod {} did not complete in {}s", c.getName(),
                    PodSpecs.format(pod), grace);
            hook.interrupt();
        }
        return (clock.millis() - start) / 1000;
    }

    /**
     * The grace period of a kill before any override (upstream {@code setTerminationGracePeriod}): the pod's
     * {@code deletionGracePeriodSeconds} when it is being deleted; else, for a liveness or startup failure, that
     * probe's {@code terminationGracePeriodSeconds} when set; else the pod's
     * {@code terminationGracePeriodSeconds} (30 when unset, the API default).
     */
    static long terminationGracePeriod(Pod pod, Container spec, String reason) {
        if (pod.getMetadata().getDeletionGracePeriodSeconds() != null) {
            return pod.getMetadata().getDeletionGracePeriodSeconds();
        }
        if (spec != null) {
            Probe probe = ComputePodActions.REASON_LIVENESS_PROBE.equals(reason) ? spec.getLivenessProbe()
                    : ComputePodActions.REASON_STARTUP_PROBE.equals(reason) ? spec.getStartupProbe() : null;
            if (probe != null && probe.getTerminationGracePeriodSeconds() != null) {
                return probe.getTerminationGracePeriodSeconds();
            }
        }
        Long podGrace = pod.getSpec().getTerminationGracePeriodSeconds();
        return podGrace != null ? podGrace : 30;
    }

    /**
     * Stops every running container in parallel, then every sandbox (upstream {@code KillPod} with
     * {@code killContainersWithSyncResult}). With sidecars, a {@link TerminationOrdering} makes them stop
     * after the regular containers, in reverse order.
     */
    public void killPod(Pod pod, RuntimePodStatus podStatus, Long gracePeriodOverride) {
        List<ContainerStatus> running = podStatus.runningContainers();
        if (!running.isEmpty()) {
            TerminationOrdering ordering = PodSpecs.hasRestartableInitContainer(pod)
                    ? new TerminationOrdering(pod, running.stream().map(ContainerStatus::name).toList(), clock, waits)
                    : null;
            try (ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor()) {
                List<Future<?>> fs = new ArrayList<>();
                for (ContainerStatus cs : running) {
                    fs.add(ex.submit(() -> killContainer(pod, cs.id(), cs.name(), "", "", gracePeriodOverride, ordering)));
                }
                for (Future<?> f : fs) {
                    try {
                        f.get();
                    } catch (java.util.concurrent.ExecutionException e) {
                        log.warn("Failed to kill a container of pod {}: {}", PodSpecs.format(pod), e.getCause().getMessage());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
        }
        for (SandboxStatus sb : podStatus.sandboxes()) {
            try {
                runtime.stopPodSandbox(sb.id());
            } catch (NotFoundException e) {
                // already gone
            }
        }
    }

    /** Removes every container and sandbox of a pod that is gone for good. */
    public void removePod(String uid) {
        for (var c : runtime.listContainers(scoped(ContainerFilter.forPodUid(uid)))) {
            removeContainerQuietly(c.id());
        }
        for (var sb : runtime.listPodSandbox(scoped(PodSandboxFilter.forPodUid(uid)))) {
            try {
                runtime.removePodSandbox(sb.id());
            } catch (RuntimeException e) {
                log.warn("Failed to remove sandbox {} of pod {}: {}", sb.id(), uid, e.getMessage());
            }
        }
    }

    public void removeContainerQuietly(String id) {
        try {
            runtime.removeContainer(id);
        } catch (RuntimeException e) {
            log.debug("Failed to remove container {}: {}", id, e.getMessage());
        }
    }

    /** Go's duration format for whole seconds ({@code 40s}, {@code 5m0s}), as the back-off message prints it. */
    static String goDuration(Duration d) {
        long s = d.toSeconds();
        if (s < 60) {
            return s + "s";
        }
        long m = s / 60;
        if (m < 60) {
            return m + "m" + (s % 60) + "s";
        }
        return (m / 60) + "h" + (m % 60) + "m" + (s % 60) + "s";
    }
}
