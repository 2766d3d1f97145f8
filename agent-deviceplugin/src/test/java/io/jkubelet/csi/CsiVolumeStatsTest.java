package io.jkubelet.csi;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
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
import io.jkubelet.core.testing.FakeClock;
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
import java.util.TreeMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.stream.Stream;

import static io.jkubelet.csi.CsiNode.claimingPod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;
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

    /** The node's stats, whose runtime has the pod's sandbox, its volumes measured in place (at once). */
    private StatsProvider statsProvider(Pod pod) {
        return statsProvider(Clock.fixed(NOW, ZoneOffset.UTC), Runnable::run, pod);
    }

    /** The node's stats, whose runtime has the pods' sandboxes, their volumes measured on {@code measurements}. */
    private StatsProvider statsProvider(Clock clock, Executor measurements, Pod... pods) {
        List<PodSandboxStats> sandboxes = Stream.of(pods).map(Pod::getMetadata).map(meta -> new PodSandboxStats(
                "s-" + meta.getUid(), new PodSandboxMetadata(meta.getName(), meta.getUid(), meta.getNamespace(), 0),
                Map.of(), NOW.minusSeconds(60), null, null, List.<io.jkubelet.core.runtime.ContainerStats>of())).toList();
        RuntimeService runtime = (RuntimeService) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {RuntimeService.class}, (p, m, args) -> {
                    if (m.getName().equals("listPodSandboxStats")) {
                        return sandboxes;
                    }
                    throw new UnsupportedOperationException(m.getName());
                });
        ImageService images = (ImageService) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {ImageService.class}, (p, m, args) -> {
                    throw new UnsupportedOperationException(m.getName());
                });
        return new StatsProvider(runtime, images, CsiNode.NODE, new StatsProvider.NodePaths(node.dirs.rootDir(),
                dir.resolve("logs"), new ProcNode(Path.of("/proc"))), clock,
                Duration.ofSeconds(10), Duration.ofMinutes(1), new PodVolumeStats(vm::get, vm.manager()), null,
                DaemonThreads.scheduler("stats"), measurements);
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

    /** When each pod's volume, as "{@code <pod uid>/<volume>}", was last measured, as a summary shows them. */
    private static Map<String, Instant> measuredAt(StatsProvider stats) {
        Map<String, Instant> measured = new TreeMap<>();
        for (PodStats pod : stats.summary(true).orElseThrow().pods()) {
            pod.volume().forEach(v -> measured.put(pod.podRef().uid() + "/" + v.name(), v.fs().time()));
        }
        return measured;
    }

    @Test
    void aDriverThatHangsInNodeGetVolumeStatsHoldsUpOnlyThatVolumeWhoseLastStatsAreServed() throws Exception {
        driver.volumeStats = true;
        node.csiClaim("more", CsiNode.DRIVER, "vol-2");
        node.csiClaim("other", CsiNode.DRIVER, "vol-3");
        Pod a = CsiNode.pod("a", claim("data", "data"), claim("more", "more"));
        Pod b = claimingPod("b", "other");
        vm.mountVolumes(a);
        vm.mountVolumes(b);
        FakeClock clock = new FakeClock(NOW);
        // A kubelet's threads: a virtual one per measurement. The driver's deadline is upstream's 2 minutes.
        try (StatsProvider stats = statsProvider(clock, Executors.newVirtualThreadPerTaskExecutor(), a, b)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> measuredAt(stats), is(Map.of("a/data", NOW, "a/more", NOW,
                    "b/data", NOW)));

            driver.hangIn.add("NodeGetVolumeStats vol-1");
            clock.advance(Duration.ofMinutes(1));
            Instant later = clock.instant();
            stats.summary(true);
            await().atMost(Duration.ofSeconds(30)).until(() -> driver.hung, hasItem("NodeGetVolumeStats vol-1"));

            // The round does not wait for it: the pod's other volume and the other pod's are measured again, the hung
            // volume shows what it showed, in the summary and the claims' metrics.
            await().atMost(Duration.ofSeconds(30)).until(() -> measuredAt(stats), is(Map.of("a/data", NOW,
                    "a/more", later, "b/data", later)));
            assertThat(volumeStatsMetrics(stats)).containsKeys("kubelet_volume_stats_used_bytes{default/data}",
                    "kubelet_volume_stats_used_bytes{default/more}", "kubelet_volume_stats_used_bytes{default/other}");
            assertThat(driver.hung).as("asked once: a volume is not measured again while its measurement runs")
                    .containsExactly("NodeGetVolumeStats vol-1");
        }
    }

    private static Volume claim(String name, String claim) {
        return new VolumeBuilder().withName(name).withNewPersistentVolumeClaim().withClaimName(claim)
                .endPersistentVolumeClaim().build();
    }
}
