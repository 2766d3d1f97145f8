package io.jkubelet.core.stats;

import io.jkubelet.cadvisor.FsUsage;
import io.jkubelet.core.stats.summary.ContainerStats;
import io.jkubelet.core.stats.summary.FsStats;
import io.jkubelet.core.stats.summary.VolumeStats;
import io.jkubelet.core.volume.PodDirs;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * A pod's storage (upstream's {@code makePodStorageStats}): its emptyDir volumes, measured by {@link PodVolumeUsage}
 * at most once every {@code volumeStatsAggPeriod}, and its ephemeral storage, what it takes of the node's file systems
 * ({@code calcEphemeralStorage}). Used by the collector's rounds only.
 */
final class PodStorageStats {
    /** The emptyDir plugin's directory under a pod's volumes ({@code kubernetes.io/empty-dir}, escaped). */
    static final String EMPTY_DIR_PLUGIN = "kubernetes.io~empty-dir";

    private final PodDirs dirs;
    private final PodVolumeUsage volumeUsage;

    /**
     * @param volumeStatsAggPeriod how often each pod's volumes are measured again; zero or less disables volume stats
     */
    PodStorageStats(Path rootDir, Duration volumeStatsAggPeriod) {
        this.dirs = new PodDirs(rootDir);
        this.volumeUsage = new PodVolumeUsage(volumeStatsAggPeriod);
    }

    /** The pod's emptyDir volumes, each on the node's root file system {@code rootFs}, by name. */
    List<VolumeStats> volumeStats(String podUid, Instant now, FsUsage rootFs) {
        Path emptyDirs = dirs.volumesDir(podUid).resolve(EMPTY_DIR_PLUGIN);
        return volumeUsage.volumes(podUid, emptyDirs, now).stream()
                .map(v -> new VolumeStats(StatsHelper.fsStats(v.measured(), rootFs, v.usage().bytes(), v.usage().inodes()),
                        v.name(), null))
                .toList();
    }

    /** Forgets the volumes of the pods that no longer run. */
    void retainPods(Set<String> podUids) {
        volumeUsage.retainPods(podUids);
    }

    /**
     * The pod's ephemeral storage on the node's root file system: its containers' writable layers ({@code rootfs}) and
     * logs, and its volumes.
     */
    static FsStats ephemeralStorage(Instant now, FsUsage rootFs, List<ContainerStats> containers, List<VolumeStats> volumes) {
        Usage total = Usage.NONE;
        for (ContainerStats c : containers) {
            total = total.plus(c.rootfs()).plus(c.logs());
        }
        for (VolumeStats v : volumes) {
            total = total.plus(v.fs());
        }
        return StatsHelper.fsStats(now, rootFs, total.bytes(), total.inodes());
    }

    /** Bytes and inodes taken, summed over what has them. */
    record Usage(long bytes, long inodes) {
        static final Usage NONE = new Usage(0, 0);

        Usage plus(FsStats fs) {
            if (fs == null) {
                return this;
            }
            return new Usage(bytes + orZero(fs.usedBytes()), inodes + orZero(fs.inodesUsed()));
        }

        private static long orZero(Long v) {
            return v == null ? 0 : v;
        }
    }
}
