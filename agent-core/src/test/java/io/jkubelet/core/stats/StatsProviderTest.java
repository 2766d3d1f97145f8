package io.jkubelet.core.stats;

import io.jkubelet.cadvisor.ProcNode;
import io.jkubelet.core.runtime.ContainerMetadata;
import io.jkubelet.core.runtime.ContainerResourceSpec;
import io.jkubelet.core.runtime.ContainerStats;
import io.jkubelet.core.runtime.CpuUsage;
import io.jkubelet.core.runtime.FilesystemUsage;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.MemoryUsage;
import io.jkubelet.core.runtime.NetworkInterfaceUsage;
import io.jkubelet.core.runtime.NetworkUsage;
import io.jkubelet.core.runtime.PodSandboxMetadata;
import io.jkubelet.core.runtime.PodSandboxStats;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.runtime.WritableLayerUsage;
import io.jkubelet.core.stats.summary.PodStats;
import io.jkubelet.core.stats.summary.Summary;
import io.jkubelet.core.testing.FakeClock;
import io.jkubelet.core.util.DaemonThreads;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The summary the provider assembles from the runtime's stats, the node's files and two rounds for rates. */
class StatsProviderTest {
    private static final String UID = "uid-1";
    private static final Instant CREATED = Instant.parse("2026-01-02T03:04:05.678Z");

    @TempDir Path dir;
    private final FakeClock clock = new FakeClock(Instant.parse("2026-01-02T03:05:00Z"));
    private final AtomicReference<Object> runtimeAnswer = new AtomicReference<>();
    private final List<Map<String, String>> selectors = new ArrayList<>();
    private StatsProvider provider;
    private RuntimeService runtime;
    private ImageService images;
    private Path rootDir;
    private Path podLogs;

