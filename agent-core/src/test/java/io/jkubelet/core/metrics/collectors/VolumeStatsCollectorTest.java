package io.jkubelet.core.metrics.collectors;

import io.jkubelet.core.stats.StatsSnapshot;
import io.jkubelet.core.stats.summary.FsStats;
import io.jkubelet.core.stats.summary.PodReference;
import io.jkubelet.core.stats.summary.PodStats;
import io.jkubelet.core.stats.summary.PvcReference;
import io.jkubelet.core.stats.summary.Summary;
import io.jkubelet.core.stats.summary.VolumeStats;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code kubelet_volume_stats_*}: one series per claim the pods mount, labelled by its namespace and name. */
class VolumeStatsCollectorTest {
    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

    private static PodStats pod(String name, VolumeStats... volumes) {
        return new PodStats(new PodReference(name, "shop", name + "-uid"), T, List.of(), null, null, null, List.of(volumes),
                null, null);
    }

    private static VolumeStats volume(String name, PvcReference claim, long used) {
        return new VolumeStats(new FsStats(T, 600L, 1000L, used, 90L, 100L, 10L), name, claim);
    }

    private static Map<String, Map<String, Double>> collect(List<PodStats> pods) {
        return new VolumeStatsCollector(() -> Optional.of(new StatsSnapshot(T, new Summary(null, pods), List.of(), null)))
                .collect().stream().collect(Collectors.toMap(
                s -> s.getMetadata().getName(), (MetricSnapshot s) -> ((GaugeSnapshot) s).getDataPoints().stream()
                        .collect(Collectors.toMap(p -> p.getLabels().get("namespace") + "/"
                                + p.getLabels().get("persistentvolumeclaim"), GaugeSnapshot.GaugeDataPointSnapshot::getValue))));
    }

    @Test
    void eachClaimIsOneSeriesLabelledByNamespaceAndClaimAndVolumesWithoutAClaimAreLeftOut() {
        var metrics = collect(List.of(
                pod("db-0", volume("data", new PvcReference("data-db-0", "shop"), 300), volume("cache", null, 5)),
                pod("reader", volume("shared", new PvcReference("shared", "shop"), 42)),
                pod("writer", volume("shared", new PvcReference("shared", "shop"), 43))));
        assertThat(metrics.get("kubelet_volume_stats_used_bytes")).containsExactlyInAnyOrderEntriesOf(
                Map.of("shop/data-db-0", 300.0, "shop/shared", 42.0));
        assertThat(metrics.get("kubelet_volume_stats_capacity_bytes")).containsEntry("shop/data-db-0", 1000.0);
        assertThat(metrics.get("kubelet_volume_stats_available_bytes")).containsEntry("shop/data-db-0", 600.0);
        assertThat(metrics.get("kubelet_volume_stats_inodes")).containsEntry("shop/data-db-0", 100.0);
        assertThat(metrics.get("kubelet_volume_stats_inodes_free")).containsEntry("shop/data-db-0", 90.0);
        assertThat(metrics.get("kubelet_volume_stats_inodes_used")).containsEntry("shop/data-db-0", 10.0);
    }

    @Test
    void noClaimNoSeries() {
        assertThat(collect(List.of(pod("web", volume("cache", null, 5))))).allSatisfy((name, series) -> assertThat(series).isEmpty());
    }
}
