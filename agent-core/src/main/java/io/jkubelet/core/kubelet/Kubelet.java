package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.admission.MachineNode;
import io.jkubelet.core.admission.AppArmorAdmitHandler;
import io.jkubelet.core.admission.PodAdmitHandler;
import io.jkubelet.core.apis.config.FeatureGates;
import io.jkubelet.core.nodeshutdown.GracefulShutdownRecord;
import io.jkubelet.core.nodeshutdown.Inhibitor;
import io.jkubelet.core.nodeshutdown.ShutdownGracePeriod;
import io.jkubelet.core.nodeshutdown.ShutdownGracePeriods;
import io.jkubelet.core.admission.PredicateAdmitHandler;
import io.jkubelet.cadvisor.ProcNode;
import io.jkubelet.core.cluster.ClusterSide;
import io.jkubelet.core.cm.CgroupException;
import io.jkubelet.core.cm.ContainerManager;
import io.jkubelet.core.config.FileSource;
import io.jkubelet.core.config.HttpSource;
import io.jkubelet.core.config.DisabledPodFields;
import io.jkubelet.core.config.PodConfig;
import io.jkubelet.core.config.PodSources;
import io.jkubelet.core.config.PodUpdate;
import io.jkubelet.core.config.PodUpdateSink;
import io.jkubelet.core.config.SourcesReady;
import io.jkubelet.core.container.PodCache;
import io.jkubelet.core.credentialprovider.DockerKeyring;
import io.jkubelet.core.credentialprovider.NodeKeyring;
import io.jkubelet.core.credentialprovider.PullSecrets;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.eviction.EvictionAdmitHandler;
import io.jkubelet.core.eviction.EvictionManager;
import io.jkubelet.core.eviction.NodeReclaim;
import io.jkubelet.core.images.ImageGCManager;
import io.jkubelet.core.images.ImageManager;
import io.jkubelet.core.kuberuntime.ContainerCgroups;
import io.jkubelet.core.kuberuntime.ContainerConfigFactory;
import io.jkubelet.core.kuberuntime.SeccompProfiles;
import io.jkubelet.core.dns.ResolvConfLimits;
import io.jkubelet.core.sysctl.SafeSysctls;
import io.jkubelet.core.sysctl.SysctlAllowlist;
import io.jkubelet.core.kuberuntime.KubeRuntime;
import io.jkubelet.core.kuberuntime.PodStateProvider;
import io.jkubelet.core.kuberuntime.RuntimeManager;
import io.jkubelet.core.lifecycle.HttpGetHookClient;
import io.jkubelet.core.metrics.InstrumentedImageService;
import io.jkubelet.core.metrics.InstrumentedRuntimeService;
import io.jkubelet.core.metrics.KubeletMetrics;
import io.jkubelet.core.nodestatus.NodePressure;
import io.jkubelet.core.objects.PodObjects;
import io.jkubelet.core.pleg.GenericPleg;
import io.jkubelet.core.pleg.RunningPod;
import io.jkubelet.core.pod.MirrorClient;
import io.jkubelet.core.prober.ProbeManager;
import io.jkubelet.core.prober.Prober;
import io.jkubelet.core.prober.ProberMetrics;
import io.jkubelet.core.qos.OomScorePolicy;
import io.jkubelet.core.qos.QosClass;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.stats.StatsProvider;
import io.jkubelet.core.stats.StatsSnapshot;
import io.jkubelet.core.stats.history.StatsHistory;
import io.jkubelet.core.timeline.PodTimelines;
import io.jkubelet.core.timeline.TimelineRecorder;
import io.jkubelet.core.stats.SystemContainers;
import io.jkubelet.core.status.ApiStatusSync;
import io.jkubelet.core.status.PodPhases;
import io.jkubelet.core.status.PodStatusGenerator;
import io.jkubelet.core.status.ReasonCache;
import io.jkubelet.core.status.StatusManager;
import io.jkubelet.core.util.StopSequence;
import io.jkubelet.core.volume.ApiVolumes;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.VolumeManager;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The node agent, assembled (upstream {@code NewMainKubelet} and {@code Run}): builds every part from the settings
 * and the dependencies in one place, starts them in dependency order and stops them in reverse. The pod sources
 * feed the {@link PodConfig}, which feeds the one {@link SyncLoop}; the loop hands pods to their {@link PodWorkers},
 * which run the {@link KubeletPodSyncer}; {@link Housekeeping} and {@link GarbageCollection} (dead containers, unused
 * images) clean up after them.
 */
