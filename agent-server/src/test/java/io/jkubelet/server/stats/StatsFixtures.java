package io.jkubelet.server.stats;

import io.jkubelet.core.runtime.ContainerMetadata;
import io.jkubelet.core.runtime.ContainerResourceSpec;
import io.jkubelet.core.runtime.CpuUsage;
import io.jkubelet.core.runtime.MemoryUsage;
import io.jkubelet.core.runtime.PodSandboxMetadata;
import io.jkubelet.core.runtime.PodSandboxStats;
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
import io.jkubelet.core.stats.summary.ProcessStats;
import io.jkubelet.core.stats.summary.RlimitStats;
import io.jkubelet.core.stats.summary.RuntimeStats;
import io.jkubelet.core.stats.summary.Summary;
import io.jkubelet.core.stats.summary.VolumeStats;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** One node with one pod of one container, every field set, for encoder and handler tests. */
public final class StatsFixtures {
    public static final Instant T = Instant.parse("2026-12-03T08:00:00.123456789Z");
    public static final Instant BOOT = Instant.parse("2026-12-03T06:00:00Z");
    public static final Instant STARTED = Instant.parse("2026-12-03T07:59:50.5Z");

    private StatsFixtures() {}

    public static Summary summary() {
        FsStats fs = new FsStats(T, 600L, 1000L, 400L, 20L, 50L, 30L);
        NodeStats node = new NodeStats("node-a", List.of(), BOOT, new CpuStats(T, 250_000_000L, 12_500_000_000L),
                new MemoryStats(T, 1000L, 3000L, 2000L, 1500L, 10L, 1L),
                new NetworkStats(T, new InterfaceStats("eth0", 1L, 0L, 2L, 0L), List.of(new InterfaceStats("eth0", 1L, 0L, 2L, 0L))),
                fs, new RuntimeStats(fs), new RlimitStats(T, 32768L, 85L));
        ContainerStats app = new ContainerStats("app", STARTED, new CpuStats(T, null, 1_500_000_000L),
                new MemoryStats(T, null, 80L, 60L, 50L, 7L, 0L), new FsStats(T, 600L, 1000L, 4096L, 20L, 50L, 3L),
                new FsStats(T, 600L, 1000L, 300L, 20L, 50L, 2L));
        PodStats pod = new PodStats(new PodReference("web", "default", "uid-1"), STARTED.minusSeconds(2), List.of(app),
                new CpuStats(T, 100L, 1_600_000_000L), new MemoryStats(T, null, 90L, 70L, 55L, 8L, 0L),
                new NetworkStats(T, null, List.of()), List.of(new VolumeStats(new FsStats(T, 600L, 1000L, 700L, 20L, 50L, 2L), "cache", null)),
                new FsStats(T, 600L, 1000L, 5096L, 20L, 50L, 7L), new ProcessStats(3L));
        return new Summary(node, List.of(pod));
    }

    public static StatsSnapshot snapshot() {
        io.jkubelet.core.runtime.ContainerStats app = new io.jkubelet.core.runtime.ContainerStats("c1", "s1",
                new ContainerMetadata("app", 0), Map.of(), "k8s_app_web_default_uid-1_0", "/docker/c1", "busybox:1", STARTED,
                new CpuUsage(T, 1_500_000_000L, null), new MemoryUsage(T, 60, 80, 50, 7, 0, 134217728L), null, 2L,
                new ContainerResourceSpec(512, 100000, 50000, 134217728L));
        io.jkubelet.core.runtime.ContainerStats pause = new io.jkubelet.core.runtime.ContainerStats("s1", "s1",
                new ContainerMetadata("POD", 0), Map.of(), "k8s_POD_web_default_uid-1_0", "/docker/s1", "pause:3.9", STARTED,
                new CpuUsage(T, 100_000_000L, null), new MemoryUsage(T, 10, 10, 8, 1, 0, null), null, 1L,
                new ContainerResourceSpec(2, 100000, -1, 0));
        PodSandboxStats sandbox = new PodSandboxStats("s1", new PodSandboxMetadata("web", "uid-1", "default", 0), Map.of(),
                STARTED.minusSeconds(2), pause, null, List.of(app));
        return new StatsSnapshot(T, summary(), List.of(sandbox), null);
    }
}
