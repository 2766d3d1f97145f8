package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.admission.MachineNode;
import io.jkubelet.core.admission.PodAdmitResult;
import io.jkubelet.core.admission.PredicateAdmitHandler;
import io.jkubelet.core.config.ConfigAnnotations;
import io.jkubelet.core.container.ContainerStatus;
import io.jkubelet.core.container.State;
import io.jkubelet.core.credentialprovider.DockerKeyring;
import io.jkubelet.core.credentialprovider.PullSecrets;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.images.ImageManager;
import io.jkubelet.core.kuberuntime.ContainerConfigFactory;
import io.jkubelet.core.kuberuntime.OomScorePolicy;
import io.jkubelet.core.kuberuntime.PodSpecs;
import io.jkubelet.core.kuberuntime.RuntimeManager;
import io.jkubelet.core.kuberuntime.SyncResult;
import io.jkubelet.core.lifecycle.ActiveDeadline;
import io.jkubelet.core.lifecycle.HttpGetHookClient;
import io.jkubelet.core.metrics.InstrumentedImageService;
import io.jkubelet.core.metrics.InstrumentedRuntimeService;
import io.jkubelet.core.metrics.KubeletMetrics;
import io.jkubelet.core.objects.PodObjects;
import io.jkubelet.core.pleg.GenericPleg;
import io.jkubelet.core.pleg.PodLifecycleEvent;
import io.jkubelet.core.pleg.RunningPod;
import io.jkubelet.core.pod.MirrorClient;
import io.jkubelet.core.pod.MirrorPods;
import io.jkubelet.core.probe.ProbeResult;
import io.jkubelet.core.prober.ProbeManager;
import io.jkubelet.core.prober.ProbeType;
import io.jkubelet.core.prober.ProbeUpdate;
import io.jkubelet.core.prober.Prober;
import io.jkubelet.core.prober.ProberMetrics;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.status.ApiStatusSync;
import io.jkubelet.core.status.PodPhases;
import io.jkubelet.core.status.PodStatusGenerator;
import io.jkubelet.core.status.ReasonCache;
import io.jkubelet.core.status.StatusManager;
import io.jkubelet.core.util.DaemonThreads;
import io.jkubelet.core.volume.ApiVolumes;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.VolumeManager;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The node agent: takes the desired pods from the sources, makes the runtime run them through one worker
 * per pod, keeps their status, and cleans up what removed pods leave behind (upstream {@code Kubelet}).
 * Every source, PLEG event and timer goes through one {@link SyncLoop}; all slow work runs on pod workers.
 */
