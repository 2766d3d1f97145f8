package io.jkubelet.core.eviction;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.nodestatus.NodeConditions;
import io.jkubelet.core.stats.summary.PodStats;
import io.jkubelet.core.stats.summary.Summary;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import static io.jkubelet.core.eviction.EvictionFixtures.GI;
import static io.jkubelet.core.eviction.EvictionFixtures.MI;
import static io.jkubelet.core.eviction.EvictionFixtures.T0;
import static io.jkubelet.core.eviction.EvictionFixtures.apiPod;
import static io.jkubelet.core.eviction.EvictionFixtures.diskStats;
import static io.jkubelet.core.eviction.EvictionFixtures.memoryStats;
import static io.jkubelet.core.eviction.EvictionFixtures.summary;
import static org.assertj.core.api.Assertions.assertThat;

/** The eviction manager's cycle against fakes: stats given per cycle, an injected clock, kills recorded. */
class EvictionManagerTest {
    private static final Pod BEST_EFFORT = apiPod("best-effort", "", "");
    private static final Pod BURSTABLE = apiPod("burstable", "memory=100Mi", "");
    private static final Pod GUARANTEED = apiPod("guaranteed", "cpu=100m,memory=200Mi", "cpu=100m,memory=200Mi");

    private final FakeClock clock = new FakeClock(T0);
    private final List<String> events = new CopyOnWriteArrayList<>();
    private final EventRecorder recorder = (ref, type, reason, message) ->
            events.add(ref.getKind() + "/" + ref.getName() + " " + type + " " + reason + " " + message);
    private final FakePods pods = new FakePods();
    private final List<String> reclaimed = new ArrayList<>();
    /** What the stats provider has now; a fresh one (updateStats) is what follows a reclaim. */
    private Summary latest;
    private Summary afterReclaim;
    private boolean dedicatedImageFs;

    /** The kubelet's pods as the manager sees them: all active until killed; kills recorded with grace and status. */
    private static final class FakePods implements EvictionManager.Pods {
        final List<Pod> active = new CopyOnWriteArrayList<>();
        final List<String> killed = new CopyOnWriteArrayList<>();
        final List<PodStatus> statuses = new CopyOnWriteArrayList<>();

        @Override
        public List<Pod> active() {
            return List.copyOf(active);
        }

        @Override
        public void kill(Pod pod, Long gracePeriodOverride, Consumer<PodStatus> statusFn) {
            PodStatus s = new PodStatus();
            s.setPhase("Running");
            statusFn.accept(s);
            statuses.add(s);
            killed.add(pod.getMetadata().getName() + ":" + gracePeriodOverride);
            active.remove(pod);
        }

        @Override
        public boolean cleanedUp(Pod pod) {
            return !active.contains(pod);
        }
    }

    private EvictionManager manager(EvictionConfig config) {
        NodeReclaim reclaim = new NodeReclaim(() -> reclaimed.add("containers"), () -> {
            reclaimed.add("images");
            if (afterReclaim != null) {
                latest = afterReclaim;
            }
        });
        return new EvictionManager(config, clock, update -> Optional.ofNullable(latest), () -> dedicatedImageFs, reclaim,
                pods, recorder, "node-a");
    }

    private static EvictionConfig hard(Map<String, String> hard) {
        return new EvictionConfig(EvictionFixtures.thresholds(hard), Duration.ofMinutes(5), 0);
    }

    /** Stats measured now, with the node's memory at {@code available} and the pods' usage. */
    private void observe(long memoryAvailable, PodStats... podStats) {
        latest = summary(clock.instant(), memoryAvailable, podStats);
    }

    private void memoryUse(long available, long bestEffort, long burstable, long guaranteed) {
        List<PodStats> stats = new ArrayList<>();
        if (pods.active.contains(BEST_EFFORT)) {
            stats.add(memoryStats(BEST_EFFORT, clock.instant(), bestEffort));
        }
        if (pods.active.contains(BURSTABLE)) {
            stats.add(memoryStats(BURSTABLE, clock.instant(), burstable));
        }
        if (pods.active.contains(GUARANTEED)) {
            stats.add(memoryStats(GUARANTEED, clock.instant(), guaranteed));
        }
        observe(available, stats.toArray(PodStats[]::new));
    }

