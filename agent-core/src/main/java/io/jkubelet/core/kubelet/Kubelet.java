package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Node;
import io.jkubelet.core.apis.config.FeatureGates;
import io.jkubelet.core.admission.MachineNode;
import io.jkubelet.cadvisor.ProcNode;
import io.jkubelet.core.cm.CgroupException;
import io.jkubelet.core.cm.ContainerManager;
import io.jkubelet.core.cm.ResourceManagerStartException;
import io.jkubelet.core.cm.devicemanager.DeviceManager;
import io.jkubelet.core.config.DisabledPodFields;
import io.jkubelet.core.config.PodConfig;
import io.jkubelet.core.config.PodUpdate;
import io.jkubelet.core.config.PodUpdateSink;
import io.jkubelet.core.config.SourcesReady;
import io.jkubelet.core.container.PodCache;
import io.jkubelet.core.credentialprovider.PodKeyrings;
import io.jkubelet.core.credentialprovider.plugin.CredentialProviderPlugins;
import io.jkubelet.core.dns.ResolvConfLimits;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.eviction.EvictionManager;
import io.jkubelet.core.eviction.NodeReclaim;
import io.jkubelet.core.images.ImageGCManager;
import io.jkubelet.core.images.ImageManager;
import io.jkubelet.core.kuberuntime.ContainerCgroups;
import io.jkubelet.core.kuberuntime.ContainerConfigFactory;
import io.jkubelet.core.kuberuntime.ContainerMounts;
import io.jkubelet.core.kuberuntime.SeccompProfiles;
import io.jkubelet.core.kuberuntime.RuntimeManager;
import io.jkubelet.core.lifecycle.HttpGetHookClient;
import io.jkubelet.core.metrics.InstrumentedImageService;
import io.jkubelet.core.metrics.InstrumentedRuntimeService;
import io.jkubelet.core.metrics.KubeletMetrics;
import io.jkubelet.core.nodeshutdown.Inhibitor;
import io.jkubelet.core.nodeshutdown.ShutdownGracePeriod;
import io.jkubelet.core.nodeshutdown.ShutdownGracePeriods;
import io.jkubelet.core.pleg.GenericPleg;
import io.jkubelet.core.prober.ProbeManager;
import io.jkubelet.core.prober.Prober;
import io.jkubelet.core.prober.ProberMetrics;
import io.jkubelet.core.qos.OomScorePolicy;
import io.jkubelet.core.qos.QosClass;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.stats.StatsProvider;
import io.jkubelet.core.stats.history.StatsHistory;
import io.jkubelet.core.status.ApiStatusSync;
import io.jkubelet.core.status.PodStatusGenerator;
import io.jkubelet.core.status.ReasonCache;
import io.jkubelet.core.status.StatusManager;
import io.jkubelet.core.timeline.PodTimelines;
import io.jkubelet.core.timeline.TimelineRecorder;
import io.jkubelet.core.util.StopSequence;
import io.jkubelet.core.volume.ApiVolumes;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.csi.CsiVolumePlugin;
import io.jkubelet.core.volume.util.LinuxMounts;
import io.jkubelet.core.volume.util.subpath.Subpather;
import io.jkubelet.core.volumemanager.AttachDetach;
import io.jkubelet.core.volumemanager.VolumeManager;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The node agent, assembled (upstream {@code NewMainKubelet} and {@code Run}). The constructor is the one place that
 * builds the parts: each is a field made from the settings, the dependencies and the parts above it, in that order,
 * so that nothing is handed a part built later. {@link #start()} starts them in dependency order and {@link #stop}
 * stops them in reverse. The pod sources feed the {@link PodConfig}, which feeds the one {@link SyncLoop}; the loop
 * hands pods to their {@link PodWorkers}, which run the {@link KubeletPodSyncer}; {@link Housekeeping} and
 * {@link GarbageCollection} clean up after them.
 *
 * <p>A new node manager plugs in with one field here, its admit handler in {@link AdmitHandlers} and, where it acts
 * on a pod's stages, its {@link PodSyncHook} in {@link #podSyncHooks} (see docs/architecture.md).
 */
public final class Kubelet implements AutoCloseable {
    /** How long {@link #close()} gives the parts to stop. */
    public static final Duration DEFAULT_STOP_DEADLINE = Duration.ofSeconds(3);

    private final KubeletSettings settings;
    private final KubeletDeps deps;
    private final String nodeName;
    /** The threads the parts run on, given with the deps and owned from then on. */
    private final KubeletExecutors executors;
    private final PodDirs dirs;
    private final KubeletMetrics metrics;
    private final PrometheusRegistry probeMetrics = new PrometheusRegistry();
    /** The runtime and image services, instrumented: what every part of the kubelet calls. */
    private final RuntimeService runtime;
    private final ImageService images;
    /** The node as admission and the downward API read it: the registered node, or this machine's. */
    private final KubeletNode node;
    private final ContainerManager containerManager;
    /** The topology, device, CPU and memory managers (upstream's container manager holds them). */
    private final ResourceManagers resourceManagers;
    private final PodManager podManager = new PodManager();
    /** The watcher of {@code <root-dir>/plugins_registry}; registrations run on the pod workers' virtual threads. */
    private final PluginWatcher pluginWatcher;
    /** What happened to each pod, for the dashboard's pod view and {@code /debug/pods/.../timeline}. */
    private final PodTimelines timelines;
    /**
     * The kubelet's event recorder: the given one ({@code deps.recorder()}: the log, and the apiserver on a cluster
     * node) with each pod's events also kept in its timeline. Every part records through this one.
     */
    private final EventRecorder recorder;
    private final SyncLoopInbox inbox = new SyncLoopInbox();
    private final PodConfig podConfig;
    private final SourcesReady sourcesReady;
    private final StatusManager statusManager;
    /** Every pod worker's state: which pods may still run containers, which are terminated. */
    private final PodSyncStatuses workerStates = new PodSyncStatuses();
    private final ActivePods activePods;
    private final ProbeManager probeManager;
    private final ReasonCache reasonCache = new ReasonCache();
    /** Mounts and unmounts the pods' volumes in the background; a pod's sync waits for its own. */
    private final VolumeManager volumeManager;
    private final ImageManager imageManager;
    private final ContainerConfigFactory containerConfigs;
    private final RuntimeManager runtimeManager;
    /** Each pod's runtime state as last read, and which pods the PLEG saw change since: what workers read. */
    private final PodCache podCache = new PodCache();
    private final GenericPleg pleg;
    /** The apiserver side, when the node has one: pod status writes. */
    private final Optional<ApiStatusSync> apiStatusSync;
    private final MirrorPodSync mirrorPods;
    private final PodCgroupSync podCgroups;
    private final PodVolumesSync podVolumes;
    private final PodWorkers podWorkers;
    private final Housekeeping housekeeping;
    /** Node, pod and container usage, collected on its own period and served from memory (cAdvisor's housekeeping). */
    private final StatsProvider stats;
    /** The last 15 minutes of {@link #stats}' rounds, for the dashboard's charts and {@code /stats/history}. */
    private final StatsHistory statsHistory = new StatsHistory(StatsProvider.DEFAULT_PERIOD);
    private final ImageGCManager imageGc;
    private final GarbageCollection garbageCollection;
    /** Watches memory, disk and PIDs; evicts pods when the node runs short. */
    private final EvictionManager evictionManager;
    /** Graceful node shutdown, once started ({@link #startNodeShutdownManager}); admission asks it. */
    private final NodeShutdown nodeShutdown;
    private final SyncLoop syncLoop;
    private final PodSourceSet sources;
    private final KubeletViews views;
    /** What runs, in the order it started: stopped in reverse. */
    private final StopSequence running = new StopSequence();

    /**
     * Builds the kubelet; nothing runs before {@link #start()}.
     *
     * @throws IllegalArgumentException when a pod source's setting, an allowed unsafe sysctl or the credential provider
     *     plugins cannot be used (the message names it)
     */
    public Kubelet(KubeletSettings settings, KubeletDeps deps) {
        this.settings = settings;
        this.deps = deps;
        this.nodeName = settings.node().nodeName();
        this.executors = deps.executors();
        this.dirs = new PodDirs(settings.rootDir());
        this.metrics = new KubeletMetrics(nodeName, settings.featureGates().enabled(FeatureGates.MEMORY_MANAGER));
        // Every runtime call the kubelet makes is counted and timed (upstream's instrumented services).
        this.runtime = new InstrumentedRuntimeService(deps.runtime(), metrics);
        this.images = new InstrumentedImageService(deps.images(), metrics);
        this.containerManager = deps.containerManager();
        this.resourceManagers = new ResourceManagers(deps, metrics.resourceManagers());
        DeviceManager deviceManager = resourceManagers.deviceManager();
        this.pluginWatcher = new PluginWatcher(dirs, deps, nodeName, executors.podWorkers());
        this.node = new KubeletNode(MachineNode.detect(nodeName, settings.maxPods(), settings.rootDir(),
                containerManager::nodeAllocatableReservation), deps.cluster()::registeredNode, deviceManager::getCapacity);
        this.timelines = new PodTimelines(deps.clock());
        this.recorder = new TimelineRecorder(deps.recorder(), timelines);
        this.podConfig = new PodConfig((pod, reason, message) ->
                recorder.event(References.pod(pod), EventRecorder.WARNING, reason, message),
                deps.clock(), inbox.podConfigOutput(), DisabledPodFields.of(settings.featureGates()));
        this.sourcesReady = SourcesReady.of(podConfig);
        this.statusManager = new StatusManager(deps.clock());
        statusManager.addListener((pod, status) -> timelines.status(pod, status.status()));
        this.activePods = new ActivePods(podManager, workerStates, statusManager);
        this.probeManager = ProbeManager.create(Prober.create(runtime, recorder, settings.kubeletVersion()),
                statusManager::getPodStatus, result -> {
                    podManager.get(result.podUid()).ifPresent(pod -> timelines.probeResult(pod, result));
                    inbox.post(new SyncLoopEvent.ProbeEvent(result));
                }, new ProberMetrics(probeMetrics), deps.clock(), executors.probeTicker(), executors.probes());
        this.volumeManager = VolumeManager.onThisNode(dirs, new ApiVolumes(deps.cluster().objects(), nodeName,
                settings.node()::hostIps, node::allocatable, deps.clock()), new VolumeManagerPods(podManager, workerStates),
                deps.cluster().persistentVolumes(), new AttachDetach(settings.enableControllerAttachDetach(),
                        deps.cluster().nodeReader(nodeName).orElse(null)), new CsiVolumePlugin(dirs, new LinuxMounts(), nodeName, pluginWatcher.csiDrivers(),
                        deps.csiDrivers(), deps.cluster().csiObjects().orElse(null)),
                recorder, deps.clock(), executors.volumes());
        this.imageManager = new ImageManager(images, recorder, deps.clock(), settings.imagePulls(),
                new PodKeyrings(deps.cluster().objects(), recorder, CredentialProviderPlugins.nodeProviders(
                        settings.nodeCredentials(), settings.credentialProviders(), deps.clock())));
        // Upstream's kl.subpather: the containers' subPath mounts, made by makeMounts, cleaned with the pod's directory.
        Subpather subpather = new Subpather(new LinuxMounts());
        this.containerConfigs = new ContainerConfigFactory(settings.node(),
                (pod, c) -> OomScorePolicy.containerOomScoreAdjust(pod, c, settings.memoryCapacity()),
                deps.cluster().objects(), recorder, node::allocatable,
                resourceManagers.containerCgroups(new ContainerCgroups(containerManager.podContainerManager()::cgroupParent,
                        settings.cpuCfsQuota(), settings.cpuCfsQuotaPeriod().toNanos() / 1000)),
                SeccompProfiles.under(settings.rootDir(), settings.security().seccompDefault()),
                deviceManager::deviceRunContainerOptions, new ContainerMounts(dirs, subpather));
        this.runtimeManager = new RuntimeManager(runtime, imageManager, containerConfigs,
                volumeManager::getMountedVolumesForPod, dirs, settings.node(),
                recorder, deps.clock(), new HttpGetHookClient(settings.kubeletVersion()),
                new PodStates(podManager, workerStates, sourcesReady), deps.cluster().runtimeClassManager());
        this.pleg = new GenericPleg(runtime, nodeName, e -> inbox.post(new SyncLoopEvent.PlegEvent(e)), deps.clock(),
                settings.relistPeriod(), podCache, executors.pleg());
        pleg.observeRelists(metrics::observeRelist);
        this.apiStatusSync = deps.cluster().statusWriter(statusManager, new StatusWriterPods(podManager, workerStates));
        this.mirrorPods = new MirrorPodSync(deps.cluster().mirrorClient(nodeName), podManager, this::requestStatusSync,
                executors.podWorkers());
        this.podCgroups = new PodCgroupSync(containerManager, runtimeManager, recorder, volumeManager::podVolumesExist);
        this.podVolumes = new PodVolumesSync(volumeManager, deps.cluster().objects().tokens()::deletePodTokens, recorder,
                workerStates::isTerminationRequested);
        this.podWorkers = new PodWorkers(workerStates,
                new KubeletPodSyncer(runtimeManager, podManager, statusManager,
                        new PodStatusGenerator(reasonCache, probeManager, pod -> QosClass.of(pod).value()), reasonCache,
                        probeManager, mirrorPods, this::requestStatusSync, recorder, metrics, settings.node()::hostIps,
                        podSyncHooks(), deps.clock()),
                new CachedPodStatuses(podCache, pleg::requestRelist, runtimeManager, settings.relistPeriod()),
                deps.clock(), settings.syncFrequency(), KubeletPodSyncer.BACK_OFF_PERIOD, executors.podWorkers());
        this.housekeeping = new Housekeeping(podManager, podWorkers, workerStates, pleg, probeManager, statusManager,
                reasonCache, runtimeManager, new OrphanedPodDirs(dirs, volumeManager::podVolumesExist, subpather), dirs, settings.node(),
                mirrorPods, podCgroups, executors.podWorkers());
        this.stats = new StatsProvider(runtime, images, nodeName,
                new StatsProvider.NodePaths(settings.rootDir(), settings.node().podLogsDir(), new ProcNode(Path.of("/proc"))),
                deps.clock(), StatsProvider.DEFAULT_PERIOD, settings.volumeStatsAggPeriod(),
                new PodVolumeStats(podManager::get, volumeManager),
                deps.systemContainers() == null ? null
                        : containerManager.podCgroupRoot().map(deps.systemContainers()::withPods).orElse(deps.systemContainers()),
                executors.stats(), executors.volumeStats());
        metrics.registerVolumeStats(stats::latest);
        this.imageGc = new ImageGCManager(images, runtime, settings.node().podInfraImage(), settings.gc().imagePolicy(),
                recorder, nodeName, deps.clock(), metrics::observeImageCollected);
        this.garbageCollection = new GarbageCollection(() -> runtimeManager.garbageCollect(settings.gc().containerPolicy(),
                sourcesReady.allReady(), false), imageGc, settings.gc(), recorder, nodeName, deps.clock());
        // Kills for the eviction and node shutdown managers, each waited for.
        EvictablePods evictablePods = new EvictablePods(activePods, podWorkers, workerStates, recorder);
        this.evictionManager = new EvictionManager(settings.eviction(), deps.clock(), stats::summary,
                stats::hasDedicatedImageFs,
                // Upstream's node-level reclaim: container GC that also frees what terminated pods keep, then images.
                new NodeReclaim(() -> runtimeManager.garbageCollect(settings.gc().containerPolicy(), sourcesReady.allReady(),
                        true), imageGc::deleteUnusedImages),
                evictablePods, recorder, nodeName);
        this.nodeShutdown = new NodeShutdown(activePods, evictablePods, recorder, nodeName,
                () -> NodeShutdown.record(settings, metrics, deps.clock()));
        this.syncLoop = new SyncLoop(inbox, new KubeletSyncHandler(podManager, podWorkers, workerStates, statusManager,
                AdmitHandlers.inUpstreamOrder(evictionManager, settings.security(),
                        resourceManagers.topologyManager(), node, deviceManager::updatePluginResources,
                        nodeShutdown), recorder,
                this::requestStatusSync, housekeeping, timelines::admitted),
                podManager::get, podWorkers::takeDue, sourcesReady, deps.clock(), executors.timers());
        // The sources register with the pod config now, so that housekeeping waits for all of them from the start.
        this.sources = new PodSourceSet(settings.sources(), nodeName, deps.cluster(), podConfig);
        this.views = new KubeletViews(podManager, statusManager, pleg, evictionManager, syncLoop, probeMetrics, metrics,
                stats, timelines, statsHistory, deviceManager, volumeManager,
                resourceManagers.podResources(podManager::pods, settings.featureGates()));
    }

    /** The node managers' parts in each pod worker stage, in order (upstream's calls out of {@code SyncPod}). */
    private List<PodSyncHook> podSyncHooks() {
        return List.of(podCgroups, podVolumes);
    }

    /** The device manager, for tests that play a device plugin. */
    DeviceManager deviceManager() {
        return resourceManagers.deviceManager();
    }

    /** Asks the status writer to write the pod's status now (a static pod's to its mirror pod); nothing standalone. */
    private void requestStatusSync(String uid) {
        apiStatusSync.ifPresent(s -> s.requestSync(uid));
    }

    /** The names of the pod sources this node reads, for the start-up log. */
    public List<String> sourceNames() {
        return List.copyOf(podConfig.sources());
    }

    /** The node as admission sees it: the registered node on a cluster node, else this machine's capacity. */
    public Node node() {
        return node.get();
    }

    /**
     * Starts the parts that run on their own, in dependency order; the pod sources come last ({@link #startSources}).
     *
     * @throws IllegalStateException when the node cannot be set up (its root directory and its mount, its cgroups); the
     *     message says what
     */
    public void start() {
        DataDirs.setup(dirs, deps.hostMounts(), recorder, nodeName);
        try {
            // Before any pod syncs: pod cgroups go below the QoS cgroups this makes (upstream initializeRuntimeDependentModules).
            containerManager.start(activePods, executors.timers(), recorder, nodeName);
            // Before any pod is admitted, as upstream's container manager starts them in Start.
            resourceManagers.start(runtime, activePods, sourcesReady::allReady, executors.timers());
        } catch (CgroupException | IOException | ResourceManagerStartException e) {
            throw new IllegalStateException("Failed to start ContainerManager: " + e.getMessage(), e);
        }
        running.add("device-manager", within -> resourceManagers.stop());
        pluginWatcher.start(resourceManagers.deviceManager().watcherHandler(), executors.timers());
        // With the runtime-dependent modules, as upstream (initializeRuntimeDependentModules).
        deps.logManager().start();
        running.add("container-log-manager", within -> deps.logManager().stop());
        // Upstream's Run starts the volume manager before the sync loop: pods' syncs wait for it.
        volumeManager.start(executors.volumes(), sourcesReady::allReady);
        running.add("volume-manager", within -> volumeManager.stop());
        pleg.start();
        running.add("pleg", pleg);
        apiStatusSync.ifPresent(s -> {
            s.start();
            running.add("status-sync", s::stop); // flushes the statuses the workers wrote last
        });
        running.add("pod-workers", executors::stopPodWorkers);
        running.add("probes", probeManager);
        garbageCollection.start(executors.timers(), executors.podWorkers());
        ResolvConfLimits.checkPeriodically(settings.node().resolvConf(), settings.node().clusterDomain(),
                executors.timers(), problem -> recorder.event(References.node(nodeName), EventRecorder.WARNING,
                        ResolvConfLimits.REASON, problem));
        running.add("kubelet-timers", executors.timers()::shutdownNow);
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

    /** Why the node is not ready as far as its shutdown goes: "node is shutting down" while it does. */
    public Optional<String> shutdownStatus() {
        return nodeShutdown.status();
    }

    /** Starts reading the pod sources: from now on pods arrive. */
    public void startSources() {
        sources.start(running);
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

    /** What the servers, health checks and node status read of this kubelet. */
    public KubeletViews views() {
        return views;
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
