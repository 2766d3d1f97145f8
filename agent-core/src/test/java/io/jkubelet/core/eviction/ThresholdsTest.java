package io.jkubelet.core.eviction;

import io.jkubelet.core.nodestatus.NodeConditions;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static io.jkubelet.core.eviction.EvictionFixtures.GI;
import static io.jkubelet.core.eviction.EvictionFixtures.MI;
import static io.jkubelet.core.eviction.EvictionFixtures.T0;
import static io.jkubelet.core.eviction.EvictionFixtures.summary;
import static org.assertj.core.api.Assertions.assertThat;

/** One cycle's decisions that need no state: thresholds met, grace periods, node conditions and their transition. */
class ThresholdsTest {
    private static final Threshold MEMORY_HARD = threshold(Map.of("memory.available", "1Gi"), Map.of(), Map.of());
    private static final Threshold NODEFS_10_PERCENT = threshold(Map.of("nodefs.available", "10%"), Map.of(), Map.of());

    private static Threshold threshold(Map<String, String> hard, Map<String, String> soft, Map<String, String> reclaim) {
        return ThresholdParser.parseThresholdConfig(List.of(), hard, soft,
                soft.isEmpty() ? Map.of() : Map.of(soft.keySet().iterator().next(), "1m"), reclaim).getFirst();
    }

    private static SignalObservations observed(long memoryAvailable, long nodeFsAvailable) {
        return SignalObservations.of(summary(T0, memoryAvailable, nodeFsAvailable, 50 * GI));
    }

    @Test
    void aThresholdIsMetWhenLessThanItIsAvailableAndAPercentageIsOfCapacity() {
        List<Threshold> both = List.of(MEMORY_HARD, NODEFS_10_PERCENT);
        // 10% of 100Gi as upstream's float32 percentage takes it: 160 bytes over 10Gi.
        long tenPercent = 10 * GI + 160;

        assertThat(Thresholds.met(both, observed(GI, tenPercent), false)).isEmpty();
        assertThat(Thresholds.met(both, observed(GI - 1, tenPercent), false)).containsExactly(MEMORY_HARD);
        assertThat(Thresholds.met(both, observed(GI, tenPercent - 1), false)).containsExactly(NODEFS_10_PERCENT);
    }

    @Test
    void withMinimumReclaimAMetThresholdStaysMetUntilThatMuchMoreIsAvailable() {
        Threshold withReclaim = threshold(Map.of("memory.available", "1Gi"), Map.of(), Map.of("memory.available", "500Mi"));

        assertThat(Thresholds.met(List.of(withReclaim), observed(GI + 100 * MI, 50 * GI), false)).isEmpty();
        assertThat(Thresholds.met(List.of(withReclaim), observed(GI + 100 * MI, 50 * GI), true)).containsExactly(withReclaim);
        assertThat(Thresholds.met(List.of(withReclaim), observed(GI + 500 * MI, 50 * GI), true)).isEmpty();
    }

    @Test
    void aSoftThresholdActsOnlyOnceMetForItsGracePeriod() {
        Threshold soft = threshold(Map.of(), Map.of("memory.available", "2Gi"), Map.of());
        Instant first = T0;
        Map<Threshold, Instant> at = Thresholds.firstObservedAt(List.of(soft, MEMORY_HARD), Map.of(), first);
        assertThat(Thresholds.metGracePeriod(at, first)).containsExactly(MEMORY_HARD);

        Instant later = first.plusSeconds(59);
        at = Thresholds.firstObservedAt(List.of(soft), at, later);
        assertThat(at).containsEntry(soft, first);
        assertThat(Thresholds.metGracePeriod(at, later)).isEmpty();
        assertThat(Thresholds.metGracePeriod(at, first.plusSeconds(60))).containsExactly(soft);
        // Not met for one cycle: it starts again.
        at = Thresholds.firstObservedAt(List.of(soft), Thresholds.firstObservedAt(List.of(), at, later), later);
        assertThat(at).containsEntry(soft, later);
    }

    @Test
    void aConditionStaysForTheTransitionPeriodAfterItsThresholdWasLastMet() {
        Duration period = Duration.ofMinutes(5);
        Map<String, Instant> at = Thresholds.nodeConditionsLastObservedAt(
                Thresholds.nodeConditions(List.of(NODEFS_10_PERCENT, MEMORY_HARD)), Map.of(), T0);
        assertThat(Thresholds.nodeConditionsObservedSince(at, period, T0))
                .containsExactly(NodeConditions.MEMORY_PRESSURE, NodeConditions.DISK_PRESSURE);

        Instant later = T0.plus(Duration.ofMinutes(4));
        at = Thresholds.nodeConditionsLastObservedAt(Thresholds.nodeConditions(List.of(NODEFS_10_PERCENT)), at, later);
        assertThat(Thresholds.nodeConditionsObservedSince(at, period, T0.plus(period).minusSeconds(1)))
                .containsExactly(NodeConditions.MEMORY_PRESSURE, NodeConditions.DISK_PRESSURE);
        assertThat(Thresholds.nodeConditionsObservedSince(at, period, T0.plus(period)))
                .containsExactly(NodeConditions.DISK_PRESSURE);
        assertThat(Thresholds.nodeConditionsObservedSince(at, period, later.plus(period))).isEmpty();
    }

    @Test
    void onlyThresholdsMeasuredAgainSinceTheLastCycleCount() {
        SignalObservations before = SignalObservations.of(summary(T0, 0));
        SignalObservations same = SignalObservations.of(summary(T0, 0));
        SignalObservations newer = SignalObservations.of(summary(T0.plusSeconds(10), 0));

        assertThat(Thresholds.updatedStats(List.of(MEMORY_HARD), same, null)).containsExactly(MEMORY_HARD);
        assertThat(Thresholds.updatedStats(List.of(MEMORY_HARD), same, before)).isEmpty();
        assertThat(Thresholds.updatedStats(List.of(MEMORY_HARD), newer, before)).containsExactly(MEMORY_HARD);
    }

    @Test
    void memoryIsReclaimedBeforeAnythingElseAndMergingKeepsOneOfEach() {
        Threshold pid = threshold(Map.of("pid.available", "10%"), Map.of(), Map.of());
        assertThat(Thresholds.byEvictionPriority(List.of(NODEFS_10_PERCENT, pid, MEMORY_HARD)))
                .containsExactly(MEMORY_HARD, NODEFS_10_PERCENT, pid);
        Threshold withReclaim = MEMORY_HARD.withMinReclaim(ThresholdValue.ofPercentage(0.1f));
        assertThat(Thresholds.merge(List.of(MEMORY_HARD), List.of(withReclaim, NODEFS_10_PERCENT)))
                .containsExactly(MEMORY_HARD, NODEFS_10_PERCENT);
    }
}
