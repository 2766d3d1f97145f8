package io.jkubelet.core.stats;

import io.jkubelet.cadvisor.DirUsage;
import io.jkubelet.cadvisor.FsUsage;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumeMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Upstream's {@code fsResourceAnalyzer}: each pod's volume usage, measured at most once every
 * {@code volumeStatsAggPeriod} and kept in between, since walking a large volume is the costly part of a stats round.
 * A volume whose files are its own is walked ({@code MetricsDu}); one that is a file system of its own (a local or NFS
 * PersistentVolume) reports that file system's figures ({@code MetricsStatFS}); a hostPath is not measured
 * ({@code MetricsNil}); a CSI volume is measured by its driver ({@code metricsCsi}: {@code NodeGetVolumeStats}, only when
 * the driver has {@code GET_VOLUME_STATS}). A volume that cannot be measured is left out of its pod's stats, as
 * upstream's {@code volumeStatCalculator} leaves it (quietly when its metrics are not supported). A period of zero or less disables volume stats, as upstream's ({@code Volume stats collection
 * disabled}): pods then report no volumes, and their ephemeral storage counts none. Used by the stats collector thread
 * only.
 */
final class PodVolumeUsage {
    private static final Logger log = LoggerFactory.getLogger(PodVolumeUsage.class);

    /**
     * One volume's usage, as last measured.
     *
     * @param dirUsage what its files take, for a walked volume
     * @param metrics its own file system's figures (a {@code MetricsStatFS} one) or its provider's; null for a walked one
     */
    record Volume(PodVolume volume, Instant measured, DirUsage dirUsage, VolumeMetrics.Metrics metrics) {
    }

    private record Measured(Instant at, List<Volume> volumes) {
    }

    private final Duration calcPeriod;
    private final PodVolumeLister lister;
    private final Map<String, Measured> byPod = new HashMap<>();

    PodVolumeUsage(Duration calcPeriod, PodVolumeLister lister) {
        this.calcPeriod = calcPeriod;
        this.lister = lister;
        if (disabled()) {
            log.info("Volume stats collection disabled (volumeStatsAggPeriod {})", calcPeriod);
        }
    }

    boolean disabled() {
        return calcPeriod.isNegative() || calcPeriod.isZero();
    }

    /**
     * The pod's volumes, measured again once the last reading is a period old: its local ephemeral volumes first, then
     * the others, each by name.
     */
    List<Volume> volumes(String podUid, Instant now) {
        if (disabled()) {
            return List.of();
        }
        Measured last = byPod.get(podUid);
        if (last != null && now.isBefore(last.at().plus(calcPeriod))) {
            return last.volumes();
        }
        List<Volume> volumes = measure(lister.volumes(podUid), now);
        byPod.put(podUid, new Measured(now, volumes));
        return volumes;
    }

    /** {@code MetricsStatFS}: the file system's figures, what it holds as the volume's usage. */
    private static VolumeMetrics.Metrics statFs(FsUsage fs) {
        return new VolumeMetrics.Metrics(fs.capacityBytes(), fs.availableBytes(), fs.usedBytes(), fs.inodes(),
                fs.inodesFree(), fs.inodesUsed());
    }

    /** Forgets the pods that no longer run. */
    void retainPods(Set<String> podUids) {
        byPod.keySet().retainAll(podUids);
    }

    private static List<Volume> measure(List<PodVolume> mounted, Instant now) {
        List<Volume> volumes = new ArrayList<>();
        for (PodVolume v : mounted) {
            switch (v.metrics()) {
                case VolumeMetrics.Local.DU -> volumes.add(new Volume(v, now, DirUsage.of(v.path()), null));
                case VolumeMetrics.Local.STATFS -> {
                    try {
                        volumes.add(new Volume(v, now, null, statFs(FsUsage.read(v.path()))));
                    } catch (IOException e) {
                        log.debug("cannot read the file system of volume {} at {}: {}", v.name(), v.path(), e.getMessage());
                    }
                }
                case VolumeMetrics.Local.NONE -> { } // upstream's MetricsNil: "metrics are not supported"
                case VolumeMetrics.Provider provider -> {
                    try {
                        volumes.add(new Volume(v, now, null, provider.getMetrics()));
                    } catch (VolumeMetrics.NotSupportedException e) {
                        // expected of a volume that cannot be measured
                    } catch (VolumeException e) {
                        log.debug("Failed to calculate volume metrics of volume {}: {}", v.name(), e.getMessage());
                    }
                }
            }
        }
        volumes.sort(Comparator.comparing((Volume v) -> !v.volume().localEphemeral()).thenComparing(v -> v.volume().name()));
        return List.copyOf(volumes);
    }
}
