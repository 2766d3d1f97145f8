package io.jkubelet.core.eviction;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.nodestatus.NodeConditions;
import io.jkubelet.core.nodestatus.NodePressure;
import io.jkubelet.core.podutil.PodSpecs;
import io.jkubelet.core.qos.CriticalPods;
import io.jkubelet.core.status.PodConditions;
import io.jkubelet.core.status.PodPhases;
import io.jkubelet.core.stats.summary.Summary;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;

/**
 * Keeps the node from running out of memory, disk and process IDs (upstream eviction {@code managerImpl}). After each
 * stats round (every 10 s, upstream's {@code evictionMonitoringPeriod}) it observes the signals of the summary and
 * {@link #synchronize()}s: the thresholds met decide the node's pressure conditions (kept for
 * {@code evictionPressureTransitionPeriod} after they were last met); once a threshold has been met for its grace
 * period, on fresh stats, the node first frees what it can itself (dead containers, unused images, for disk), and if
 * that is not enough evicts one pod, ranked for the starved resource: its status becomes {@code Failed}/{@code Evicted}
 * with a message naming the resource, and it is killed (grace one second for a hard threshold). Critical pods, static pods among them, are never evicted. After an
 * eviction the next cycle waits until the pod is cleaned up ({@link EvictionCycles}).
 *
 * <p>Unlike upstream, cycles follow the stats rounds rather than a ticker of their own: a cycle between two rounds
 * could not act (pods are only evicted on fresh numbers). Thread-safe: cycles run one at a time, the node conditions
 * are read from any thread.
 */
public final class EvictionManager implements NodePressure {
    private static final Logger log = LoggerFactory.getLogger(EvictionManager.class);

    /** A pod evicted for a hard threshold gets this long to stop (the kill path raises it to its minimum of 2 s). */
    static final long IMMEDIATE_EVICTION_GRACE_PERIOD_SECONDS = 1;
    /** The reason of an evicted pod's status and event, and of a pod refused under pressure. */
    public static final String REASON = "Evicted";
    static final String THRESHOLD_MET = "EvictionThresholdMet";
    /** The reason of the DisruptionTarget condition an evicted pod gets (PodDisruptionConditions, on in 1.30). */
    static final String TERMINATION_BY_KUBELET = "TerminationByKubelet";

    /** The stats summary (upstream {@code stats.SummaryProvider}). */
    @FunctionalInterface
    public interface SummaryProvider {
        /** The latest summary, or a freshly collected one with {@code updateStats}; empty when there is none yet. */
        Optional<Summary> get(boolean updateStats);
    }

    /** Whether the runtime's images are on a file system of their own (upstream {@code DiskInfoProvider}). */
    @FunctionalInterface
    public interface DiskInfoProvider {
        boolean hasDedicatedImageFs() throws IOException;
    }

    /** What the manager needs of the kubelet's pods. */
    public interface Pods {
        /** The pods that are neither terminated nor finished (upstream {@code GetActivePods}). */
        List<Pod> active();

        /**
         * Kills the pod (upstream {@code killPodNow}): its status first goes through {@code statusFn}; returns once its
         * containers are stopped.
         *
         * @param gracePeriodOverride seconds its containers get to stop, or null for the pod's own
         * @throws Exception when the pod was not stopped within a time relative to its grace period
         */
        void kill(Pod pod, Long gracePeriodOverride, Consumer<PodStatus> statusFn) throws Exception;

        /** Whether a killed pod's resources are released (upstream {@code PodCleanedUpFunc}). */
        boolean cleanedUp(Pod pod);
    }

    private final EvictionConfig config;
    private final Clock clock;
    private final SummaryProvider summaryProvider;
    private final DiskInfoProvider diskInfo;
    private final NodeReclaim reclaim;
    private final Pods pods;
    private final EventRecorder recorder;
    private final String nodeName;

    /** The conditions the node reports now; read by the node status and admission. */
    private volatile List<String> nodeConditions = List.of();
    // The rest is the synchronizing thread's only.
    private Map<String, Instant> nodeConditionsLastObservedAt = Map.of();
    private Map<Threshold, Instant> thresholdsFirstObservedAt = Map.of();
    /** Thresholds met (grace periods included) and not yet resolved with their minimum reclaim. */
    private List<Threshold> thresholdsMet = List.of();
    private SignalObservations lastObservations;
    /** Known once the first cycle asked: how pods rank and what the node frees depend on it. */
    private Boolean dedicatedImageFs;
    private Map<Signal, PodRanking.RankFunc> signalToRankFunc;
    private Map<Signal, List<NodeReclaim.ReclaimFunc>> signalToNodeReclaimFuncs;
    private volatile EvictionCycles cycles;

    public EvictionManager(EvictionConfig config, Clock clock, SummaryProvider summaryProvider, DiskInfoProvider diskInfo,
                           NodeReclaim reclaim, Pods pods, EventRecorder recorder, String nodeName) {
        this.config = config;
        this.clock = clock;
        this.summaryProvider = summaryProvider;
        this.diskInfo = diskInfo;
        this.reclaim = reclaim;
        this.pods = pods;
        this.recorder = recorder;
        this.nodeName = nodeName;
    }

