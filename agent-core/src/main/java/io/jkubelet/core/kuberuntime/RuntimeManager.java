package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.container.ContainerStatus;
import io.jkubelet.core.container.GCPolicy;
import io.jkubelet.core.container.RuntimePodStatus;
import io.jkubelet.core.container.SandboxStatus;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.images.ImageManager;
import io.jkubelet.core.kuberuntime.ContainerStarter.StartRequest;
import io.jkubelet.core.lifecycle.HandlerRunner;
import io.jkubelet.core.lifecycle.HttpHookClient;
import io.jkubelet.core.podutil.PodSpecs;
import io.jkubelet.core.prober.ProbeVerdicts;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PodSandboxStatus;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.runtimeclass.RuntimeClassManager;
import io.jkubelet.core.util.Backoff;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volumemanager.VolumeInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs pods on the runtime port (upstream {@code kubeGenericRuntimeManager}): acts on {@link ComputePodActions}'
 * decision for a pod, with one part for each job: {@link PodStatusReader} reads the pod's state,
 * {@link ContainerStarter} starts containers with crash-loop back-off, {@link ContainerKiller} stops them with
 * their grace periods, {@link EtcHostsFile} writes the pod's hosts file and {@link RuntimeGc} removes what is
 * dead. Thread-safe; pod workers call it for different pods at once.
 */
public final class RuntimeManager implements KubeRuntime {
    private static final Logger log = LoggerFactory.getLogger(RuntimeManager.class);

    public static final String CRASH_LOOP_BACK_OFF = "CrashLoopBackOff";
    public static final String CREATE_CONTAINER_CONFIG_ERROR = "CreateContainerConfigError";
    public static final String CREATE_CONTAINER_ERROR = "CreateContainerError";
    public static final String RUN_CONTAINER_ERROR = "RunContainerError";
    /** The start error of a container whose postStart hook failed (upstream {@code ErrPostStartHook}). */
    public static final String POST_START_HOOK_ERROR = "PostStartHookError";

    private final RuntimeService runtime;
    private final ContainerConfigFactory configs;
    private final PodVolumes volumes;
    private final NodeContext node;
    private final EventRecorder recorder;
    private final Backoff crashBackoff;
    private final String runtimeType;
    private final PodStatusReader statuses;
    private final ContainerStarter starter;
    private final ContainerKiller killer;
    private final EtcHostsFile hostsFile;
    private final RuntimeGc gc;
    private final RuntimeClassManager runtimeClasses;

    /**
     * @param hookHttp sends the requests of {@code httpGet} lifecycle hooks
     * @param pods what container GC asks about the pods it finds
     * @param runtimeClasses the runtime handler of each pod's RuntimeClass, which its sandbox is run with
     */
    public RuntimeManager(RuntimeService runtime, ImageManager images, ContainerConfigFactory configs,
                          PodVolumes volumes, PodDirs dirs, NodeContext node, EventRecorder recorder, Clock clock,
                          HttpHookClient hookHttp, PodStateProvider pods, RuntimeClassManager runtimeClasses) {
        this(runtime, images, configs, volumes, dirs, node, recorder, clock, hookHttp, pods, runtimeClasses,
                TimedWait.REAL);
    }

    RuntimeManager(RuntimeService runtime, ImageManager images, ContainerConfigFactory configs,
                   PodVolumes volumes, PodDirs dirs, NodeContext node, EventRecorder recorder, Clock clock,
                   HttpHookClient hookHttp, PodStateProvider pods, RuntimeClassManager runtimeClasses,
                   TimedWait waits) {
        this.runtime = runtime;
        this.runtimeClasses = runtimeClasses;
        this.configs = configs;
        this.volumes = volumes;
        this.node = node;
        this.recorder = recorder;
        this.crashBackoff = new Backoff(clock, Duration.ofSeconds(10), Duration.ofSeconds(300));
        this.runtimeType = runtime.version().runtimeName();
        NodeScope scope = new NodeScope(node.nodeName());
        this.statuses = new PodStatusReader(runtime, scope, runtimeType);
        HandlerRunner hooks = new HandlerRunner(runtime, hookHttp, this::podIps);
        this.killer = new ContainerKiller(runtime, recorder, hooks, clock, waits);
        this.starter = new ContainerStarter(runtime, images, configs, dirs, node.containerLogsDir(), recorder,
                crashBackoff, hooks, killer);
        this.hostsFile = new EtcHostsFile(dirs, node.clusterDomain());
        this.gc = new RuntimeGc(runtime, scope, crashBackoff, pods,
                new PodLogsGc(node.podLogsDir(), node.containerLogsDir(), runtime), clock);
    }