    private static List<String> names(List<Pod> evicted) {
        return evicted.stream().map(p -> p.getMetadata().getName()).toList();
    }

    @Test
    void underHardMemoryPressureOnePodGoesPerCycleOnFreshStatsTheBestEffortFirst() {
        EvictionManager m = manager(hard(Map.of("memory.available", "1Gi")));
        pods.active.addAll(List.of(GUARANTEED, BURSTABLE, BEST_EFFORT));
        memoryUse(500 * MI, 300 * MI, 150 * MI, 100 * MI);

        assertThat(names(m.synchronize())).containsExactly("best-effort");
        assertThat(pods.killed).containsExactly("best-effort:1");
        PodStatus status = pods.statuses.getFirst();
        assertThat(status.getPhase()).isEqualTo("Failed");
        assertThat(status.getReason()).isEqualTo("Evicted");
        assertThat(status.getMessage()).isEqualTo("The node was low on resource: memory. Threshold quantity: 1Gi, "
                + "available: 500Mi. Container app was using 300Mi, request is 0, has larger consumption of memory. ");
        assertThat(status.getConditions()).singleElement().satisfies(c -> {
            assertThat(c.getType()).isEqualTo("DisruptionTarget");
            assertThat(c.getReason()).isEqualTo("TerminationByKubelet");
            assertThat(c.getMessage()).isEqualTo(status.getMessage());
        });
        assertThat(events).containsExactly("Node/node-a Warning EvictionThresholdMet Attempting to reclaim memory",
                "Pod/best-effort Warning Evicted " + status.getMessage());
        assertThat(m.memoryPressure()).isTrue();
        assertThat(m.nodeConditions()).containsExactly(NodeConditions.MEMORY_PRESSURE);

        // The same numbers again: nothing more goes until the stats are measured again.
        assertThat(m.synchronize()).isEmpty();
        clock.advance(Duration.ofSeconds(10));
        memoryUse(800 * MI, 0, 150 * MI, 100 * MI);
        assertThat(names(m.synchronize())).containsExactly("burstable");
        clock.advance(Duration.ofSeconds(10));
        memoryUse(2 * GI, 0, 0, 100 * MI);
        assertThat(m.synchronize()).isEmpty();
        assertThat(pods.active).containsExactly(GUARANTEED);
        assertThat(m.memoryPressure()).as("for the transition period").isTrue();
    }

    @Test
    void aConditionEndsOnlyAfterThePressureTransitionPeriod() {
        EvictionManager m = manager(new EvictionConfig(EvictionFixtures.thresholds(Map.of("memory.available", "1Gi")),
                Duration.ofSeconds(30), 0));
        observe(500 * MI);
        m.synchronize();
        assertThat(m.memoryPressure()).isTrue();

        clock.advance(Duration.ofSeconds(10));
        observe(2 * GI);
        m.synchronize();
        assertThat(m.memoryPressure()).isTrue();
        clock.advance(Duration.ofSeconds(19));
        observe(2 * GI);
        m.synchronize();
        assertThat(m.memoryPressure()).isTrue();
        clock.advance(Duration.ofSeconds(1));
        observe(2 * GI);
        m.synchronize();
        assertThat(m.memoryPressure()).isFalse();
        assertThat(m.nodeConditions()).isEmpty();
    }

    @Test
    void aSoftThresholdReportsPressureAtOnceButEvictsOnlyAfterItsGracePeriodWithTheCappedPodGrace() {
        List<Threshold> soft = ThresholdParser.parseThresholdConfig(List.of(), Map.of(), Map.of("memory.available", "1Gi"),
                Map.of("memory.available", "1m"), Map.of());
        EvictionManager m = manager(new EvictionConfig(soft, Duration.ofMinutes(5), 20));
        pods.active.add(BEST_EFFORT);
        memoryUse(500 * MI, 300 * MI, 0, 0);
        assertThat(m.synchronize()).isEmpty();
        assertThat(m.memoryPressure()).isTrue();

        clock.advance(Duration.ofSeconds(59));
        memoryUse(500 * MI, 300 * MI, 0, 0);
        assertThat(m.synchronize()).isEmpty();
        clock.advance(Duration.ofSeconds(1));
        memoryUse(500 * MI, 300 * MI, 0, 0);
        assertThat(names(m.synchronize())).containsExactly("best-effort");
        // evictionMaxPodGracePeriod 20 s, below the pod's 30 s.
        assertThat(pods.killed).containsExactly("best-effort:20");
    }

