package io.jkubelet.core.stats;

import io.jkubelet.cadvisor.FsUsage;
import io.jkubelet.core.stats.summary.ContainerStats;
import io.jkubelet.core.stats.summary.FsStats;
import io.jkubelet.core.stats.summary.VolumeStats;
import io.jkubelet.core.volume.VolumeMetrics;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;

/**
 * A pod's storage (upstream's {@code makePodStorageStats}): its mounted volumes, measured in the background by
 * {@link PodVolumeUsage} at most once every {@code volumeStatsAggPeriod} (their last readings), each with the claim the pod names for it ({@code pvcRef}), and its
 * ephemeral storage, what it takes of the node's file systems ({@code calcEphemeralStorage}: its local ephemeral
 * volumes only). Used by the collector's rounds only.
 */
final class PodStorageStats {
    private final PodVolumeUsage volumeUsage;

    /**
     * @param volumeStatsAggPeriod how often each pod's volumes are measured again; zero or less disables volume stats
     * @param volumes each pod's mounted volumes
     * @param measurements where the volumes' measurements run (see {@link PodVolumeUsage})
     */
    PodStorageStats(Duration volumeStatsAggPeriod, PodVolumeLister volumes, Executor measurements) {
        this.volumeUsage = new PodVolumeUsage(volumeStatsAggPeriod, volumes, measurements);
    }

    /**
     * A pod's volume stats: all of them (local ephemeral ones first, then the others, each by name), and the local
     * ephemeral ones its ephemeral storage counts.
     */
    record Volumes(List<VolumeStats> all, List<VolumeStats> localEphemeral) {}

    /**
     * The pod's volumes. A walked volume is on the node's root file system {@code rootFs} (as its capacity shows); a
     * volume that is a file system of its own shows that one's, a volume its driver measures the driver's figures.
     */
    Volumes volumeStats(String podUid, Instant now, FsUsage rootFs) {
        List<VolumeStats> all = new ArrayList<>();
        List<VolumeStats> ephemeral = new ArrayList<>();
        for (PodVolumeUsage.Volume v : volumeUsage.volumes(podUid, now)) {
            VolumeStats stats = new VolumeStats(v.metrics() == null
                    ? StatsHelper.fsStats(v.measured(), rootFs, v.dirUsage().bytes(), v.dirUsage().inodes())
                    : fsStats(v.measured(), v.metrics()), v.volume().name(), v.volume().pvcRef());
            all.add(stats);
            if (v.volume().localEphemeral()) {
                ephemeral.add(stats);
            }
        }
        return new Volumes(List.copyOf(all), List.copyOf(ephemeral));
    }

    /** Upstream {@code parsePodVolumeStats}: a measured volume's figures; an unknown one is left out. */
    private static FsStats fsStats(Instant time, VolumeMetrics.Metrics m) {
        return new FsStats(time, StatsHelper.orNull(m.availableBytes()), StatsHelper.orNull(m.capacityBytes()),
                StatsHelper.orNull(m.usedBytes()), StatsHelper.orNull(m.inodesFree()), StatsHelper.orNull(m.inodes()),
                StatsHelper.orNull(m.inodesUsed()));
    }

    /** Forgets the volumes of the pods that no longer run. */
    void retainPods(Set<String> podUids) {
        volumeUsage.retainPods(podUids);
    }

    /**
     * The pod's ephemeral storage on the node's root file system: its containers' writable layers ({@code rootfs}) and
     * logs, and its local ephemeral volumes.
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