    /** The IPs an {@code httpGet} hook without a host goes to: the node's for a host-network pod. */
    private List<String> podIps(Pod pod) {
        if (PodSpecs.hostNetwork(pod)) {
            return node.hostIps();
        }
        var m = pod.getMetadata();
        return getPodStatus(m.getUid(), m.getName(), m.getNamespace()).ips();
    }

    @Override
    public String type() {
        return runtimeType;
    }

    @Override
    public RuntimePodStatus getPodStatus(String uid, String name, String namespace) {
        return statuses.getPodStatus(uid, name, namespace);
    }

    @Override
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
                        gc.removeContainer(cs.id());
                    }
                }
            }
        } else {
            actions.containersToKill().forEach((id, k) -> {
                killer.killContainer(pod, id, k.name(), k.message(), k.reason(), null);
            });
        }
        if (!actions.createSandbox() && actions.nextInitContainerToStart() == null
                && actions.initContainersToStart().isEmpty() && actions.containersToStart().isEmpty()) {
            return result;
        }

        Map<String, VolumeInfo> mountedVolumes = volumes.mountedVolumes(pod);

        String sandboxId = actions.sandboxId();
        int attempt = actions.attempt();
        List<String> podIps = podStatus.ips();
        PodSandboxConfig sandboxConfig;
        try {
            sandboxConfig = configs.sandboxConfig(pod, attempt);
        } catch (ContainerConfigFactory.ConfigException e) {
            // Upstream's messages: the sandbox cannot be made (with its event), or the containers to start cannot.
            String msg;
            if (actions.createSandbox()) {
                msg = "Failed to create pod sandbox: " + e.getMessage();
                recorder.event(References.pod(pod), EventRecorder.WARNING, "FailedCreatePodSandBox", msg);
            } else {
                msg = "GeneratePodSandboxConfig for pod \"" + PodSpecs.format(pod) + "\" failed: " + e.getMessage();
            }
            result.fail(msg);
            return result;
        }
        if (actions.createSandbox()) {
            try {
                long t0 = System.nanoTime();
                Files.createDirectories(Path.of(sandboxConfig.logDirectory()));
                // Upstream's createPodSandbox: a RuntimeClass that cannot be found fails the sandbox as the runtime's
                // refusal of its handler does, with the same event, and the pod's sync is retried with back-off.
                String runtimeHandler = runtimeClasses.lookupRuntimeHandler(pod.getSpec().getRuntimeClassName());
                if (!runtimeHandler.isEmpty()) {
                    log.debug("Running pod {} with RuntimeHandler \"{}\"", PodSpecs.format(pod), runtimeHandler);
                }
                sandboxId = runtime.runPodSandbox(sandboxConfig, runtimeHandler);
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
        Path etcHosts = hostsFile.ensure(pod, podIp);

        if (actions.nextInitContainerToStart() != null) {
            result.add(starter.start(new StartRequest(pod, podStatus, actions.nextInitContainerToStart(), sandboxId,
                    sandboxConfig, podIp, mountedVolumes, etcHosts)));
            return result;
        }
        // A pod with sidecars (upstream SyncPod step 6 with SidecarContainers): start them in order; a sidecar
        // that fails to start does not hold up the rest, any other init container does.
        List<Container> initContainers = PodSpecs.initContainers(pod);
        for (int idx : actions.initContainersToStart()) {
            Container ic = initContainers.get(idx);
            SyncResult.StartResult r = starter.start(new StartRequest(pod, podStatus, ic, sandboxId, sandboxConfig, podIp,
                    mountedVolumes, etcHosts));
            result.add(r);
            if (!r.ok() && !PodSpecs.isRestartableInitContainer(ic)) {
                return result;
            }
        }
        List<Container> containers = PodSpecs.containers(pod);
        for (int idx : actions.containersToStart()) {
            result.add(starter.start(new StartRequest(pod, podStatus, containers.get(idx), sandboxId, sandboxConfig, podIp,
                    mountedVolumes, etcHosts)));
        }
        return result;
    }

    private static String firstOrNull(List<String> l) {
        return l.isEmpty() ? null : l.get(0);
    }

    @Override
    public Optional<Duration> crashLoopRemaining(Pod pod, RuntimePodStatus podStatus, String containerName) {
        return starter.crashLoopRemaining(pod, podStatus, containerName);
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
        killer.killContainer(pod, containerId, name, message, reason, gracePeriodOverride);
    }

    @Override
    public void killPod(Pod pod, RuntimePodStatus podStatus, Long gracePeriodOverride) {
        killer.killPod(pod, podStatus, gracePeriodOverride);
    }

    @Override
    public void removePod(String uid) {
        gc.removePod(uid);
    }

    @Override
    public void garbageCollect(GCPolicy policy, boolean allSourcesReady, boolean evictNonDeletedPods) {
        gc.garbageCollect(policy, allSourcesReady, evictNonDeletedPods);
    }
}