    @Test
    void softEvictionGivesThePodsOwnGracePeriodWhenLowerOrWhenTheMaximumIsNegative() {
        Threshold soft = ThresholdParser.parseThresholdConfig(List.of(), Map.of(), Map.of("memory.available", "1Gi"),
                Map.of("memory.available", "1m"), Map.of()).getFirst();
        Pod quick = new PodBuilder(BEST_EFFORT).editSpec().withTerminationGracePeriodSeconds(5L).endSpec().build();

        assertThat(manager(new EvictionConfig(List.of(soft), Duration.ZERO, 60)).gracePeriodOverride(soft, quick))
                .isEqualTo(5L);
        assertThat(manager(new EvictionConfig(List.of(soft), Duration.ZERO, -1)).gracePeriodOverride(soft, quick)).isNull();
        Threshold hard = EvictionFixtures.thresholds(Map.of("memory.available", "1Gi")).getFirst();
        assertThat(manager(new EvictionConfig(List.of(hard), Duration.ZERO, 60)).gracePeriodOverride(hard, quick))
                .isEqualTo(1L);
    }

    @Test
    void withMinimumReclaimPodsGoUntilThatMuchMoreThanTheThresholdIsAvailable() {
        EvictionManager m = manager(new EvictionConfig(ThresholdParser.parseThresholdConfig(List.of(),
                Map.of("memory.available", "1Gi"), Map.of(), Map.of(), Map.of("memory.available", "500Mi")),
                Duration.ofMinutes(5), 0));
        pods.active.addAll(List.of(GUARANTEED, BURSTABLE, BEST_EFFORT));
        memoryUse(900 * MI, 300 * MI, 150 * MI, 100 * MI);
        assertThat(names(m.synchronize())).containsExactly("best-effort");

        // Above the threshold now, but not by 500Mi: the threshold is not resolved yet.
        clock.advance(Duration.ofSeconds(10));
        memoryUse(1200 * MI, 0, 150 * MI, 100 * MI);
        assertThat(names(m.synchronize())).containsExactly("burstable");
        clock.advance(Duration.ofSeconds(10));
        memoryUse(1524 * MI, 0, 0, 100 * MI);
        assertThat(m.synchronize()).isEmpty();
        assertThat(pods.active).containsExactly(GUARANTEED);
    }

    @Test
    void criticalAndStaticPodsAreNeverEvicted() {
        EvictionManager m = manager(hard(Map.of("memory.available", "1Gi")));
        Pod staticPod = new PodBuilder(BEST_EFFORT).editMetadata().withName("static").withUid("uid-static")
                .addToAnnotations("kubernetes.io/config.source", "file").endMetadata().build();
        Pod critical = new PodBuilder(BEST_EFFORT).editMetadata().withName("critical").withUid("uid-critical")
                .endMetadata().editSpec().withPriority(2_000_001_000).endSpec().build();
        pods.active.addAll(List.of(staticPod, critical));
        observe(100 * MI, memoryStats(staticPod, clock.instant(), 900 * MI), memoryStats(critical, clock.instant(), 900 * MI));

        assertThat(m.synchronize()).isEmpty();
        assertThat(pods.killed).isEmpty();
        assertThat(events).containsExactly("Node/node-a Warning EvictionThresholdMet Attempting to reclaim memory");

        pods.active.add(GUARANTEED);
        clock.advance(Duration.ofSeconds(10));
        observe(100 * MI, memoryStats(staticPod, clock.instant(), 900 * MI), memoryStats(critical, clock.instant(), 900 * MI),
                memoryStats(GUARANTEED, clock.instant(), 10 * MI));
        assertThat(names(m.synchronize())).containsExactly("guaranteed");
    }