public final class Kubelet implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Kubelet.class);

    /** How long {@link #close()} gives the parts to stop. */
    public static final Duration DEFAULT_STOP_DEADLINE = Duration.ofSeconds(3);

    private final KubeletSettings settings;
    private final KubeletDeps deps;
    private final PodDirs dirs;
    private final PodManager podManager = new PodManager();
    private final StatusManager statusManager;
    /** What happened to each pod, for the dashboard's pod view and {@code /debug/pods/.../timeline}. */
    private final PodTimelines timelines;
    private final PodWorkers podWorkers;
    private final GenericPleg pleg;
    /** Each pod's runtime state as last read, and which pods the PLEG saw change since: what workers read. */
    private final PodCache podCache;
    private final ProbeManager probeManager;
    private final PrometheusRegistry probeMetrics = new PrometheusRegistry();
    private final KubeletMetrics kubeletMetrics;
    /** The runtime and image services, instrumented: what every part of the kubelet calls. */
    private final RuntimeService runtime;
    private final ImageService images;
    /** Node, pod and container usage, collected on its own period and served from memory (cAdvisor's housekeeping). */
    private final StatsProvider stats;
    /** The last 15 minutes of {@link #stats}' rounds, for the dashboard's charts and {@code /stats/history}. */
    private final StatsHistory statsHistory = new StatsHistory(StatsProvider.DEFAULT_PERIOD);
    private final PodConfig podConfig;
    private final SyncLoopInbox inbox = new SyncLoopInbox();
    private final SyncLoop syncLoop;
    private final SourcesReady sourcesReady;
    private final GarbageCollection garbageCollection;
    private final List<PodSource> sources = new ArrayList<>();
    /** The apiserver side, when the node has one: pod status writes. */
    private final Optional<ApiStatusSync> apiStatusSync;
    /** The threads the parts run on, given with the deps and owned from then on. */
    private final KubeletExecutors executors;
    private final ExecutorService workerExecutor;
    private final ScheduledExecutorService timers;
    /** What runs, in the order it started: stopped in reverse. */
    private final StopSequence running = new StopSequence();
    /** The node admission checks pods against: the registered node on a cluster node, else this machine. */
    private volatile Supplier<Node> node;
    /** The node built from this machine (upstream's {@code initialNode}): what admission uses until a node object is known. */
    private final Node machineNode;
    /** The node allocatable, QoS and pod cgroups. */
    private final ContainerManager containerManager;
    /** Watches memory, disk and PIDs; evicts pods when the node runs short. */
    private final EvictionManager evictionManager;
    /** Graceful node shutdown, once started ({@link #startNodeShutdownManager}); admission asks it. */
    private final NodeShutdown nodeShutdown;

    /** A source of pods, started once the kubelet runs. */
    private record PodSource(String name, Runnable start, AutoCloseable stop) {}

    /**
     * Builds the kubelet; nothing runs before {@link #start()}.
     *
     * @throws IllegalArgumentException when a pod source's setting or an allowed unsafe sysctl cannot be used (the
     *     message names it)
     */
    public Kubelet(KubeletSettings settings, KubeletDeps deps) {
        this.settings = settings;
        this.deps = deps;
        this.executors = deps.executors();
        this.workerExecutor = executors.podWorkers();
        this.timers = executors.timers();
        this.dirs = new PodDirs(settings.rootDir());
        this.containerManager = deps.containerManager();
        this.machineNode = MachineNode.detect(settings.node().nodeName(), settings.maxPods(), settings.rootDir(),
                containerManager::nodeAllocatableReservation);
        this.node = () -> machineNode;
        ClusterSide cluster = deps.cluster();
        PodObjects objects = cluster.objects();
        VolumeManager volumes = new VolumeManager(dirs, new ApiVolumes(dirs, objects, settings.node().nodeName(),
                settings.node()::hostIps, this::allocatable, deps.clock()));
        this.statusManager = new StatusManager(deps.clock());
        this.timelines = new PodTimelines(deps.clock());
        // Every part reports to the kubelet's events; the pods' timelines read them there.
        EventRecorder recorder = new TimelineRecorder(deps.recorder(), timelines);
        statusManager.addListener((pod, status) -> timelines.status(pod, status.status()));
        this.kubeletMetrics = new KubeletMetrics(settings.node().nodeName());
        // Every runtime call the kubelet makes is counted and timed (upstream's instrumented services).
        this.runtime = new InstrumentedRuntimeService(deps.runtime(), kubeletMetrics);
        this.images = new InstrumentedImageService(deps.images(), kubeletMetrics);

        this.probeManager = ProbeManager.create(Prober.create(runtime, recorder, settings.kubeletVersion()),
                statusManager::getPodStatus, u -> {
                    podManager.get(u.podUid()).ifPresent(pod -> timelines.probeResult(pod, u));
                    inbox.post(new SyncLoopEvent.ProbeEvent(u));
                },
                new ProberMetrics(probeMetrics), deps.clock(), executors.probeTicker(), executors.probes());
        ReasonCache reasonCache = new ReasonCache();
        PodStatusGenerator statusGenerator = new PodStatusGenerator(reasonCache, probeManager, pod -> QosClass.of(pod).value());
        PullSecrets pullSecrets = new PullSecrets(objects.secrets(), recorder);
        NodeKeyring nodeKeyring = NodeKeyring.of(settings.nodeCredentials(), deps.clock());
        // A pod's pull secrets first, then the node's own credentials (upstream MakeDockerKeyring's union).
        ImageManager imageManager = new ImageManager(images, recorder, deps.clock(), settings.imagePulls(),
                pod -> (objects.fromApiserver() ? pullSecrets.keyring(pod) : DockerKeyring.EMPTY).union(nodeKeyring.get()));
        long memoryCapacity = settings.memoryCapacity();
        ContainerCgroups cgroups = new ContainerCgroups(containerManager.podContainerManager()::cgroupParent,
                settings.cpuCfsQuota(), settings.cpuCfsQuotaPeriod().toNanos() / 1000);
        KubeRuntime runtimeManager = new RuntimeManager(runtime, imageManager,
                new ContainerConfigFactory(settings.node(),
                        (pod, c) -> OomScorePolicy.containerOomScoreAdjust(pod, c, memoryCapacity), objects,
                        recorder, this::allocatable, cgroups,
                        SeccompProfiles.under(settings.rootDir(), settings.security().seccompDefault())),
                volumes, dirs, settings.node(), recorder, deps.clock(), new HttpGetHookClient(settings.kubeletVersion()),
                new PodStates());
        this.podCache = new PodCache(this::requestRelist);
        this.pleg = new GenericPleg(runtime, settings.node().nodeName(),
                e -> inbox.post(new SyncLoopEvent.PlegEvent(e)), deps.clock(), settings.relistPeriod(), podCache,
                executors.pleg());
        pleg.observeRelists(kubeletMetrics::observeRelist);

        Optional<MirrorClient> mirrorClient = cluster.mirrorClient(settings.node().nodeName());
        this.apiStatusSync = cluster.statusWriter(statusManager, new StatusWriterPods());
        Consumer<String> statusSyncRequest = uid -> apiStatusSync.ifPresent(s -> s.requestSync(uid));
        MirrorPodSync mirrorPods = new MirrorPodSync(mirrorClient, podManager, statusSyncRequest, workerExecutor);

        PodCgroupSync podCgroups = new PodCgroupSync(containerManager, runtimeManager, recorder, dirs::volumesDir);
        KubeletPodSyncer podSyncer = new KubeletPodSyncer(runtimeManager, podManager, statusManager, statusGenerator,
                reasonCache, probeManager, mirrorPods, statusSyncRequest, recorder, kubeletMetrics,
                settings.node()::hostIps, podCgroups, deps.clock());
        this.podWorkers = new PodWorkers(podSyncer,
                new CachedPodStatuses(podCache, runtimeManager, settings.relistPeriod()), deps.clock(), settings.syncFrequency(),
                KubeletPodSyncer.BACK_OFF_PERIOD, workerExecutor);
        Housekeeping housekeeping = new Housekeeping(podManager, podWorkers, pleg, probeManager, statusManager,
                reasonCache, runtimeManager, volumes, dirs, settings.node(), mirrorPods, podCgroups, workerExecutor);
        this.stats = new StatsProvider(runtime, images, settings.node().nodeName(),
                new StatsProvider.NodePaths(settings.rootDir(), settings.node().podLogsDir(), new ProcNode(Path.of("/proc"))),
                deps.clock(), StatsProvider.DEFAULT_PERIOD, settings.volumeStatsAggPeriod(), systemContainers(deps),
                executors.stats());
        this.podConfig = new PodConfig((pod, reason, message) ->
                recorder.event(References.pod(pod), EventRecorder.WARNING, reason, message),
                deps.clock(), inbox.podConfigOutput(), DisabledPodFields.of(settings.featureGates()));
        this.sourcesReady = SourcesReady.of(podConfig);
        GcSettings gc = settings.gc();
        ImageGCManager imageGc = new ImageGCManager(images, runtime, settings.node().podInfraImage(), gc.imagePolicy(),
                recorder, settings.node().nodeName(), deps.clock(), kubeletMetrics::observeImageCollected);
        this.garbageCollection = new GarbageCollection(
                () -> runtimeManager.garbageCollect(gc.containerPolicy(), sourcesReady.allReady(), false),
                imageGc, gc, recorder, settings.node().nodeName(), deps.clock());
        // Upstream's node-level reclaim: container GC that also frees what terminated pods keep, then unused images.
        NodeReclaim reclaim = new NodeReclaim(
                () -> runtimeManager.garbageCollect(gc.containerPolicy(), sourcesReady.allReady(), true),
                imageGc::deleteUnusedImages);
        // Kills for the eviction and node shutdown managers, each waited for.
        EvictablePods killablePods = new EvictablePods(this::activePods, podWorkers, recorder);
        this.evictionManager = new EvictionManager(settings.eviction(), deps.clock(), stats::summary,
                stats::hasDedicatedImageFs, reclaim, killablePods, recorder, settings.node().nodeName());
        this.nodeShutdown = new NodeShutdown(this::activePods, killablePods, deps.recorder(), settings.node().nodeName(),
                this::shutdownRecord);
        // The eviction manager's first: a node under pressure refuses before anything else is checked (upstream's order).
        EvictionAdmitHandler underPressure = new EvictionAdmitHandler(evictionManager::nodeConditions);
        PredicateAdmitHandler predicates = new PredicateAdmitHandler();
        // Then the sysctls (upstream's order: eviction, sysctls, predicates, AppArmor).
        List<PodAdmitHandler> admitHandlers = List.of((pod, others) -> underPressure.admit(pod),
                sysctlAllowlist(settings.security()),
                (pod, others) -> predicates.admit(pod, others, () -> node.get()), AppArmorAdmitHandler.forHost(),
                // The node shutdown manager's last, as upstream adds it after the others.
                (pod, others) -> nodeShutdown.admit(pod));
        SyncHandler handler = new KubeletSyncHandler(podManager, podWorkers, statusManager, admitHandlers,
                recorder, statusSyncRequest, housekeeping, timelines::admitted);
        this.syncLoop = new SyncLoop(inbox, handler, podManager::get, podWorkers::takeDue, sourcesReady,
                deps.clock(), timers);
        // The sources register with the pod config now, so that housekeeping waits for all of them from the start.
        createSources();
    }

    /** The safe sysctls of this kernel and {@code allowedUnsafeSysctls}, whose patterns are checked here. */
    private static SysctlAllowlist sysctlAllowlist(SecuritySettings security) {
        try {
            return SysctlAllowlist.of(SafeSysctls.forThisKernel(), security.allowedUnsafeSysctls());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("allowedUnsafeSysctls: " + e.getMessage(), e);
        }
    }

    /**
     * What container GC asks about a pod (upstream's pod workers as {@code podStateProvider}): its content may go
     * once no source wants it and its worker has terminated it, or, for a pod the kubelet never ran, once every
     * source has reported; its runtime parts once it is terminated.
     */
    private final class PodStates implements PodStateProvider {
        @Override
        public boolean shouldPodContentBeRemoved(String uid) {
            if (podManager.get(uid).isPresent()) {
                return false;
            }
            return podWorkers.isKnown(uid) ? podWorkers.isTerminated(uid) : sourcesReady.allReady();
        }

        @Override
        public boolean shouldPodRuntimeBeRemoved(String uid) {
            if (podWorkers.isKnown(uid)) {
                return podWorkers.isTerminated(uid);
            }
            return podManager.get(uid).isEmpty() && sourcesReady.allReady();
        }
    }

    /** What the status writer asks of the pod manager and the workers. */
    private final class StatusWriterPods implements ApiStatusSync.Pods {
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
    }

    private void createSources() {
        String nodeName = settings.node().nodeName();
        PodSourceSettings s = settings.sources();
        deps.cluster().podSource(nodeName, () -> podConfig.channel(PodSources.API))
                .ifPresent(api -> sources.add(new PodSource(PodSources.API, api::start, api)));
        s.staticPodPath().ifPresent(path -> {
            FileSource files = new FileSource(path, nodeName, s.fileCheckFrequency(), podConfig.channel(PodSources.FILE));
            sources.add(new PodSource(PodSources.FILE, files::start, files));
        });
        if (s.staticPodUrl().isPresent()) {
            HttpSource http;
            try {
                http = new HttpSource(URI.create(s.staticPodUrl().get()), s.staticPodUrlHeader(), nodeName,
                        s.httpCheckFrequency(), podConfig.channel(PodSources.HTTP));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("staticPodURL (--manifest-url): " + e.getMessage(), e);
            }
            sources.add(new PodSource(PodSources.HTTP, http::start, http));
        }
    }

    /** The names of the pod sources this node reads, for the start-up log. */
    public List<String> sourceNames() {
        return List.copyOf(podConfig.sources());
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

    /** The node as admission sees it: the registered node on a cluster node, else this machine's capacity. */
    public Node node() {
        return node.get();
    }

    /** The node's allocatable as registered (the machine's before that): downward API limits default to it. */
    private Map<String, Quantity> allocatable() {
        Node n = node.get();
        return n.getStatus() == null || n.getStatus().getAllocatable() == null ? Map.of() : n.getStatus().getAllocatable();
    }

    /**
     * Starts the parts that run on their own, in dependency order; the pod sources come last ({@link #startSources}).
     *
     * @throws IllegalStateException when the node cannot be set up (its root directory, its cgroups); the message
     *     says what
     */
    public void start() {
        try {
            Files.createDirectories(dirs.podsDir());
        } catch (IOException e) {
            throw new IllegalStateException("cannot create " + dirs.podsDir() + ": " + e.getMessage(), e);
        }
        try {
            // Before any pod syncs: pod cgroups go below the QoS cgroups this makes (upstream initializeRuntimeDependentModules).
            containerManager.start(this::activePods, timers, deps.recorder(), settings.node().nodeName());
        } catch (CgroupException e) {
            throw new IllegalStateException("Failed to start ContainerManager: " + e.getMessage(), e);
        }
        // With the runtime-dependent modules, as upstream (initializeRuntimeDependentModules).
        deps.logManager().start();
        running.add("container-log-manager", within -> deps.logManager().stop());
        pleg.start();
        running.add("pleg", pleg);
        apiStatusSync.ifPresent(s -> {
            s.start();
            running.add("status-sync", s::stop); // flushes the statuses the workers wrote last
        });
        running.add("pod-workers", within -> {
            // Interrupted, not waited for to the end of a kill: the containers keep running, as upstream's do.
            workerExecutor.shutdownNow();
            workerExecutor.awaitTermination(within.toMillis(), TimeUnit.MILLISECONDS);
        });
        running.add("probes", probeManager);
        garbageCollection.start(timers, workerExecutor);
        String resolvConf = settings.node().resolvConf();
        if (!resolvConf.isEmpty()) {
            // As upstream: every 30 s, a node warning while the host's file leaves no room for the cluster's searches.
            timers.scheduleWithFixedDelay(() -> ResolvConfLimits.check(resolvConf, settings.node().clusterDomain())
                    .ifPresent(problem -> deps.recorder().event(References.node(settings.node().nodeName()),
                            EventRecorder.WARNING, ResolvConfLimits.REASON, problem)), 0, 30, TimeUnit.SECONDS);
        }
        running.add("kubelet-timers", timers::shutdownNow);
        syncLoop.start();
        running.add("sync-loop", syncLoop::stop);
        evictionManager.start(executors.eviction());
        running.add("eviction-manager", executors.eviction()::shutdownNow);
        stats.onRound(evictionManager::requestCycle);
        stats.onRound(() -> stats.latest().ifPresent(statsHistory::record));
        stats.start();
        running.add("stats", stats);
    }

    /**
     * Upstream's node shutdown manager ({@code nodeshutdown.NewManager}, then {@code Start} with the runtime-dependent
     * modules): with a grace period configured, takes logind's delay lock and kills the pods by priority when the
     * node shuts down. Call after {@link #start()}.
     *
     * @param periods the priority ranges ({@link ShutdownGracePeriods#of}); empty: the node shuts down at once, nothing
     *     starts
     * @param syncNodeStatus posts the node's status at once (nothing on a standalone node)
     * @return why the manager could not start (no system bus, no logind, a delay logind keeps too short); the kubelet
     *     runs on without it, as upstream's
     */
    public Optional<String> startNodeShutdownManager(List<ShutdownGracePeriod> periods, Inhibitor.Connector systemBus,
            Runnable syncNodeStatus) {
        return nodeShutdown.start(periods, systemBus, syncNodeStatus, running);
    }

    /** Upstream keeps the last shutdown's times (file and gauges) only with {@code GracefulNodeShutdownBasedOnPodPriority}. */
    private GracefulShutdownRecord shutdownRecord() {
        if (!settings.featureGates().enabled(FeatureGates.GRACEFUL_NODE_SHUTDOWN_BASED_ON_POD_PRIORITY)) {
            return GracefulShutdownRecord.NONE;
        }
        return new GracefulShutdownRecord(settings.rootDir().resolve(GracefulShutdownRecord.STATE_FILE), deps.clock(),
                kubeletMetrics.registerGracefulShutdown());
    }

    /** Why the node is not ready as far as its shutdown goes: "node is shutting down" while it does. */
    public Optional<String> shutdownStatus() {
        return nodeShutdown.status();
    }

    /**
     * Upstream {@code GetActivePods}: the pods that are neither known terminated by their worker nor finished
     * (unless a termination is still under way), which the QoS cgroups' shares are computed from.
     */
    private List<Pod> activePods() {
        List<Pod> active = new ArrayList<>();
        for (Pod p : podManager.pods()) {
            String uid = p.getMetadata().getUid();
            if (podWorkers.isKnown(uid) && podWorkers.isTerminated(uid)) {
                continue;
            }
            boolean terminal = statusManager.getPodStatus(uid).map(PodStatus::getPhase).filter(PodPhases::isTerminal).isPresent();
            if (terminal && !podWorkers.isTerminationRequested(uid)) {
                continue;
            }
            active.add(p);
        }
        return active;
    }

    /** The agent's and the runtime's cgroups, and the pods' one when pods get cgroups (allocatable memory is watched). */
    private static SystemContainers systemContainers(KubeletDeps deps) {
        SystemContainers given = deps.systemContainers();
        return given == null ? null : deps.containerManager().podCgroupRoot().map(given::withPods).orElse(given);
    }

    /** The cache asks through this: the PLEG is built after the cache it marks. */
    private void requestRelist() {
        pleg.requestRelist();
    }

    /** Starts reading the pod sources: from now on pods arrive. */
    public void startSources() {
        for (PodSource s : sources) {
            s.start().run();
            running.add("source-" + s.name(), s.stop());
        }
    }

    /** Hands an update to the loop as the pod config does (tests, which have no sources, feed pods through it). */
    void deliver(PodUpdate update) {
        try {
            inbox.podConfigOutput().put(update);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A source's channel into the pod config, for tests that play a source (its first SET makes it ready). */
    PodUpdateSink sourceChannel(String source) {
        return podConfig.channel(source);
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

    /** The eviction manager's answers for the node's pressure conditions. */
    public NodePressure nodePressure() {
        return evictionManager;
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

    /** The stats provider's latest round, for {@code /stats/summary} and the resource metrics. */
    public Optional<StatsSnapshot> stats() {
        return stats.latest();
    }

    /** Each pod's lifecycle as it happened, for {@code /debug/pods/<namespace>/<name>/timeline}. */
    public PodTimelines timelines() {
        return timelines;
    }

    /** The node's, pods' and containers' usage over the last 15 minutes, for {@code /stats/history}. */
    public StatsHistory statsHistory() {
        return statsHistory;
    }

    /**
     * Stops in reverse order of start, within {@code deadline}: no more pods come in (sources), the loop stops
     * taking events, the timers and probers stop, the workers are interrupted and awaited, the last statuses are
     * written, the PLEG stops. The runtime's containers keep running, as upstream's do: the next start adopts them.
     */
    public void stop(Duration deadline) {
        running.stopAll(deadline);
        // Parts built but never started hold threads only once used; this makes sure none is left.
        executors.shutdownNow();
        probeManager.close();
    }

    @Override
    public void close() {
        stop(DEFAULT_STOP_DEADLINE);
    }
}
