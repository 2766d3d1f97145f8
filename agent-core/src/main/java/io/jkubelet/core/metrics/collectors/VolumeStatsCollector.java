package io.jkubelet.core.metrics.collectors;

import io.jkubelet.core.stats.StatsSnapshot;
import io.jkubelet.core.stats.summary.FsStats;
import io.jkubelet.core.stats.summary.PodStats;
import io.jkubelet.core.stats.summary.PvcReference;
import io.jkubelet.core.stats.summary.VolumeStats;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Upstream {@code collectors.NewVolumeStatsCollector}: at each scrape of {@code /metrics}, the usage of each claim the
 * node's pods mount, from the latest stats round, one series per claim ({@code namespace}, {@code persistentvolumeclaim}),
 * the first pod's reading when several mount it. Volumes without a claim are not reported. Thread-safe.
 */
public final class VolumeStatsCollector implements MultiCollector {
    private record Gauge(String name, String help, Function<FsStats, Long> value) {}

    private static final List<Gauge> GAUGES = List.of(
            new Gauge("kubelet_volume_stats_capacity_bytes", "Capacity in bytes of the volume", FsStats::capacityBytes),
            new Gauge("kubelet_volume_stats_available_bytes", "Number of available bytes in the volume", FsStats::availableBytes),
            new Gauge("kubelet_volume_stats_used_bytes", "Number of used bytes in the volume", FsStats::usedBytes),
            new Gauge("kubelet_volume_stats_inodes", "Maximum number of inodes in the volume", FsStats::inodes),
            new Gauge("kubelet_volume_stats_inodes_free", "Number of free inodes in the volume", FsStats::inodesFree),
            new Gauge("kubelet_volume_stats_inodes_used", "Number of used inodes in the volume", FsStats::inodesUsed));

    private final Supplier<Optional<StatsSnapshot>> latest;

    /** @param latest the latest stats round (none before the first) */
    public VolumeStatsCollector(Supplier<Optional<StatsSnapshot>> latest) {
        this.latest = latest;
    }

    @Override
    public MetricSnapshots collect() {
        Map<Gauge, GaugeSnapshot.Builder> builders = new LinkedHashMap<>();
        GAUGES.forEach(g -> builders.put(g, GaugeSnapshot.builder().name(g.name()).help("[ALPHA] " + g.help())));
        Set<String> seen = new HashSet<>();
        List<PodStats> pods = latest.get().filter(s -> s.summary() != null).map(s -> s.summary().pods()).orElse(List.of());
        for (PodStats pod : pods) {
            for (VolumeStats v : pod.volume()) {
                PvcReference pvc = v.pvcRef();
                if (pvc == null || v.fs() == null || !seen.add(pvc.namespace() + "/" + pvc.name())) {
                    continue;
                }
                Labels labels = Labels.of("namespace", pvc.namespace(), "persistentvolumeclaim", pvc.name());
                builders.forEach((g, b) -> {
                    Long value = g.value().apply(v.fs());
                    if (value != null) {
                        b.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(value).labels(labels).build());
                    }
                });
            }
        }
        List<GaugeSnapshot> snapshots = new ArrayList<>();
        builders.values().forEach(b -> snapshots.add(b.build()));
        return new MetricSnapshots(snapshots.toArray(GaugeSnapshot[]::new));
    }
}