    @BeforeEach
    void setUp() throws IOException {
        rootDir = Files.createDirectories(dir.resolve("root"));
        podLogs = Files.createDirectories(dir.resolve("pods"));
        Path proc = Files.createDirectories(dir.resolve("proc"));
        Files.writeString(proc.resolve("stat"), "cpu  100 0 0 1000 0 0 0 0 0 0\nbtime 1700000000\n");
        Files.writeString(proc.resolve("meminfo"), "MemTotal: 1000 kB\nMemFree: 400 kB\nInactive(file): 100 kB\n");
        runtime = (RuntimeService) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {RuntimeService.class}, (p, m, args) -> {
                    if (m.getName().equals("listPodSandboxStats")) {
                        @SuppressWarnings("unchecked")
                        Map<String, String> selector = (Map<String, String>) args[0];
                        selectors.add(selector);
                        Object answer = runtimeAnswer.get();
                        if (answer instanceof RuntimeException e) {
                            throw e;
                        }
                        return answer;
                    }
                    throw new UnsupportedOperationException(m.getName());
                });
        images = (ImageService) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {ImageService.class}, (p, m, args) -> {
                    if (m.getName().equals("imageFsInfo")) {
                        return new FilesystemUsage("/var/lib/docker", 1000, 600, 400, 50, 20, 30);
                    }
                    throw new UnsupportedOperationException(m.getName());
                });
        provider = new StatsProvider(runtime, images, "node-a", new StatsProvider.NodePaths(rootDir, podLogs, new ProcNode(proc)),
                clock, Duration.ofSeconds(10), null, DaemonThreads.scheduler("stats-provider"));
    }

    private StatsProvider withVolumePeriod(Duration volumeStatsAggPeriod) {
        return new StatsProvider(runtime, images, "node-a",
                new StatsProvider.NodePaths(rootDir, podLogs, new ProcNode(dir.resolve("proc"))),
                clock, Duration.ofSeconds(10), volumeStatsAggPeriod, null, DaemonThreads.scheduler("stats-provider"));
    }

    @Test
    void volumesAreMeasuredAgainOnlyOnceVolumeStatsAggPeriodHasPassed() throws IOException {
        Path emptyDir = Files.createDirectories(rootDir.resolve("pods/" + UID + "/volumes/kubernetes.io~empty-dir/cache"));
        Files.writeString(emptyDir.resolve("a"), "y".repeat(700));
        runtimeAnswer.set(List.of(sandbox(1_000_000_000L)));
        try (StatsProvider minutely = withVolumePeriod(Duration.ofMinutes(1))) {
            Instant measured = clock.instant();
            assertThat(minutely.collect().summary().pods().get(0).volume()).singleElement()
                    .satisfies(v -> assertThat(v.fs().usedBytes()).isEqualTo(700L));

            Files.writeString(emptyDir.resolve("b"), "z".repeat(300));
            clock.advance(Duration.ofSeconds(50));
            PodStats cached = minutely.collect().summary().pods().get(0);
            assertThat(cached.volume()).singleElement().satisfies(v -> {
                assertThat(v.fs().usedBytes()).as("kept for a minute").isEqualTo(700L);
                assertThat(v.fs().time()).isEqualTo(measured);
            });
            assertThat(cached.ephemeralStorage().usedBytes()).isEqualTo(4096L + 700L);

            clock.advance(Duration.ofSeconds(10));
            assertThat(minutely.collect().summary().pods().get(0).volume()).singleElement()
                    .satisfies(v -> assertThat(v.fs().usedBytes()).isEqualTo(1000L));
        }
    }

    @Test
    void aNegativeVolumeStatsAggPeriodDisablesVolumeStats() throws IOException {
        Path emptyDir = Files.createDirectories(rootDir.resolve("pods/" + UID + "/volumes/kubernetes.io~empty-dir/cache"));
        Files.writeString(emptyDir.resolve("a"), "y".repeat(700));
        runtimeAnswer.set(List.of(sandbox(1_000_000_000L)));
        try (StatsProvider disabled = withVolumePeriod(Duration.ofSeconds(-1))) {
            PodStats pod = disabled.collect().summary().pods().get(0);
            assertThat(pod.volume()).isEmpty();
            assertThat(pod.ephemeralStorage().usedBytes()).as("the writable layer only").isEqualTo(4096L);
        }
    }

    @Test
    void assemblesPodAndContainerStatsAndDerivesRatesFromTwoRounds() throws IOException {
        Path logDir = Files.createDirectories(podLogs.resolve("ns_web_" + UID + "/app"));
        Files.writeString(logDir.resolve("0.log"), "x".repeat(300));
        Path emptyDir = Files.createDirectories(rootDir.resolve("pods/" + UID + "/volumes/kubernetes.io~empty-dir/cache"));
        Files.writeString(emptyDir.resolve("f"), "y".repeat(700));
        runtimeAnswer.set(List.of(sandbox(1_000_000_000L)));

        Summary first = provider.collect().summary();

        assertThat(selectors).containsExactly(Map.of(Labels.NODE_NAME, "node-a"));
        assertThat(first.node().nodeName()).isEqualTo("node-a");
        assertThat(first.node().startTime()).isEqualTo(Instant.ofEpochSecond(1700000000));
        assertThat(first.node().memory().workingSetBytes()).isEqualTo(500L * 1024);
        assertThat(first.node().memory().availableBytes()).isEqualTo(500L * 1024);
        assertThat(first.node().runtime().imageFs().capacityBytes()).isEqualTo(1000L);
        PodStats pod = first.pods().get(0);
        assertThat(pod.podRef().name()).isEqualTo("web");
        assertThat(pod.podRef().namespace()).isEqualTo("ns");
        assertThat(pod.startTime()).isEqualTo(CREATED);
        var app = pod.containers().get(0);
        assertThat(pod.containers()).hasSize(1).as("the infra container is the pod's, not a container of its own");
        assertThat(app.name()).isEqualTo("app");
        assertThat(app.cpu().usageNanoCores()).as("no rate from one sample").isNull();
        assertThat(app.cpu().usageCoreNanoSeconds()).isEqualTo(1_000_000_000L);
        assertThat(app.memory().workingSetBytes()).isEqualTo(60L);
        assertThat(app.memory().availableBytes()).as("limit minus working set").isEqualTo(40L);
        assertThat(app.rootfs().usedBytes()).isEqualTo(4096L);
        assertThat(app.rootfs().capacityBytes()).as("the image file system's").isEqualTo(1000L);
        assertThat(app.logs().usedBytes()).isEqualTo(300L);
        // The pod counts its infra container too.
        assertThat(pod.cpu().usageCoreNanoSeconds()).isEqualTo(1_000_000_000L + 5_000_000L);
        assertThat(pod.memory().workingSetBytes()).isEqualTo(60L + 10L);
        assertThat(pod.memory().availableBytes()).isNull();
        assertThat(pod.network().defaultInterface().name()).isEqualTo("eth0");
        assertThat(pod.network().interfaces()).hasSize(2);
        assertThat(pod.volume()).singleElement().satisfies(v -> {
            assertThat(v.name()).isEqualTo("cache");
            assertThat(v.fs().usedBytes()).isEqualTo(700L);
        });
        assertThat(pod.ephemeralStorage().usedBytes()).as("rootfs + logs + emptyDir").isEqualTo(4096L + 300L + 700L);
        assertThat(pod.processStats().processCount()).isEqualTo(3L);

        clock.advance(Duration.ofSeconds(10));
        runtimeAnswer.set(List.of(sandbox(6_000_000_000L)));
        Summary second = provider.collect().summary();

        // 5 s of CPU in 10 s: half a core.
        assertThat(second.pods().get(0).containers().get(0).cpu().usageNanoCores()).isEqualTo(500_000_000L);
        assertThat(second.pods().get(0).cpu().usageNanoCores()).isEqualTo(500_000_000L);
        assertThat(provider.latest()).get().extracting(StatsSnapshot::summary).isSameAs(second);
    }

    @Test
    void systemContainersAreTheKubeletsAndTheRuntimesCgroupsFoundFromTheirProcesses() throws IOException {
        Path cgroups = Files.createDirectories(dir.resolve("cgroup"));
        Path proc = dir.resolve("proc");
        String kubeletCgroup = "/system.slice/jkubelet.service";
        Files.createDirectories(cgroups.resolve("cpuacct" + kubeletCgroup));
        Files.writeString(cgroups.resolve("cpuacct" + kubeletCgroup + "/cpuacct.usage"), "2000000000\n");
        Files.createDirectories(cgroups.resolve("memory" + kubeletCgroup));
        Files.writeString(cgroups.resolve("memory" + kubeletCgroup + "/memory.usage_in_bytes"), "1000\n");
        Files.writeString(cgroups.resolve("memory" + kubeletCgroup + "/memory.stat"), "total_inactive_file 200\ntotal_rss 700\n");
        Files.createDirectories(proc.resolve("4242"));
        Files.writeString(proc.resolve("4242/cgroup"), "9:memory:" + kubeletCgroup + "\n2:cpu,cpuacct:" + kubeletCgroup
                + "\n1:name=systemd:" + kubeletCgroup + "\n");
        SystemContainers system = new SystemContainers(io.jkubelet.cadvisor.CgroupReader.forRoot(cgroups), proc,
                Map.of(SystemContainers.KUBELET, () -> java.util.OptionalLong.of(4242),
                        // A runtime whose process is gone is left out.
                        SystemContainers.RUNTIME, java.util.OptionalLong::empty));
        StatsProvider withRuntime = new StatsProvider(runtime, images, "node-a",
                new StatsProvider.NodePaths(rootDir, podLogs, new ProcNode(proc)), clock, Duration.ofSeconds(10), system,
                DaemonThreads.scheduler("stats-provider"));
        runtimeAnswer.set(List.of());
        var first = withRuntime.collect().summary().node().systemContainers();
        assertThat(first).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("kubelet");
            assertThat(c.cpu().usageCoreNanoSeconds()).isEqualTo(2_000_000_000L);
            assertThat(c.memory().workingSetBytes()).isEqualTo(800L);
            assertThat(c.memory().rssBytes()).isEqualTo(700L);
        });
        Files.writeString(cgroups.resolve("cpuacct" + kubeletCgroup + "/cpuacct.usage"), "3000000000\n");
        clock.advance(Duration.ofSeconds(10));
        assertThat(withRuntime.collect().summary().node().systemContainers().get(0).cpu().usageNanoCores())
                .as("1 s of CPU in 10 s").isEqualTo(100_000_000L);
        assertThat(SystemContainers.cgroupPath(List.of("0::/system.slice/docker.service"), "v2"))
                .contains("/system.slice/docker.service");
    }

    @Test
    void thePodsSystemContainerIsTheNodeAllocatableCgroupWithWhatItsLimitLeaves() throws IOException {
        Path cgroups = Files.createDirectories(dir.resolve("cgroup"));
        Path memory = Files.createDirectories(cgroups.resolve("memory/jk/kubepods"));
        Files.createDirectories(cgroups.resolve("cpuacct/jk/kubepods"));
        Files.writeString(cgroups.resolve("cpuacct/jk/kubepods/cpuacct.usage"), "1000\n");
        Files.writeString(memory.resolve("memory.usage_in_bytes"), "1000\n");
        Files.writeString(memory.resolve("memory.limit_in_bytes"), "5000\n");
        Files.writeString(memory.resolve("memory.stat"), "total_inactive_file 200\ntotal_rss 700\n");
        SystemContainers system = new SystemContainers(io.jkubelet.cadvisor.CgroupReader.forRoot(cgroups),
                dir.resolve("proc"), Map.of()).withPods("/jk/kubepods");
        StatsProvider withPods = new StatsProvider(runtime, images, "node-a",
                new StatsProvider.NodePaths(rootDir, podLogs, new ProcNode(dir.resolve("proc"))), clock,
                Duration.ofSeconds(10), system, DaemonThreads.scheduler("stats-provider"));
        runtimeAnswer.set(List.of());

        assertThat(withPods.collect().summary().node().systemContainers()).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("pods");
            assertThat(c.memory().workingSetBytes()).isEqualTo(800L);
            assertThat(c.memory().availableBytes()).isEqualTo(4200L);
        });
    }

    @Test
    void onlyCpuAndMemoryDropsEverythingElse() {
        runtimeAnswer.set(List.of(sandbox(1)));
        Summary small = provider.collect().summary().onlyCpuAndMemory();

        assertThat(small.node().fs()).isNull();
        assertThat(small.node().network()).isNull();
        assertThat(small.node().runtime()).isNull();
        assertThat(small.node().rlimit()).isNull();
        assertThat(small.node().cpu()).isNotNull();
        PodStats pod = small.pods().get(0);
        assertThat(pod.network()).isNull();
        assertThat(pod.volume()).isEmpty();
        assertThat(pod.ephemeralStorage()).isNull();
        assertThat(pod.processStats()).isNull();
        assertThat(pod.containers().get(0).rootfs()).isNull();
        assertThat(pod.containers().get(0).logs()).isNull();
        assertThat(pod.containers().get(0).memory()).isNotNull();
    }

    @Test
    void aFailedRoundKeepsTheLastDataAndSaysWhy() throws Exception {
        assertThat(provider.latest()).isEmpty();
        runtimeAnswer.set(List.of(sandbox(1)));
        StatsSnapshot good = provider.collect();
        runtimeAnswer.set(new IllegalStateException("docker is gone"));

        assertThatThrownBy(() -> provider.collect()).hasMessage("docker is gone");
        provider.rounds().runRound();

        StatsSnapshot latest = provider.latest().orElseThrow();
        assertThat(latest.error()).isEqualTo("docker is gone");
        assertThat(latest.summary()).isSameAs(good.summary());
    }

    @Test
    void aPeriodMustBePositive() {
        assertThatThrownBy(() -> new StatsProvider(null, null, "n", null, clock, Duration.ZERO, null,
                DaemonThreads.scheduler("stats-provider")))
                .hasMessageContaining("stats period must be positive");
    }

    private PodSandboxStats sandbox(long appCpu) {
        Instant now = clock.instant();
        ContainerStats app = new ContainerStats("c1", "s1", new ContainerMetadata("app", 0), Map.of(), "k8s_app", "/docker/c1",
                "busybox", CREATED.plusSeconds(1), new CpuUsage(now, appCpu, null),
                new MemoryUsage(now, 60, 80, 50, 7, 1, 100L), new WritableLayerUsage(now, 4096, 3), 2L,
                new ContainerResourceSpec(1024, 100000, -1, 100));
        ContainerStats infra = new ContainerStats("s1", "s1", new ContainerMetadata("POD", 0), Map.of(), "k8s_POD", "/docker/s1",
                "pause", CREATED, new CpuUsage(now, 5_000_000L, null),
                new MemoryUsage(now, 10, 12, 8, 1, 0, null), null, 1L, null);
        NetworkUsage network = new NetworkUsage(now, List.of(new NetworkInterfaceUsage("eth0", 10, 0, 20, 0),
                new NetworkInterfaceUsage("eth1", 1, 0, 2, 0)));
        return new PodSandboxStats("s1", new PodSandboxMetadata("web", UID, "ns", 0), Map.of(), CREATED, infra, network,
                List.of(app));
    }
}
