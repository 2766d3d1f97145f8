package io.jkubelet.core.stats.history;

import io.jkubelet.core.stats.StatsSnapshot;
import io.jkubelet.core.stats.summary.ContainerStats;
import io.jkubelet.core.stats.summary.CpuStats;
import io.jkubelet.core.stats.summary.FsStats;
import io.jkubelet.core.stats.summary.InterfaceStats;
import io.jkubelet.core.stats.summary.MemoryStats;
import io.jkubelet.core.stats.summary.NetworkStats;
import io.jkubelet.core.stats.summary.NodeStats;
import io.jkubelet.core.stats.summary.PodReference;
import io.jkubelet.core.stats.summary.PodStats;
import io.jkubelet.core.stats.summary.Summary;
import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.GraphLayout;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.jkubelet.core.stats.history.UsageRing.MISSING;
import static io.jkubelet.core.stats.history.UsageRing.Metric.CPU_NANO_CORES;
import static io.jkubelet.core.stats.history.UsageRing.Metric.FS_USED_BYTES;
import static io.jkubelet.core.stats.history.UsageRing.Metric.MEMORY_WORKING_SET_BYTES;
import static io.jkubelet.core.stats.history.UsageRing.Metric.RX_BYTES_PER_SECOND;
import static org.assertj.core.api.Assertions.assertThat;

class StatsHistoryTest {
    static {
        // JOL reads field offsets through Unsafe, which refuses record classes (PodReference); this lets it find them
        // by probing instead. Set before JOL's first use.
        System.setProperty("jol.magicFieldOffset", "true");
    }

    private static final Instant T0 = Instant.parse("2026-12-04T12:00:00Z");
    private static final Duration PERIOD = Duration.ofSeconds(10);

    /** A round at {@code T0 + round * 10 s} with the given pods, each with containers {@code app} and {@code sidecar}. */
    static StatsSnapshot round(int round, List<PodReference> pods) {
        Instant t = T0.plus(PERIOD.multipliedBy(round));
        NodeStats node = new NodeStats("node-a", List.of(), T0, new CpuStats(t, 1_000_000L * round, 0L),
                new MemoryStats(t, null, 0L, 1_000L + round, 0L, 0L, 0L),
                new NetworkStats(t, null, List.of(new InterfaceStats("ens3", 10_000L * round, 0L, 0L, 0L),
                        new InterfaceStats("lo", 999_999L * round, 0L, 0L, 0L),
                        new InterfaceStats("veth1", 999_999L * round, 0L, 0L, 0L))),
                new FsStats(t, 0L, 0L, 5_000L, 0L, 0L, 0L), null, null);
        List<PodStats> podStats = new ArrayList<>();
        for (PodReference ref : pods) {
            List<ContainerStats> containers = List.of(
                    new ContainerStats("app", T0, new CpuStats(t, round == 0 ? null : 250_000_000L, 0L),
                            new MemoryStats(t, null, 0L, 64L << 20, 0L, 0L, 0L),
                            new FsStats(t, 0L, 0L, 4096L, 0L, 0L, 0L), new FsStats(t, 0L, 0L, 100L, 0L, 0L, 0L)),
                    new ContainerStats("sidecar", T0, new CpuStats(t, 1_000_000L, 0L),
                            new MemoryStats(t, null, 0L, 8L << 20, 0L, 0L, 0L), null, null));
            podStats.add(new PodStats(ref, T0, containers, new CpuStats(t, 251_000_000L, 0L),
                    new MemoryStats(t, null, 0L, 72L << 20, 0L, 0L, 0L),
                    new NetworkStats(t, new InterfaceStats("eth0", 500L * round, 0L, 0L, 0L), List.of()), List.of(),
                    new FsStats(t, 0L, 0L, 8192L, 0L, 0L, 0L), null));
        }
        return new StatsSnapshot(t, new Summary(node, podStats), List.of(), null);
    }