    /**
     * Makes {@link #requestCycle()} run cycles on {@code executor} from now on (its only user). Without thresholds
     * and local storage limits there is nothing to watch and no cycle runs.
     */
    public void start(ScheduledExecutorService executor) {
        if (!config.watchesAnything()) {
            log.info("Eviction manager: no eviction thresholds, the node's resources are not watched");
            return;
        }
        this.cycles = new EvictionCycles(this::synchronize, pods::cleanedUp, clock, executor);
    }

    /**
     * Asks for a cycle on fresh stats: the stats provider asks after each of its rounds. Ignored before
     * {@link #start}, and while a cycle runs or waits for an evicted pod to be cleaned up.
     */
    public void requestCycle() {
        EvictionCycles c = cycles;
        if (c != null) {
            c.request();
        }
    }

    /**
     * One cycle of the control loop (upstream {@code synchronize}).
     *
     * @return the pod evicted, or nothing
     */
    public synchronized List<Pod> synchronize() {
        List<Threshold> thresholds = config.thresholds();
        if (!config.watchesAnything()) {
            return List.of();
        }
        if (dedicatedImageFs == null) {
            try {
                dedicatedImageFs = diskInfo.hasDedicatedImageFs();
            } catch (IOException | RuntimeException e) {
                // Upstream stops every cycle here; memory and PIDs need no answer, and disks are then taken as one.
                log.warn("Eviction manager: cannot tell whether the images have a file system of their own ({});"
                        + " taking them as on the node's", e.getMessage());
                dedicatedImageFs = false;
            }
            signalToRankFunc = PodRanking.forSignals(dedicatedImageFs);
            signalToNodeReclaimFuncs = reclaim.forSignals(dedicatedImageFs);
            log.info("Eviction manager: the image file system is {}on a device of its own", dedicatedImageFs ? "" : "not ");
        }
        List<Pod> activePods = pods.active();
        Optional<Summary> summary = summaryProvider.get(false);
        if (summary.isEmpty()) {
            log.debug("Eviction manager: no stats summary yet");
            return List.of();
        }
        SignalObservations observations = SignalObservations.of(summary.get());

        // The thresholds met now, and those met before that have not recovered their minimum reclaim.
        thresholds = Thresholds.met(thresholds, observations, false);
        if (!thresholdsMet.isEmpty()) {
            thresholds = Thresholds.merge(thresholds, Thresholds.met(thresholdsMet, observations, true));
        }
        Instant now = clock.instant();
        Map<Threshold, Instant> firstObservedAt = Thresholds.firstObservedAt(thresholds, thresholdsFirstObservedAt, now);
        Map<String, Instant> conditionsObservedAt = Thresholds.nodeConditionsLastObservedAt(
                Thresholds.nodeConditions(thresholds), nodeConditionsLastObservedAt, now);
        List<String> conditions = Thresholds.nodeConditionsObservedSince(conditionsObservedAt,
                config.pressureTransitionPeriod(), now);
        thresholds = Thresholds.metGracePeriod(firstObservedAt, now);

        if (!conditions.equals(nodeConditions)) {
            log.info("Eviction manager: node conditions {}", conditions);
        }
        nodeConditions = List.copyOf(conditions);
        thresholdsFirstObservedAt = firstObservedAt;
        nodeConditionsLastObservedAt = conditionsObservedAt;
        thresholdsMet = thresholds;
        thresholds = Thresholds.updatedStats(thresholds, observations, lastObservations);
        lastObservations = observations;

        // Pods over their local storage limits go whatever the thresholds say, and then nothing else this cycle.
        if (config.localStorageCapacityIsolation()) {
            List<Pod> evicted = localStorageEviction(activePods, observations);
            if (!evicted.isEmpty()) {
                return evicted;
            }
        }
        if (thresholds.isEmpty()) {
            log.debug("Eviction manager: no resources are starved");
            return List.of();
        }
        thresholds = Thresholds.byEvictionPriority(thresholds);
        Threshold thresholdToReclaim = thresholds.getFirst();
        Signal.Resource resourceToReclaim = thresholdToReclaim.signal().resource();
        log.info("Eviction manager: attempting to reclaim {}", resourceToReclaim.apiName());
        recorder.event(References.node(nodeName), EventRecorder.WARNING, THRESHOLD_MET,
                "Attempting to reclaim " + resourceToReclaim.apiName());

        if (reclaimNodeLevelResources(thresholdToReclaim.signal(), resourceToReclaim)) {
            log.info("Eviction manager: able to reduce {} pressure without evicting pods.", resourceToReclaim.apiName());
            return List.of();
        }
        log.info("Eviction manager: must evict pod(s) to reclaim {}", resourceToReclaim.apiName());
        if (activePods.isEmpty()) {
            log.error("Eviction manager: eviction thresholds have been met, but no pods are active to evict");
            return List.of();
        }
        List<Pod> ranked = signalToRankFunc.get(thresholdToReclaim.signal()).rank(activePods, observations);
        log.info("Eviction manager: pods ranked for eviction: {}", EvictionCycles.names(ranked));
        // At most one pod per cycle.
        for (Pod pod : ranked) {
            String message = EvictionMessage.of(resourceToReclaim, pod, observations, thresholds);
            if (evictPod(pod, gracePeriodOverride(thresholdToReclaim, pod), message, true)) {
                return List.of(pod);
            }
        }
        log.info("Eviction manager: unable to evict any pods from the node");
        return List.of();
    }

