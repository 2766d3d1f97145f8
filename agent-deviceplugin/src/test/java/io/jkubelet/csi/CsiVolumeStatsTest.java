package io.jkubelet.csi;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.jkubelet.cadvisor.ProcNode;
import io.jkubelet.core.kubelet.PodVolumeStats;
import io.jkubelet.core.metrics.collectors.VolumeStatsCollector;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.PodSandboxMetadata;
import io.jkubelet.core.runtime.PodSandboxStats;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.stats.StatsProvider;
import io.jkubelet.core.stats.summary.PodStats;
import io.jkubelet.core.stats.summary.PvcReference;
import io.jkubelet.core.stats.summary.VolumeStats;
import io.jkubelet.core.util.DaemonThreads;
import io.jkubelet.core.volumemanager.ManualVolumeManager;
import io.jkubelet.csi.v1.CsiApi;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.jkubelet.csi.CsiNode.claimingPod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A CSI volume's usage in {@code /stats/summary} and {@code kubelet_volume_stats_*} (upstream's {@code metricsCsi}):
 * the driver's {@code NodeGetVolumeStats} on the volume's publish path when it announces {@code GET_VOLUME_STATS}; the
 * volume left out of its pod's stats when it does not. The volume is mounted by the volume manager through
 * {@link TestCsiDriver} ({@link CsiNode}), and the stats are collected by the kubelet's stats provider, the runtime
 * reporting the pod's sandbox.
 */
@EnableKubernetesMockClient(crud = true)
class CsiVolumeStatsTest {
    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");
    KubernetesMockServer server;
    KubernetesClient client;

    @TempDir Path dir;
    CsiNode node;
    TestCsiDriver driver;
    ManualVolumeManager vm;
    Path published;

    @BeforeEach
    void mountAClaimsCsiVolume() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "the driver bind-mounts");
        node = CsiNode.withDriver(client, dir);
        driver = node.driver;
        node.csiDriver(false, null);
        node.csiClaim("data", CsiNode.DRIVER, "vol-1");
        vm = node.volumeManager();
        published = vm.mountVolumes(claimingPod("a", "data")).get("data");
        Files.writeString(published.resolve("written"), "x".repeat(8192));
    }

    @AfterEach
    void unmountAll() throws Exception {
        if (node != null) {
            node.close();
        }
    }

    /** One stats round of the node, whose runtime has the pod's sandbox. */
    private StatsProvider statsProvider(Pod pod) {
        var meta = pod.getMetadata();
        PodSandboxStats sandbox = new PodSandboxStats("s1", new PodSandboxMetadata(meta.getName(), meta.getUid(),
                meta.getNamespace(), 0), Map.of(), NOW.minusSeconds(60), null, null, List.of());
        RuntimeService runtime = (RuntimeService) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {RuntimeService.class}, (p, m, args) -> {
                    if (m.getName().equals("listPodSandboxStats")) {
                        return List.of(sandbox);
                    }
                    throw new UnsupportedOperationException(m.getName());
                });
        ImageService images = (ImageService) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {ImageService.class}, (p, m, args) -> {
                    throw new UnsupportedOperationException(m.getName());
                });
        return new StatsProvider(runtime, images, CsiNode.NODE, new StatsProvider.NodePaths(node.dirs.rootDir(),
                dir.resolve("logs"), new ProcNode(Path.of("/proc"))), Clock.fixed(NOW, ZoneOffset.UTC),
                Duration.ofSeconds(10), Duration.ofMinutes(1), new PodVolumeStats(vm::get, vm.manager()), null,
                DaemonThreads.scheduler("stats"));
    }

    private static Map<String, Double> volumeStatsMetrics(StatsProvider stats) {
        Map<String, Double> values = new HashMap<>();
        new VolumeStatsCollector(stats::latest).collect().forEach(s -> ((GaugeSnapshot) s).getDataPoints().forEach(p ->
                values.put(s.getMetadata().getName() + "{" + p.getLabels().get("namespace") + "/"
                        + p.getLabels().get("persistentvolumeclaim") + "}", p.getValue())));
        return values;
    }

    @Test
    void aDriverWithGetVolumeStatsMeasuresTheVolumeForTheSummaryAndTheClaimsMetrics() {
        driver.volumeStats = true;

        try (StatsProvider stats = statsProvider(claimingPod("a", "data"))) {
            PodStats pod = stats.summary(true).orElseThrow().pods().getFirst();

            assertThat(driver.volumeStatsRequests).containsExactly("vol-1 " + published);
            CsiApi.NodeGetVolumeStatsResponse answer = driver.volumeStatsAnswers.getFirst();
            CsiApi.VolumeUsage bytes = answer.getUsage(0);
            CsiApi.VolumeUsage inodes = answer.getUsage(1);
            assertThat(pod.volume()).singleElement().satisfies(v -> {
                assertThat(v.name()).isEqualTo("data");
                assertThat(v.pvcRef()).isEqualTo(new PvcReference("data", "default"));
                assertThat(v.fs().time()).isEqualTo(NOW);
                assertThat(v.fs().capacityBytes()).isEqualTo(bytes.getTotal());
                assertThat(v.fs().availableBytes()).isEqualTo(bytes.getAvailable());
                assertThat(v.fs().usedBytes()).isEqualTo(bytes.getUsed());
                assertThat(v.fs().inodes()).isEqualTo(inodes.getTotal());
                assertThat(v.fs().inodesFree()).isEqualTo(inodes.getAvailable());
                assertThat(v.fs().inodesUsed()).isEqualTo(inodes.getUsed());
            });
            assertThat(pod.ephemeralStorage().usedBytes()).as("a claim is not the pod's ephemeral storage").isZero();
            assertThat(volumeStatsMetrics(stats)).containsEntry("kubelet_volume_stats_capacity_bytes{default/data}",
                    (double) bytes.getTotal()).containsEntry("kubelet_volume_stats_used_bytes{default/data}",
                    (double) bytes.getUsed()).containsEntry("kubelet_volume_stats_inodes_used{default/data}",
                    (double) inodes.getUsed());
        }
    }

    @Test
    void aDriverWithoutGetVolumeStatsLeavesTheVolumeOutAsUpstreamsMetricsAreNotSupported() {
        try (StatsProvider stats = statsProvider(claimingPod("a", "data"))) {
            PodStats pod = stats.summary(true).orElseThrow().pods().getFirst();

            assertThat(pod.volume()).extracting(VolumeStats::name).isEmpty();
            assertThat(driver.volumeStatsRequests).as("the driver is not asked").isEmpty();
            assertThat(volumeStatsMetrics(stats)).isEmpty();
        }
    }
}
