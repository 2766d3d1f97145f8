package io.jkubelet.core.stats;

import io.jkubelet.cadvisor.FsUsage;
import io.jkubelet.core.stats.summary.ContainerStats;
import io.jkubelet.core.stats.summary.FsStats;
import io.jkubelet.core.stats.summary.VolumeStats;
import io.jkubelet.core.stats.summary.PvcReference;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumeMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

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
    void aClaimsVolumeShowsItsClaimAndItsFileSystemAndIsNotThePodsEphemeralStorage(@TempDir Path dir) throws Exception {
        Path cache = Files.createDirectories(dir.resolve("cache"));
        Files.writeString(cache.resolve("f"), "x".repeat(5000));
        Path claimed = Files.createDirectories(dir.resolve("pv"));
        PodStorageStats storage = new PodStorageStats(Duration.ofMinutes(1), uid -> List.of(
                new PodVolume("data", claimed, VolumeMetrics.STATFS, new PvcReference("data-db-0", "shop"), false),
                new PodVolume("host", dir, VolumeMetrics.NONE, null, false),
                new PodVolume("cache", cache, VolumeMetrics.DU, null, true)), Runnable::run);

        PodStorageStats.Volumes volumes = storage.volumeStats("u1", NOW, ROOT_FS);

        // The local ephemeral volume first, the claim's next; a hostPath is not measured.
        assertThat(volumes.all()).extracting(VolumeStats::name).containsExactly("cache", "data");
        VolumeStats data = volumes.all().get(1);
        assertThat(data.pvcRef()).isEqualTo(new PvcReference("data-db-0", "shop"));
        FsUsage fs = FsUsage.read(claimed);
        assertThat(data.fs().capacityBytes()).isEqualTo(fs.capacityBytes());
        assertThat(data.fs().usedBytes()).isPositive();
        assertThat(volumes.all().get(0).fs().capacityBytes()).isEqualTo(ROOT_FS.capacityBytes());
        assertThat(volumes.all().get(0).fs().usedBytes()).isGreaterThanOrEqualTo(5000);
        assertThat(volumes.localEphemeral()).extracting(VolumeStats::name).containsExactly("cache");
    }

    @Test
    void aVolumeItsProviderMeasuresShowsTheProvidersFiguresAndOneItCannotMeasureIsLeftOut(@TempDir Path dir) {
        VolumeMetrics.Provider driver = () -> new VolumeMetrics.Metrics(1_000_000, 400_000, 600_000, 5000, 4000, 1000);
        VolumeMetrics.Provider notSupported = () -> {
            throw new VolumeMetrics.NotSupportedException("hostpath.csi.k8s.io");
        };
        VolumeMetrics.Provider failing = () -> {
            throw new VolumeException("rpc error: code = Internal desc = disk on fire");
        };
        PodStorageStats storage = new PodStorageStats(Duration.ofMinutes(1), uid -> List.of(
                new PodVolume("data", dir, driver, new PvcReference("data", "shop"), false),
                new PodVolume("plain", dir, notSupported, null, false),
                new PodVolume("broken", dir, failing, null, false)), Runnable::run);

        PodStorageStats.Volumes volumes = storage.volumeStats("u1", NOW, ROOT_FS);

        assertThat(volumes.all()).containsExactly(new VolumeStats(new FsStats(NOW, 400_000L, 1_000_000L, 600_000L, 4000L,
                5000L, 1000L), "data", new PvcReference("data", "shop")));
        assertThat(volumes.localEphemeral()).isEmpty();
    }

    @Test
    void aPodWithNothingOnDiskTakesNothing() {
        assertThat(PodStorageStats.ephemeralStorage(NOW, FsUsage.UNKNOWN, List.of(), List.of()))
                .isEqualTo(new FsStats(NOW, null, null, 0L, null, null, 0L));
    }
}
