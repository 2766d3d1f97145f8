package io.jkubelet.core.stats;

import io.jkubelet.core.runtime.ContainerMetadata;
import io.jkubelet.core.runtime.ContainerStats;
import io.jkubelet.core.runtime.CpuUsage;
import io.jkubelet.core.runtime.MemoryUsage;
import io.jkubelet.core.stats.summary.MemoryStats;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A pod's CPU, memory and processes as the sums of its containers'. */
class PodUsageSumTest {
    private static final Instant T0 = Instant.parse("2026-01-02T03:05:00Z");
    private static final Instant T1 = T0.plusSeconds(1);

    private static ContainerStats container(String name, CpuUsage cpu, MemoryUsage memory, Long processes) {
        return new ContainerStats(name, "s1", new ContainerMetadata(name, 0), Map.of(), "k8s_" + name, "/" + name, "img",
                null, cpu, memory, null, processes, null);
    }

    @Test
    void eachMemoryCounterIsTheSumOfThatCounterAndTheTimeIsTheLastReadings() {
        PodUsageSum sum = PodUsageSum.of(List.of(
                container("app", new CpuUsage(T0, 100, 7L), new MemoryUsage(T0, 60, 80, 50, 7, 1, 100L), 2L),
                container("POD", new CpuUsage(T1, 5, null), new MemoryUsage(T1, 10, 12, 8, 3, 2, null), 1L)));

        assertThat(sum.cpu()).isEqualTo(new PodUsageSum.Cpu(T1, 105));
        assertThat(sum.memory()).isEqualTo(new PodUsageSum.Memory(T1, 92, 70, 58, 10, 3));
        assertThat(sum.memory().toStats()).as("no availableBytes for a pod")
                .isEqualTo(new MemoryStats(T1, null, 92L, 70L, 58L, 10L, 3L));
        assertThat(sum.processCount()).isEqualTo(3L);
    }

    @Test
    void whatNoContainerReportedIsLeftOutAndWhatSomeReportedIsTheirs() {
        assertThat(PodUsageSum.of(List.of())).isEqualTo(new PodUsageSum(null, null, null));

        PodUsageSum sum = PodUsageSum.of(List.of(
                container("app", new CpuUsage(T0, 100, null), null, null),
                container("idle", null, null, 4L)));

        assertThat(sum.cpu()).isEqualTo(new PodUsageSum.Cpu(T0, 100));
        assertThat(sum.memory()).isNull();
        assertThat(sum.processCount()).isEqualTo(4L);
    }
}