    @Test
    void underDiskPressureTheNodeFreesContainersThenImagesFirstAndEvictsOnlyIfThatIsNotEnough() {
        EvictionManager m = manager(hard(Map.of("imagefs.available", "10Gi")));
        Pod writer = apiPod("writer", "", "");
        pods.active.add(writer);
        latest = summary(clock.instant(), 4 * GI, 50 * GI, 5 * GI, diskStats(writer, clock.instant(), GI, MI));
        afterReclaim = summary(clock.instant().plusSeconds(1), 4 * GI, 50 * GI, 12 * GI,
                diskStats(writer, clock.instant(), GI, MI));

        assertThat(m.synchronize()).isEmpty();
        assertThat(reclaimed).containsExactly("containers", "images");
        assertThat(pods.killed).isEmpty();
        assertThat(m.diskPressure()).isTrue();

        clock.advance(Duration.ofSeconds(10));
        latest = summary(clock.instant(), 4 * GI, 50 * GI, 5 * GI, diskStats(writer, clock.instant(), GI, MI));
        afterReclaim = summary(clock.instant().plusSeconds(1), 4 * GI, 50 * GI, 6 * GI,
                diskStats(writer, clock.instant(), GI, MI));
        assertThat(names(m.synchronize())).containsExactly("writer");
        assertThat(reclaimed).containsExactly("containers", "images", "containers", "images");
        // As upstream, the message tells what was measured before the reclaim.
        assertThat(pods.statuses.getFirst().getMessage()).isEqualTo("The node was low on resource: ephemeral-storage. "
                + "Threshold quantity: 10Gi, available: 5Gi. Container app was using 1025Mi, request is 0, has larger "
                + "consumption of ephemeral-storage. ");
    }

    @Test
    void withADedicatedImageFileSystemPressureOnTheNodesFileSystemHasNothingToFreeAtNodeLevel() {
        dedicatedImageFs = true;
        EvictionManager m = manager(hard(Map.of("nodefs.available", "60Gi")));
        Pod logger = apiPod("logger", "", "");
        pods.active.add(logger);
        latest = summary(clock.instant(), 4 * GI, 50 * GI, 50 * GI, diskStats(logger, clock.instant(), MI, GI));

        assertThat(names(m.synchronize())).containsExactly("logger");
        assertThat(reclaimed).isEmpty();
    }

    @Test
    void withLocalStorageIsolationAPodOverItsLimitGoesWithoutPressureAndWithoutADisruptionCondition() {
        EvictionManager m = manager(new EvictionConfig(List.of(), Duration.ofMinutes(5), 0, true));
        Pod logger = apiPod("logger", 0, EvictionFixtures.container("app", "", "ephemeral-storage=100Mi"));
        pods.active.addAll(List.of(logger, BEST_EFFORT));
        latest = summary(clock.instant(), 4 * GI, 50 * GI, 50 * GI, diskStats(logger, clock.instant(), MI, 200 * MI),
                diskStats(BEST_EFFORT, clock.instant(), GI, GI));

        assertThat(names(m.synchronize())).containsExactly("logger");
        assertThat(pods.killed).containsExactly("logger:1");
        PodStatus status = pods.statuses.getFirst();
        assertThat(status.getReason()).isEqualTo("Evicted");
        assertThat(status.getMessage()).isEqualTo("Pod ephemeral local storage usage exceeds the total limit of containers "
                + "100Mi. ");
        assertThat(status.getConditions()).isNullOrEmpty();
        assertThat(m.nodeConditions()).isEmpty();
    }

    @Test
    void withoutThresholdsOrStatsNothingHappens() {
        assertThat(manager(EvictionConfig.NONE).synchronize()).isEmpty();
        EvictionManager m = manager(hard(Map.of("memory.available", "1Gi")));
        pods.active.add(BEST_EFFORT);
        assertThat(m.synchronize()).as("no summary yet").isEmpty();
        assertThat(m.nodeConditions()).isEmpty();
        assertThat(events).isEmpty();
    }
}
