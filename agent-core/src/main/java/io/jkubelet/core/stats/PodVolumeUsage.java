package io.jkubelet.core.stats;

import io.jkubelet.cadvisor.DirUsage;
import io.jkubelet.core.volume.VolumeMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.stream.Collectors;

/**
 * Upstream's {@code fsResourceAnalyzer}: each pod's volume usage, from the cache of its volumes' calculators
 * ({@link VolumeStatCalculator}), never measured on the caller's thread. Each volume is measured in the background at
 * most once every {@code volumeStatsAggPeriod} (walking a large volume, or asking a CSI driver, is the costly part of a
 * stats round) and its last reading kept in between, so that a volume whose measurement hangs, a CSI driver that does
 * not answer, costs its own stats only: the pod's other volumes and the other pods' are read as usual, and the hung
 * volume shows its last reading (none before its first) until its measurement ends. A volume whose files are its own is
 * walked ({@code MetricsDu}); one that is a file system of its own (a local or NFS PersistentVolume) reports that file
 * system's figures ({@code MetricsStatFS}); a hostPath is not measured ({@code MetricsNil}); a CSI volume is measured by
 * its driver ({@code metricsCsi}: {@code NodeGetVolumeStats}, only when the driver has {@code GET_VOLUME_STATS}, within
 * the driver's deadline). A volume that cannot be measured is left out of its pod's stats, as upstream's
 * {@code volumeStatCalculator} leaves it. A period of zero or less disables volume stats, as upstream's ({@code Volume
 * stats collection disabled}): pods then report no volumes, and their ephemeral storage counts none. The cache is used
 * by the stats collector thread only; the measurements run on their executor.
 */
final class PodVolumeUsage {
    private static final Logger log = LoggerFactory.getLogger(PodVolumeUsage.class);

    /**
     * One volume's usage, as last measured.
     *
     * @param measured when the measurement started (the round that started it)
     * @param dirUsage what its files take, for a walked volume
     * @param metrics its own file system's figures (a {@code MetricsStatFS} one) or its provider's; null for a walked one
     */
    record Volume(PodVolume volume, Instant measured, DirUsage dirUsage, VolumeMetrics.Metrics metrics) {
    }

    private final Duration calcPeriod;
    private final PodVolumeLister lister;
    private final Executor measurements;
    /** Each pod's volumes' calculators, by pod UID, then by the pod's name for the volume. */
    private final Map<String, Map<String, VolumeStatCalculator>> byPod = new HashMap<>();

    /**
     * @param measurements where each volume's measurements run: a thread of their own each, so that one that hangs
     *     holds no other ({@code Runnable::run} measures in place, for tests that read a measurement at once)
     */
    PodVolumeUsage(Duration calcPeriod, PodVolumeLister lister, Executor measurements) {
        this.calcPeriod = calcPeriod;
        this.lister = lister;
        this.measurements = measurements;
        if (disabled()) {
            log.info("Volume stats collection disabled (volumeStatsAggPeriod {})", calcPeriod);
        }
    }

    boolean disabled() {
        return calcPeriod.isNegative() || calcPeriod.isZero();
    }

    /**
     * The pod's mounted volumes' last readings, their local ephemeral volumes first, then the others, each by name; the
     * measurements that are due are started first.
     */
    List<Volume> volumes(String podUid, Instant now) {
        if (disabled()) {
            return List.of();
        }
        List<PodVolume> mounted = lister.volumes(podUid);
        Map<String, VolumeStatCalculator> calculators = byPod.computeIfAbsent(podUid, u -> new LinkedHashMap<>());
        calculators.keySet().retainAll(mounted.stream().map(PodVolume::name).collect(Collectors.toSet()));
        List<Volume> volumes = new ArrayList<>();
        for (PodVolume v : mounted) {
            VolumeStatCalculator calculator = calculators.computeIfAbsent(v.name(), n -> new VolumeStatCalculator());
            calculator.startIfDue(v, now, calcPeriod, measurements);
            calculator.latest().ifPresent(volumes::add);
        }
        volumes.sort(Comparator.comparing((Volume v) -> !v.volume().localEphemeral()).thenComparing(v -> v.volume().name()));
        return List.copyOf(volumes);
    }

    /** Forgets the pods that no longer run (a measurement under way ends unread). */
    void retainPods(Set<String> podUids) {
        byPod.keySet().retainAll(podUids);
    }
}
