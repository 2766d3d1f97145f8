package io.jkubelet.core.stats.history;

import org.junit.jupiter.api.Test;

import static io.jkubelet.core.stats.history.UsageRing.MISSING;
import static io.jkubelet.core.stats.history.UsageRing.Metric.CPU_NANO_CORES;
import static io.jkubelet.core.stats.history.UsageRing.Metric.FS_USED_BYTES;
import static io.jkubelet.core.stats.history.UsageRing.Metric.MEMORY_WORKING_SET_BYTES;
import static io.jkubelet.core.stats.history.UsageRing.Metric.RX_BYTES_PER_SECOND;
import static io.jkubelet.core.stats.history.UsageRing.Metric.TX_BYTES_PER_SECOND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UsageRingTest {
    @Test
    void keepsTheLastCapacitySamplesOldestFirst() {
        UsageRing ring = new UsageRing(3);
        for (int i = 1; i <= 5; i++) {
            ring.record(i * 10_000L, i, i * 100, MISSING, MISSING, i * 1000);
        }

        UsageRing.Series s = ring.read();

        assertThat(s.timesMillis()).containsExactly(30_000L, 40_000L, 50_000L);
        assertThat(s.column(CPU_NANO_CORES)).containsExactly(3, 4, 5);
        assertThat(s.column(MEMORY_WORKING_SET_BYTES)).containsExactly(300, 400, 500);
        assertThat(s.column(FS_USED_BYTES)).containsExactly(3000, 4000, 5000);
        assertThat(ring.lastMillis()).isEqualTo(50_000L);
    }

    @Test
    void beforeItIsFullOnlyWhatWasRecordedIsRead() {
        UsageRing ring = new UsageRing(90);
        assertThat(ring.read().size()).isZero();
        assertThat(ring.lastMillis()).isEqualTo(MISSING);

        ring.record(1000, 5, 6, MISSING, MISSING, MISSING);

        assertThat(ring.read().timesMillis()).containsExactly(1000L);
        assertThat(ring.read().column(FS_USED_BYTES)).containsExactly(MISSING);
    }

    @Test
    void networkCountersBecomeRatesAndACounterThatWentBackStartsOver() {
        UsageRing ring = new UsageRing(10);
        ring.record(10_000, 0, 0, 1_000, 500, 0);
        ring.record(20_000, 0, 0, 11_000, 2_500, 0);
        ring.record(30_000, 0, 0, 100, 100, 0); // a new sandbox: its counters start from zero
        ring.record(40_000, 0, 0, 2_100, 1_100, 0);

        UsageRing.Series s = ring.read();

        assertThat(s.column(RX_BYTES_PER_SECOND)).containsExactly(MISSING, 1_000, MISSING, 200);
        assertThat(s.column(TX_BYTES_PER_SECOND)).containsExactly(MISSING, 200, MISSING, 100);
    }

    @Test
    void aSampleNotNewerThanTheLastIsIgnored() {
        UsageRing ring = new UsageRing(10);
        ring.record(20_000, 1, 1, MISSING, MISSING, 1);
        ring.record(20_000, 2, 2, MISSING, MISSING, 2);
        ring.record(10_000, 3, 3, MISSING, MISSING, 3);

        assertThat(ring.read().column(CPU_NANO_CORES)).containsExactly(1);
    }

    @Test
    void refusesAnEmptyRing() {
        assertThatThrownBy(() -> new UsageRing(0)).hasMessage("ring capacity must be positive, got 0");
    }
}
