package io.jkubelet.core.stats;

import io.jkubelet.core.runtime.CpuUsage;
import io.jkubelet.core.stats.summary.CpuStats;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** usageNanoCores from two rounds' cumulative counters, as upstream's cpuUsageCache computes it. */
class CpuUsageCacheTest {
    private static final Instant T0 = Instant.parse("2026-01-02T03:05:00Z");
    private static final Instant T10 = T0.plusSeconds(10);
    private static final long SECOND = 1_000_000_000L;

    private final CpuUsageCache cache = new CpuUsageCache();

    private Long round(String key, Instant time, long usageNanos) {
        cache.beginRound();
        Long rate = cache.usageNanoCores(key, time, usageNanos);
        cache.endRound();
        return rate;
    }

    @Test
    void theRateIsTheCountersGrowthSinceThePreviousRoundPerSecond() {
        assertThat(round("c1", T0, SECOND)).as("no rate from one reading").isNull();

        assertThat(round("c1", T10, 6 * SECOND)).as("5 s of CPU in 10 s: half a core").isEqualTo(SECOND / 2);
    }

    @Test
    void aCounterThatWentBackOrNoTimePassingGivesNoRate() {
        round("c1", T0, 6 * SECOND);
        assertThat(round("c1", T10, SECOND)).as("replaced under the same key").isNull();
        assertThat(round("c1", T10, 2 * SECOND)).as("no time passed").isNull();
        assertThat(round("c1", T10.plusSeconds(1), 3 * SECOND)).isEqualTo(SECOND);
    }

    @Test
    void keysAreApartAndAKeyNotReadInARoundIsForgotten() {
        cache.beginRound();
        cache.usageNanoCores(CpuUsageCache.pod("u1"), T0, 0);
        cache.usageNanoCores(CpuUsageCache.NODE, T0, 0);
        cache.endRound();

        cache.beginRound();
        assertThat(cache.usageNanoCores(CpuUsageCache.NODE, T10, 10 * SECOND)).isEqualTo(SECOND);
        cache.endRound();

        assertThat(round(CpuUsageCache.pod("u1"), T10.plusSeconds(10), 10 * SECOND)).isNull();
    }

    @Test
    void aReadingOfARoundThatDidNotEndIsNeverMeasuredFrom() {
        round("c1", T0, 0);
        cache.beginRound();
        cache.usageNanoCores("c2", T0.plusSeconds(5), 5 * SECOND); // the round fails here

        assertThat(round("c1", T10, 5 * SECOND)).as("measured from the last round that ended").isEqualTo(SECOND / 2);
        assertThat(round("c2", T10.plusSeconds(10), 10 * SECOND)).isNull();
    }

    @Test
    void theRuntimesOwnRateIsKeptAndItsCounterStillCountsForTheNextRound() {
        cache.beginRound();
        CpuStats own = cache.containerCpuStats("c1", new CpuUsage(T0, SECOND, 123L));
        cache.endRound();
        assertThat(own).isEqualTo(new CpuStats(T0, 123L, SECOND));

        cache.beginRound();
        CpuStats derived = cache.containerCpuStats("c1", new CpuUsage(T10, 3 * SECOND, null));
        cache.endRound();
        assertThat(derived).isEqualTo(new CpuStats(T10, SECOND / 5, 3 * SECOND));
    }
}