    /**
     * One second for a hard threshold; for a soft one {@code evictionMaxPodGracePeriod}, never more than the pod's own
     * grace period, and the pod's own when negative (null).
     */
    Long gracePeriodOverride(Threshold threshold, Pod pod) {
        if (threshold.isHard()) {
            return IMMEDIATE_EVICTION_GRACE_PERIOD_SECONDS;
        }
        if (config.maxPodGracePeriodSeconds() < 0) {
            return null;
        }
        Long own = pod.getSpec() == null ? null : pod.getSpec().getTerminationGracePeriodSeconds();
        return own == null ? config.maxPodGracePeriodSeconds() : Math.min(config.maxPodGracePeriodSeconds(), own);
    }

    /**
     * Runs the node-level reclaim of the signal, then measures again (upstream {@code reclaimNodeLevelResources}):
     * true when every threshold, minimum reclaim included, is then satisfied and no pod needs to go.
     */
    private boolean reclaimNodeLevelResources(Signal signal, Signal.Resource resource) {
        List<NodeReclaim.ReclaimFunc> funcs = signalToNodeReclaimFuncs.getOrDefault(signal, List.of());
        for (NodeReclaim.ReclaimFunc f : funcs) {
            try {
                f.reclaim();
            } catch (Exception e) {
                log.info("Eviction manager: unexpected error when attempting to reduce {} pressure: {}",
                        resource.apiName(), e.getMessage());
            }
        }
        if (funcs.isEmpty()) {
            return false;
        }
        Optional<Summary> summary = summaryProvider.get(true);
        if (summary.isEmpty()) {
            log.error("Eviction manager: failed to get summary stats after resource reclaim");
            return false;
        }
        return Thresholds.met(config.thresholds(), SignalObservations.of(summary.get()), true).isEmpty();
    }

    /** Upstream {@code localStorageEviction}: every pod over a local storage limit, at once. */
    private List<Pod> localStorageEviction(List<Pod> activePods, SignalObservations observations) {
        List<Pod> evicted = new ArrayList<>();
        for (Pod pod : activePods) {
            Optional<String> exceeded = observations.podStats(pod.getMetadata().getUid())
                    .flatMap(stats -> LocalStorageLimits.exceeded(pod, stats, dedicatedImageFs));
            if (exceeded.isPresent() && evictPod(pod, IMMEDIATE_EVICTION_GRACE_PERIOD_SECONDS, exceeded.get(), false)) {
                evicted.add(pod);
            }
        }
        return evicted;
    }

    /**
     * Upstream {@code evictPod}: a critical pod is never evicted (false); any other is recorded, failed and killed
     * (true, even when the kill timed out: it was evicted all the same).
     *
     * @param disruption whether the pod gets the DisruptionTarget condition (upstream gives it for node pressure only)
     */
    private boolean evictPod(Pod pod, Long gracePeriodOverride, String message, boolean disruption) {
        if (CriticalPods.isCriticalPod(pod)) {
            log.error("Eviction manager: cannot evict a critical pod {}", PodSpecs.format(pod));
            return false;
        }
        recorder.event(References.pod(pod), EventRecorder.WARNING, REASON, message);
        log.info("Evicting pod {}: {}", PodSpecs.format(pod), message);
        try {
            pods.kill(pod, gracePeriodOverride, status -> evicted(status, message, disruption));
            log.info("Eviction manager: pod {} is evicted successfully", PodSpecs.format(pod));
        } catch (Exception e) {
            log.error("Eviction manager: pod {} failed to evict: {}", PodSpecs.format(pod), e.getMessage());
        }
        return true;
    }

    /** An evicted pod's status: Failed, with the reason, the message and, for node pressure, a DisruptionTarget condition. */
    static void evicted(PodStatus status, String message, boolean disruption) {
        status.setPhase(PodPhases.FAILED);
        status.setReason(REASON);
        status.setMessage(message);
        if (!disruption) {
            return;
        }
        PodConditions.setDisruptionTarget(status, TERMINATION_BY_KUBELET, message);
    }

    /** The node's pressure conditions now, in a fixed order (MemoryPressure, DiskPressure, PIDPressure). */
    public List<String> nodeConditions() {
        return nodeConditions;
    }

    @Override
    public boolean memoryPressure() {
        return nodeConditions.contains(NodeConditions.MEMORY_PRESSURE);
    }

    @Override
    public boolean diskPressure() {
        return nodeConditions.contains(NodeConditions.DISK_PRESSURE);
    }

    @Override
    public boolean pidPressure() {
        return nodeConditions.contains(NodeConditions.PID_PRESSURE);
    }
}