    static List<PodReference> pods(int n) {
        List<PodReference> pods = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            pods.add(new PodReference("pod-" + i, "ns-" + (i % 7), "uid-" + i));
        }
        return pods;
    }

    @Test
    void keepsFifteenMinutesOfRoundsForTheNodeEachPodAndEachContainer() {
        StatsHistory history = new StatsHistory(PERIOD);
        List<PodReference> pods = pods(2);
        for (int r = 0; r < 100; r++) {
            history.record(round(r, pods));
        }

        assertThat(history.capacity()).isEqualTo(90);
        UsageRing.Series node = history.node();
        assertThat(node.size()).isEqualTo(90);
        assertThat(node.timesMillis()[0]).isEqualTo(T0.plusSeconds(100).toEpochMilli()); // rounds 10..99
        assertThat(node.column(MEMORY_WORKING_SET_BYTES)[89]).isEqualTo(1_099);
        assertThat(node.column(FS_USED_BYTES)[89]).isEqualTo(5_000);
        // The node's traffic is its own interfaces': loopback and the pods' veth ends are left out.
        assertThat(node.column(RX_BYTES_PER_SECOND)[89]).isEqualTo(1_000);

        StatsHistory.PodSeries pod = history.pod("ns-1", "pod-1").orElseThrow();
        assertThat(pod.ref().uid()).isEqualTo("uid-1");
        assertThat(pod.containers()).containsExactly("app", "sidecar");
        assertThat(pod.series().column(RX_BYTES_PER_SECOND)[89]).isEqualTo(50);
        assertThat(pod.series().column(FS_USED_BYTES)[89]).isEqualTo(8192);

        UsageRing.Series app = history.container("ns-1", "pod-1", "app").orElseThrow();
        assertThat(app.size()).isEqualTo(90);
        assertThat(app.column(CPU_NANO_CORES)[89]).isEqualTo(250_000_000L);
        assertThat(app.column(FS_USED_BYTES)[89]).isEqualTo(4196); // rootfs and logs
        assertThat(app.column(RX_BYTES_PER_SECOND)[89]).isEqualTo(MISSING);
        assertThat(history.container("ns-1", "pod-1", "nope")).isEmpty();
        assertThat(history.pod("ns-1", "pod-0")).isEmpty();
    }

    @Test
    void aRoundWithoutACpuRateIsMissingNotZero() {
        StatsHistory history = new StatsHistory(PERIOD);
        history.record(round(0, pods(1)));
        history.record(round(1, pods(1)));

        assertThat(history.container("ns-0", "pod-0", "app").orElseThrow().column(CPU_NANO_CORES))
                .containsExactly(MISSING, 250_000_000L);
    }

    @Test
    void aPodNoRoundReportedForAWindowIsForgotten() {
        StatsHistory history = new StatsHistory(PERIOD);
        history.record(round(0, pods(2)));
        for (int r = 1; r <= 90; r++) {
            history.record(round(r, pods(1)));
        }
        assertThat(history.pod("ns-1", "pod-1")).isPresent(); // its last sample is exactly a window old

        history.record(round(91, pods(1)));

        assertThat(history.pod("ns-1", "pod-1")).isEmpty();
        assertThat(history.pods()).extracting(PodReference::name).containsExactly("pod-0");
    }

    @Test
    void atMostMaxPodsAreKeptTheLeastRecentlySeenGoFirst() {
        StatsHistory history = new StatsHistory(PERIOD);
        List<PodReference> first = pods(StatsHistory.MAX_PODS);
        history.record(round(0, first));
        history.record(round(1, List.of(new PodReference("late", "default", "uid-late"))));

        assertThat(history.pods()).hasSize(StatsHistory.MAX_PODS);
        assertThat(history.pod("default", "late")).isPresent();
    }

    /**
     * The cost the dashboard's history adds to a full node: 110 pods of two containers, 15 minutes of rounds,
     * measured by walking the object graph (JOL), the pod references and names included. About 1.6 MiB.
     */
    @Test
    void aFullNodeOfFifteenMinutesCostsLessThanTwoMebibytes() {
        StatsHistory history = new StatsHistory(PERIOD);
        List<PodReference> pods = pods(110);
        for (int r = 0; r < 90; r++) {
            history.record(round(r, pods));
        }

        long bytes = GraphLayout.parseInstance(history).totalSize();
        System.out.printf("stats history, 110 pods x 2 containers x %d samples: %d bytes (%.2f MiB)%n",
                history.capacity(), bytes, bytes / 1048576.0);

        // 1 node + 110 pods + 220 containers = 331 rings of 90 samples x 6 longs = 4.3 KiB each.
        assertThat(bytes).isBetween(331L * 90 * 6 * 8, 2L << 20);
    }
}
