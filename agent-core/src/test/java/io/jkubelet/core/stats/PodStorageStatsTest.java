package io.jkubelet.core.stats;

import io.jkubelet.cadvisor.FsUsage;
import io.jkubelet.core.stats.summary.ContainerStats;
import io.jkubelet.core.stats.summary.FsStats;
import io.jkubelet.core.stats.summary.VolumeStats;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A pod's ephemeral storage: its containers' writable layers and logs and its volumes, on the node's file system. */
class PodStorageStatsTest {
    private static final Instant NOW = Instant.parse("2026-01-02T03:05:00Z");
    private static final FsUsage ROOT_FS = new FsUsage(10_000, 4_000, 6_000, 500, 200);

    private static FsStats used(long bytes, long inodes) {
        return new FsStats(NOW.minusSeconds(30), null, null, bytes, null, null, inodes);
    }

    @Test
    void ephemeralStorageAddsUpLayersLogsAndVolumesOnTheRootFileSystem() {
        List<ContainerStats> containers = List.of(
                new ContainerStats("app", null, null, null, used(4096, 3), used(300, 2)),
                new ContainerStats("side", null, null, null, null, used(20, 1)));
        List<VolumeStats> volumes = List.of(new VolumeStats(used(700, 4), "cache", null));

        assertThat(PodStorageStats.ephemeralStorage(NOW, ROOT_FS, containers, volumes))
                .isEqualTo(new FsStats(NOW, 4_000L, 10_000L, 4096L + 300 + 20 + 700, 200L, 500L, 3L + 2 + 1 + 4));
    }

    @Test
    void aPodWithNothingOnDiskTakesNothing() {
        assertThat(PodStorageStats.ephemeralStorage(NOW, FsUsage.UNKNOWN, List.of(), List.of()))
                .isEqualTo(new FsStats(NOW, null, null, 0L, null, null, 0L));
    }
}