public final class Kubelet implements PodWorkers.SyncHandler, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Kubelet.class);

    static final Duration SYNC_TICK = Duration.ofSeconds(1);
    static final Duration HOUSEKEEPING_PERIOD = Duration.ofSeconds(2);
    /** Retry after a failed pod sync (upstream {@code backOffPeriod}). */
    static final Duration BACK_OFF_PERIOD = Duration.ofSeconds(10);
    /** Dead instances kept per container (upstream {@code MaxPerPodContainer}, from --maximum-dead-containers-per-container). */
    static final int MAX_DEAD_PER_CONTAINER = 1;

    private final KubeletSettings settings;
    private final KubeletDeps deps;
    private final PodManager podManager = new PodManager();
    private final ReasonCache reasonCache = new ReasonCache();
    private final StatusManager statusManager;
    private final PodStatusGenerator statusGenerator;
    private final RuntimeManager runtimeManager;
    private final VolumeManager volumes;
    private final PodDirs dirs;
    private final PodWorkers podWorkers;
    private final GenericPleg pleg;
    private final PrometheusRegistry probeMetrics = new PrometheusRegistry();
    private final KubeletMetrics kubeletMetrics;
    /** The runtime and image services, instrumented: what every part of the kubelet calls. */
    private final RuntimeService runtime;
    private final ImageService images;
    private final ProbeManager probeManager;
    private final SyncLoop syncLoop = new SyncLoop();
    private final ExecutorService workerExecutor = Executors.newVirtualThreadPerTaskExecutor();
    private final ScheduledExecutorService timers = DaemonThreads.scheduler("kubelet-timers");
    private volatile BooleanSupplier sourcesReady = () -> true;
    private final ActiveDeadline activeDeadline;
    private final Set<String> seenSources = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** The apiserver side, when the node has one: mirror pods of static pods and status writes. */
    private final Optional<MirrorClient> mirrorClient;
    private final Optional<ApiStatusSync> apiStatusSync;
    private final Set<String> orphanMirrorDeletes = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final PredicateAdmitHandler admitHandler = new PredicateAdmitHandler();
    /** The node admission checks pods against: the registered node on a cluster node, else this machine. */
    private volatile Supplier<Node> node;
    /** The node built from this machine (upstream's {@code initialNode}): what admission uses until a node object is known. */
    private final Node machineNode;

    public Kubelet(KubeletSettings settings, KubeletDeps deps, Function<Pod, String> qosClass, OomScorePolicy oomPolicy) {
        this(settings, deps, qosClass, oomPolicy, PodObjects.standalone());
    }

    /**
     * @param objects the ConfigMaps, Secrets and service account tokens of the pods' volumes, env and pull secrets;
     *                {@link PodObjects#standalone()} on a node without an apiserver
     */
    public Kubelet(KubeletSettings settings, KubeletDeps deps, Function<Pod, String> qosClass, OomScorePolicy oomPolicy,
                   PodObjects objects) {
        this.settings = settings;
        this.deps = deps;
        this.dirs = new PodDirs(settings.rootDir());
        this.volumes = new VolumeManager(dirs, new ApiVolumes(dirs, objects, settings.node().nodeName(),
                settings.node()::hostIps, this::allocatable, deps.clock()));
        this.statusManager = new StatusManager(deps.clock());
        this.activeDeadline = new ActiveDeadline(deps.clock());
        this.kubeletMetrics = new KubeletMetrics(settings.node().nodeName());
        // Every runtime call the kubelet makes is counted and timed (upstream's instrumented services).
        this.runtime = new InstrumentedRuntimeService(deps.runtime(), kubeletMetrics);
        this.images = new InstrumentedImageService(deps.images(), kubeletMetrics);
        this.probeManager = ProbeManager.create(Prober.create(runtime, deps.recorder(), settings.kubeletVersion()),
                statusManager::getPodStatus, this::handleProbeResult, new ProberMetrics(probeMetrics), deps.clock());
        this.statusGenerator = new PodStatusGenerator(reasonCache, probeManager, qosClass);
        PullSecrets pullSecrets = new PullSecrets(objects.secrets(), deps.recorder());
        ImageManager imageManager = new ImageManager(images, deps.recorder(), deps.clock(), settings.serializeImagePulls(),
                pod -> objects.fromApiserver() ? pullSecrets.keyring(pod) : DockerKeyring.EMPTY);
        this.runtimeManager = new RuntimeManager(runtime, imageManager,
                new ContainerConfigFactory(settings.node(), oomPolicy, objects, deps.recorder(), this::allocatable), volumes, dirs, settings.node(), deps.recorder(),
                deps.clock(), new HttpGetHookClient(settings.kubeletVersion()));
        this.podWorkers = new PodWorkers(this, deps.clock(), settings.syncFrequency(), BACK_OFF_PERIOD, workerExecutor);
        this.pleg = new GenericPleg(runtime, settings.node().nodeName(),
                e -> syncLoop.submit(() -> handlePlegEvent(e)), deps.clock(), settings.relistPeriod());
        pleg.observeRelists(kubeletMetrics::observeRelist);
        this.mirrorClient = deps.kubeClient().map(c -> new MirrorClient(c, settings.node().nodeName()));
        this.apiStatusSync = deps.kubeClient().map(c -> new ApiStatusSync(c, statusManager, new ApiStatusSync.Pods() {
            @Override
            public Optional<Pod> pod(String uid) {
                return podManager.get(uid);
            }

            @Override
            public Optional<Pod> mirrorPodOf(Pod staticPod) {
                return podManager.mirrorPodOf(staticPod);
            }

            @Override
            public boolean podResourcesReclaimed(String uid) {
                // Upstream PodCouldHaveRunningContainers: once terminated, its containers are stopped.
                return !podWorkers.couldHaveRunningContainers(uid);
            }
        }));
        this.machineNode = MachineNode.detect(settings.node().nodeName(), settings.maxPods(), settings.rootDir());
        this.node = () -> machineNode;
    }

    /**
     * Where admission reads the node (labels, taints, allocatable), upstream's {@code getNodeAnyWay}: the
     * node status helper's latest node when there is an apiserver. Defaults to the machine's capacity with
     * {@code pods} = {@code maxPods}; while the supplier has no node yet (returns null), that machine node
     * is used, as upstream falls back to its initial node.
     */
    public void setNodeSupplier(Supplier<Node> node) {
        this.node = () -> {
            Node n = node.get();
            return n != null ? n : machineNode;
        };
    }

    /** The node's allocatable as registered (the machine's before that): downward API limits default to it. */
    private Map<String, io.fabric8.kubernetes.api.model.Quantity> allocatable() {
        Node n = node.get();
        return n.getStatus() == null || n.getStatus().getAllocatable() == null ? Map.of() : n.getStatus().getAllocatable();
    }

    /** Housekeeping waits until every source has delivered its pods once, so nothing is killed too early. */
    public void setSourcesReady(BooleanSupplier ready) {
        this.sourcesReady = ready;
    }

    public void run() {
        try {
            Files.createDirectories(dirs.podsDir());
        } catch (IOException e) {
            throw new IllegalStateException("cannot create " + dirs.podsDir() + ": " + e.getMessage(), e);
        }
        syncLoop.start();
        pleg.start();
        apiStatusSync.ifPresent(ApiStatusSync::start);
        timers.scheduleWithFixedDelay(() -> syncLoop.submit(this::syncDuePods),
                SYNC_TICK.toMillis(), SYNC_TICK.toMillis(), TimeUnit.MILLISECONDS);
        timers.scheduleWithFixedDelay(this::requestHousekeeping,
                HOUSEKEEPING_PERIOD.toMillis(), HOUSEKEEPING_PERIOD.toMillis(), TimeUnit.MILLISECONDS);
        timers.scheduleWithFixedDelay(this::garbageCollectContainers,
                settings.containerGcPeriod().toMillis(), settings.containerGcPeriod().toMillis(), TimeUnit.MILLISECONDS);
    }

    // ---- pod updates from the sources (called on any thread; handled on the loop) ----

    /**
     * One update from the pod config ({@code syncLoopIteration}'s config case). Its source counts as seen only once
     * the update has reached the pod manager, on the loop: a housekeeping pass queued before it must not find the
     * runtime's pods of a source whose pods are still on their way and kill them as unwanted (a restarted agent
     * did that to every apiserver pod).
     */
    public void handlePodUpdate(io.jkubelet.core.config.PodUpdate update) {
        switch (update.op()) {
            case ADD -> handlePodAdditions(update.pods());
            case UPDATE -> handlePodUpdates(update.pods());
            case REMOVE -> handlePodRemoves(update.pods());
            case DELETE -> handlePodDeletes(update.pods());
            case RECONCILE -> handlePodReconcile(update.pods());
            case SET -> log.error("Kubelet does not support snapshot update");
        }
        syncLoop.submit(() -> seenSources.add(update.source()));
    }

    /** The sources whose updates have reached the pod manager at least once. */
    public Set<String> seenSources() {
        return java.util.Collections.unmodifiableSet(seenSources);
    }

    /** Runs {@code action} on the sync loop after what is queued there (tests order work around the loop with it). */
    void runOnSyncLoop(Runnable action) {
        syncLoop.submit(action);
    }

    /** Queues one housekeeping pass, as its timer does. */
    void requestHousekeeping() {
        syncLoop.submit(this::housekeeping);
    }

    public void handlePodAdditions(List<Pod> pods) {
        syncLoop.submit(() -> {
            List<Pod> sorted = new ArrayList<>(pods);
            sorted.sort(Comparator.comparing(p -> String.valueOf(p.getMetadata().getCreationTimestamp())));
            for (Pod pod : sorted) {
                podManager.addOrUpdate(pod);
                if (ConfigAnnotations.isMirrorPod(pod)) {
                    handleMirrorPod(pod);
                    continue;
                }
                if (isTerminal(pod)) {
                    continue;
                }
                if (pod.getMetadata().getDeletionTimestamp() != null) {
                    // Deleted while the kubelet was away: terminate it rather than start it.
                    podWorkers.updatePod(PodWorkers.UpdateType.KILL, pod, pod.getMetadata().getDeletionGracePeriodSeconds());
                    continue;
                }
                PodAdmitResult admitted = admit(pod);
                if (!admitted.admit()) {
                    reject(pod, admitted.reason(), admitted.message());
                    continue;
                }
                podWorkers.updatePod(PodWorkers.UpdateType.CREATE, pod, null);
            }
        });
    }

    public void handlePodUpdates(List<Pod> pods) {
        syncLoop.submit(() -> {
            for (Pod pod : pods) {
                podManager.addOrUpdate(pod);
                if (ConfigAnnotations.isMirrorPod(pod)) {
                    handleMirrorPod(pod);
                } else if (podWorkers.isKnown(pod.getMetadata().getUid())) {
                    podWorkers.updatePod(PodWorkers.UpdateType.UPDATE, pod, null);
                }
            }
        });
    }

    /** Pods whose source dropped them: killed with their grace period, cleaned up by housekeeping. */
    public void handlePodRemoves(List<Pod> pods) {
        syncLoop.submit(() -> {
            for (Pod pod : pods) {
                podManager.remove(pod);
                if (ConfigAnnotations.isMirrorPod(pod)) {
                    handleMirrorPod(pod); // gone from the apiserver: the static pod's sync creates it again
                    continue;
                }
                podWorkers.updatePod(PodWorkers.UpdateType.KILL, pod, null);
            }
        });
    }

    /** Pods marked for graceful deletion: killed with {@code deletionGracePeriodSeconds}. */
    public void handlePodDeletes(List<Pod> pods) {
        syncLoop.submit(() -> {
            for (Pod pod : pods) {
                podManager.addOrUpdate(pod);
                if (ConfigAnnotations.isMirrorPod(pod)) {
                    handleMirrorPod(pod); // a deleted mirror pod is replaced, its static pod keeps running
                    continue;
                }
                podWorkers.updatePod(PodWorkers.UpdateType.KILL, pod, pod.getMetadata().getDeletionGracePeriodSeconds());
            }
        });
    }

    public void handlePodReconcile(List<Pod> pods) {
        syncLoop.submit(() -> pods.forEach(podManager::addOrUpdate));
    }

    /**
     * Upstream {@code handleMirrorPod}: a change to a mirror pod is a reason to sync its static pod (which creates,
     * replaces or keeps the mirror pod) and to write the static pod's status to it.
     */
    private void handleMirrorPod(Pod mirror) {
        podManager.staticPodByFullName(ConfigAnnotations.podFullName(mirror)).ifPresent(staticPod -> {
            if (podWorkers.isKnown(staticPod.getMetadata().getUid())) {
                podWorkers.updatePod(PodWorkers.UpdateType.SYNC, staticPod, null);
            }
            apiStatusSync.ifPresent(s -> s.requestSync(staticPod.getMetadata().getUid()));
        });
    }

    private void handlePlegEvent(PodLifecycleEvent e) {
        if (e.type() == PodLifecycleEvent.Type.CONTAINER_REMOVED) {
            return; // not sync-worthy (upstream isSyncPodWorthy): removals are our own clean-up
        }
        Optional<Pod> pod = podManager.get(e.podUid());
        if (pod.isPresent()) {
            podWorkers.updatePod(PodWorkers.UpdateType.SYNC, pod.get(), null);
        } else if (podWorkers.isKnown(e.podUid())) {
            // A pod being torn down: let its worker look again.
            log.debug("PLEG event for pod {} being removed: {}", e.podUid(), e.type());
        }
    }

    /**
     * A probe result changed (on a prober thread). Upstream feeds liveness failures into a pod sync, and
     * readiness and startup changes into the status manager; here both are a sync of the pod, which kills
     * what failed and regenerates the status from the probe results.
     */
    private void handleProbeResult(ProbeUpdate update) {
        if (update.type() == ProbeType.LIVENESS && update.result() != ProbeResult.FAILURE) {
            return; // a liveness success changes nothing the kubelet shows or does
        }
        syncLoop.submit(() -> podManager.get(update.podUid())
                .ifPresent(p -> podWorkers.updatePod(PodWorkers.UpdateType.SYNC, p, null)));
    }

    private void syncDuePods() {
        for (String uid : podWorkers.takeDue()) {
            podManager.get(uid).ifPresent(p -> podWorkers.updatePod(PodWorkers.UpdateType.SYNC, p, null));
        }
    }

    /** Upstream's {@code canAdmitPod}: the pod against the node and the other active pods. */
    private PodAdmitResult admit(Pod pod) {
        List<Pod> active = podManager.pods().stream()
                .filter(p -> !p.getMetadata().getUid().equals(pod.getMetadata().getUid()))
                .filter(p -> !ConfigAnnotations.isMirrorPod(p)) // a mirror pod stands for a static pod counted already
                .filter(p -> !isTerminal(p) && !podWorkers.isTerminationRequested(p.getMetadata().getUid()))
                .toList();
        return admitHandler.admit(pod, active, node);
    }

    private void reject(Pod pod, String reason, String message) {
        deps.recorder().event(References.pod(pod), EventRecorder.WARNING, reason, message);
        PodStatus s = new PodStatus();
        s.setPhase(PodPhases.FAILED);
        s.setReason(reason);
        s.setMessage("Pod was rejected: " + message);
        s.setConditions(List.of());
        statusManager.setPodStatus(pod, s);
    }

    private boolean isTerminal(Pod pod) {
        Optional<PodStatus> s = statusManager.getPodStatus(pod.getMetadata().getUid());
        return s.isPresent() && PodPhases.isTerminal(s.get().getPhase());
    }

    // ---- pod workers' handlers ----

    @Override
    public PodWorkers.SyncOutcome syncPod(PodWorkers.UpdateType type, Pod pod) {
        long start = System.nanoTime();
        try {
            return doSyncPod(pod);
        } finally {
            kubeletMetrics.observePodWorker(type.name().toLowerCase(java.util.Locale.ROOT),
                    Duration.ofNanos(System.nanoTime() - start));
        }
    }

    private PodWorkers.SyncOutcome doSyncPod(Pod pod) {
        String uid = pod.getMetadata().getUid();
        var podStatus = runtimeManager.getPodStatus(uid, pod.getMetadata().getName(), pod.getMetadata().getNamespace());
        PodStatus apiStatus = generateStatus(pod, podStatus, false);
        observePodStart(pod, apiStatus);
        statusManager.setPodStatus(pod, apiStatus);
        if (ConfigAnnotations.isStaticPod(pod)) {
            syncMirrorPod(pod);
        }
        if (PodPhases.isTerminal(apiStatus.getPhase())) {
            return PodWorkers.SyncOutcome.TERMINAL;
        }
        probeManager.addPod(pod); // idempotent: a pod is probed from its first sync on (upstream SyncPod)
        SyncResult result = runtimeManager.syncPod(pod, podStatus, probeManager);
        boolean reasonsChanged = false;
        Duration retryAfter = null;
        for (SyncResult.StartResult r : result.starts()) {
            var before = reasonCache.get(uid, r.containerName());
            if (r.ok()) {
                reasonCache.remove(uid, r.containerName());
                reasonsChanged |= before.isPresent();
            } else {
                reasonCache.add(uid, r.containerName(), r.reason(), r.message());
                reasonsChanged |= before.isEmpty() || !before.get().reason().equals(r.reason());
                if (RuntimeManager.CRASH_LOOP_BACK_OFF.equals(r.reason())) {
                    Duration left = crashLoopRemaining(pod, podStatus, r.containerName());
                    retryAfter = retryAfter == null || left.compareTo(retryAfter) < 0 ? left : retryAfter;
                }
            }
        }
        if (reasonsChanged) {
            statusManager.setPodStatus(pod, generateStatus(pod, podStatus, false));
        }
        if (result.error() != null) {
            log.warn("Error syncing pod {}: {}", PodSpecs.format(pod), result.error());
            return new PodWorkers.SyncOutcome(false, BACK_OFF_PERIOD);
        }
        if (result.failed() && retryAfter == null) {
            retryAfter = BACK_OFF_PERIOD;
        }
        // A pod with a deadline is synced again as it passes (upstream's ShouldSync), not at the next resync.
        Optional<Duration> deadline = activeDeadline.remaining(pod, apiStatus).map(d -> d.plusMillis(100));
        if (deadline.isPresent() && (retryAfter == null || deadline.get().compareTo(retryAfter) < 0)) {
            retryAfter = deadline.get();
        }
        return new PodWorkers.SyncOutcome(false, retryAfter);
    }

    /**
     * Keeps a static pod's mirror pod in the apiserver (upstream {@code SyncPod}): one that is being deleted or that
     * shows an older version of the manifest is deleted, and a missing one created. Failures are logged and left to
     * the next sync: the static pod runs whatever the apiserver says.
     */
    private void syncMirrorPod(Pod staticPod) {
        if (mirrorClient.isEmpty()) {
            return;
        }
        try {
            Optional<Pod> mirror = podManager.mirrorPodOf(staticPod);
            boolean deleted = false;
            if (mirror.isPresent() && (mirror.get().getMetadata().getDeletionTimestamp() != null
                    || !MirrorPods.isMirrorPodOf(mirror.get(), staticPod))) {
                mirrorClient.get().deleteMirrorPod(mirror.get());
                deleted = true;
            }
            if (mirror.isEmpty() || deleted) {
                Optional<Pod> created = mirrorClient.get().createMirrorPod(staticPod);
                if (created.isPresent()) {
                    // Known at once, not only when the watch brings it: the next sync must not create it again.
                    podManager.addOrUpdate(created.get());
                    log.info("Created mirror pod for static pod {}", PodSpecs.format(staticPod));
                    apiStatusSync.ifPresent(s -> s.requestSync(staticPod.getMetadata().getUid()));
                }
            }
        } catch (RuntimeException e) {
            log.warn("Failed to sync the mirror pod of static pod {}: {}", PodSpecs.format(staticPod), e.getMessage());
        }
    }

    private Duration crashLoopRemaining(Pod pod, io.jkubelet.core.container.PodStatus podStatus, String name) {
        // A little past the end, so the next sync is sure to be out of back-off.
        return runtimeManager.crashLoopRemaining(pod, podStatus, name).map(d -> d.plusMillis(100)).orElse(BACK_OFF_PERIOD);
    }

    @Override
    public void syncTerminatingPod(Pod pod, Long gracePeriodOverride) {
        String uid = pod.getMetadata().getUid();
        // A terminating pod's liveness must not restart what is being stopped; readiness goes on until it is.
        probeManager.stopLivenessAndStartup(pod);
        var podStatus = runtimeManager.getPodStatus(uid, pod.getMetadata().getName(), pod.getMetadata().getNamespace());
        runtimeManager.killPod(pod, podStatus, gracePeriodOverride);
        probeManager.removePod(pod);
        var after = runtimeManager.getPodStatus(uid, pod.getMetadata().getName(), pod.getMetadata().getNamespace());
        if (podManager.get(uid).isPresent() && pod.getSpec() != null) {
            statusManager.setPodStatus(pod, generateStatus(pod, after, true));
        }
    }

    @Override
    public void syncTerminatedPod(Pod pod) {
        log.info("Pod {} terminated", PodSpecs.format(pod));
        // A pod deleted in the apiserver can now be removed from it (its final status first).
        apiStatusSync.ifPresent(s -> s.requestSync(pod.getMetadata().getUid()));
    }

    private PodStatus generateStatus(Pod pod, io.jkubelet.core.container.PodStatus podStatus, boolean terminal) {
        PodStatus old = statusManager.getPodStatus(pod.getMetadata().getUid())
                .orElse(pod.getStatus() == null ? new PodStatus() : pod.getStatus());
        PodStatus s = statusGenerator.generate(pod, podStatus, old, terminal, settings.node().hostIps(), ConfigAnnotations.isStaticPod(pod));
        if (activeDeadline.exceeded(pod, s)) {
            // Upstream's eviction by a pod sync handler: the pod fails, and syncing it kills its containers.
            if (!ActiveDeadline.REASON.equals(old.getReason())) {
                deps.recorder().event(References.pod(pod), EventRecorder.NORMAL, ActiveDeadline.REASON, ActiveDeadline.MESSAGE);
            }
            s.setPhase(PodPhases.FAILED);
            s.setReason(ActiveDeadline.REASON);
            s.setMessage(ActiveDeadline.MESSAGE);
        }
        return s;
    }

    // ---- housekeeping and garbage collection ----

    /** Upstream {@code HandlePodCleanups}: kill what should not run, clean up what removed pods left. */
    void housekeeping() {
        if (!sourcesReady.getAsBoolean()) {
            return;
        }
        Set<String> desired = podManager.uids();
        // Pods whose workers finished and that no source wants any more.
        for (String uid : podWorkers.knownUids()) {
            if (!desired.contains(uid) && podWorkers.isTerminated(uid)) {
                cleanupRemovedPod(uid);
                podWorkers.forget(uid);
            }
        }
        // Pods running on the runtime that nobody wants (removed while the agent was down).
        for (RunningPod rp : pleg.runningPods()) {
            if (desired.contains(rp.uid()) || podWorkers.isKnown(rp.uid())) {
                continue;
            }
            boolean anyRunning = rp.members().stream().anyMatch(RunningPod.Member::running);
            if (anyRunning) {
                log.info("Killing unwanted pod {}/{} ({})", rp.namespace(), rp.name(), rp.uid());
                podWorkers.updatePod(PodWorkers.UpdateType.KILL, orphan(rp), 1L);
            } else {
                cleanupRemovedPod(rp.uid());
            }
        }
        probeManager.cleanupPods(desired);
        statusManager.removeOrphanedStatuses(desired);
        cleanupOrphanedPodDirs(desired);
        deleteOrphanedMirrorPods();
    }

    /** Upstream {@code deleteOrphanedMirrorPods}: mirror pods whose static pod is gone, deleted off the loop. */
    private void deleteOrphanedMirrorPods() {
        if (mirrorClient.isEmpty()) {
            return;
        }
        for (Pod mirror : podManager.orphanedMirrorPods()) {
            String uid = mirror.getMetadata().getUid();
            if (!orphanMirrorDeletes.add(uid)) {
                continue; // a delete is already on its way
            }
            workerExecutor.execute(() -> {
                try {
                    mirrorClient.get().deleteMirrorPod(mirror);
                } catch (RuntimeException e) {
                    log.warn("Failed to delete orphaned mirror pod {}: {}", ConfigAnnotations.podFullName(mirror), e.getMessage());
                } finally {
                    orphanMirrorDeletes.remove(uid);
                }
            });
        }
    }

    private static Pod orphan(RunningPod rp) {
        return new PodBuilder().withNewMetadata().withUid(rp.uid()).withName(rp.name()).withNamespace(rp.namespace())
                .endMetadata().withNewSpec().endSpec().build();
    }

    private void cleanupRemovedPod(String uid) {
        workerExecutor.execute(() -> {
            Optional<RunningPod> rp = pleg.runningPod(uid);
            runtimeManager.removePod(uid);
            volumes.cleanupPod(uid);
            reasonCache.removePod(uid);
            rp.ifPresent(p -> removePodLogs(p.namespace(), p.name(), uid));
            pleg.requestRelist();
        });
    }

    private void removePodLogs(String namespace, String name, String uid) {
        Path dir = ContainerConfigFactory.podLogsDir(settings.node().podLogsDir(), namespace, name, uid);
        try {
            VolumeManager.deleteRecursively(dir);
            Path links = settings.node().containerLogsDir();
            if (Files.isDirectory(links)) {
                try (var s = Files.list(links)) {
                    for (Path l : s.filter(p -> p.getFileName().toString().startsWith(name + "_" + namespace + "_")).toList()) {
                        if (Files.isSymbolicLink(l) && !Files.exists(l)) {
                            Files.deleteIfExists(l);
                        }
                    }
                }
            }
        } catch (IOException e) {
            log.warn("Failed to remove logs of pod {}/{}: {}", namespace, name, e.getMessage());
        }
    }

    private void cleanupOrphanedPodDirs(Set<String> desired) {
        Path pods = dirs.podsDir();
        if (!Files.isDirectory(pods)) {
            return;
        }
        Set<String> running = pleg.runningPods().stream().map(RunningPod::uid).collect(Collectors.toSet());
        try (var s = Files.list(pods)) {
            for (Path p : s.toList()) {
                String uid = p.getFileName().toString();
                if (!desired.contains(uid) && !running.contains(uid) && !podWorkers.isKnown(uid)) {
                    volumes.cleanupPod(uid);
                }
            }
        } catch (IOException e) {
            log.warn("Failed to list {}: {}", pods, e.getMessage());
        }
    }

    /** Container GC: keep the newest dead instance of each container, drop old sandboxes (upstream {@code containerGC}). */
    void garbageCollectContainers() {
        try {
            Set<String> desired = podManager.uids();
            for (RunningPod rp : pleg.runningPods()) {
                if (!desired.contains(rp.uid())) {
                    continue; // removed pods are cleaned up whole by housekeeping
                }
                var status = runtimeManager.getPodStatus(rp.uid(), rp.name(), rp.namespace());
                Map<String, List<ContainerStatus>> byName = status.containers().stream()
                        .filter(c -> c.state() == State.EXITED)
                        .collect(Collectors.groupingBy(ContainerStatus::name));
                Set<String> latestIds = new HashSet<>();
                status.containers().stream().collect(Collectors.groupingBy(ContainerStatus::name))
                        .forEach((n, l) -> latestIds.add(l.get(0).id()));
                byName.forEach((name, dead) -> {
                    int kept = 0;
                    for (ContainerStatus c : dead) {
                        if (latestIds.contains(c.id()) || kept < MAX_DEAD_PER_CONTAINER) {
                            kept++;
                            continue;
                        }
                        runtimeManager.removeContainerQuietly(c.id());
                    }
                });
            }
            runtimeManager.crashBackoff().gc();
        } catch (RuntimeException e) {
            log.warn("Container garbage collection failed: {}", e.getMessage());
        }
    }

    // ---- views for the HTTP servers ----

    /** The node's desired pods with their latest status, for {@code /pods}. */
    public List<Pod> pods() {
        List<Pod> out = new ArrayList<>();
        for (Pod p : podManager.pods()) {
            Optional<PodStatus> s = statusManager.getPodStatus(p.getMetadata().getUid());
            // A shallow pod: the stored metadata, spec and status are shared, never changed in place (they are
            // replaced on change), and readers only read them. A deep copy per pod per request was the bulk
            // of a /pods request's cost.
            out.add(s.isPresent() ? new Pod(p.getApiVersion(), p.getKind(), p.getMetadata(), p.getSpec(), s.get()) : p);
        }
        return out;
    }

    /** Pods as the runtime runs them, for {@code /runningpods/}. */
    public List<RunningPod> runningPods() {
        return pleg.runningPods();
    }

    public Optional<String> plegHealth() {
        return pleg.healthy();
    }

    public long secondsSinceSyncLoopIteration() {
        return syncLoop.secondsSinceLastIteration();
    }

    /** The registry of {@code prober_probe_total} and {@code prober_probe_duration_seconds}, for {@code /metrics/probes}. */
    public PrometheusRegistry probeMetrics() {
        return probeMetrics;
    }

    /** The kubelet's own metrics ({@code kubelet_running_pods}, ...), for {@code /metrics}. */
    public PrometheusRegistry kubeletMetrics() {
        return kubeletMetrics.registry();
    }

    /** The runtime as the kubelet calls it (instrumented), for the stats provider. */
    public RuntimeService runtimeService() {
        return runtime;
    }

    /** The image service as the kubelet calls it (instrumented), for the stats provider. */
    public ImageService imageService() {
        return images;
    }

    /**
     * Upstream's {@code PodStartDuration}: from the kubelet first seeing the pod ({@code kubernetes.io/config.seen})
     * to the sync that first finds it running.
     */
    private void observePodStart(Pod pod, PodStatus apiStatus) {
        if (!"Running".equals(apiStatus.getPhase())) {
            return;
        }
        Optional<PodStatus> before = statusManager.getPodStatus(pod.getMetadata().getUid());
        if (before.isPresent() && "Running".equals(before.get().getPhase())) {
            return;
        }
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        String seen = annotations == null ? null : annotations.get(io.jkubelet.core.config.ConfigAnnotations.CONFIG_FIRST_SEEN);
        if (seen == null) {
            return;
        }
        try {
            kubeletMetrics.observePodStart(Duration.between(java.time.Instant.parse(seen), deps.clock().instant()));
        } catch (java.time.format.DateTimeParseException e) {
            log.debug("pod {}: unparsable {} annotation {}", PodSpecs.format(pod), io.jkubelet.core.config.ConfigAnnotations.CONFIG_FIRST_SEEN, seen);
        }
    }

    public StatusManager statusManager() {
        return statusManager;
    }

    @Override
    public void close() {
        timers.shutdownNow();
        apiStatusSync.ifPresent(ApiStatusSync::close);
        probeManager.close();
        pleg.close();
        syncLoop.close();
        workerExecutor.shutdownNow();
    }
}
