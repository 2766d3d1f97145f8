package io.jkubelet.cri;

import io.grpc.Status;
import io.jkubelet.core.runtime.ContainerMetadata;
import io.jkubelet.core.runtime.ContainerResourceSpec;
import io.jkubelet.core.runtime.ContainerStats;
import io.jkubelet.core.runtime.CpuUsage;
import io.jkubelet.core.runtime.MemoryUsage;
import io.jkubelet.core.runtime.NetworkInterfaceUsage;
import io.jkubelet.core.runtime.PodSandboxStats;
import io.jkubelet.core.runtime.WritableLayerUsage;
import io.jkubelet.cri.v1.CriApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pod usage through the fake CRI runtime ({@link CriStats}): which sandboxes and containers are asked for, where each
 * one's cgroup and process are found (its verbose status, once), and the usage read there: a cgroup v1 hierarchy and a
 * {@code /proc} the test writes, at a fixed time.
 */
class CriUsageTest {
    private static final Instant NOW = Instant.parse("2026-12-05T03:00:00Z");
    private static final String POD_CGROUP = "/kubepods/besteffort/poduid-pod";

    @TempDir
    Path cgroups;
    @TempDir
    Path proc;
    private FakeCriServer fake;
    private CriRuntime cri;
    private String sandbox;
    private String app;

    @BeforeEach
    void aPodWithOneRunningAndOneCreatedContainer() throws IOException {
        fake = new FakeCriServer();
        cri = fake.adapter(FakeCriTestBase.REQUEST_TIMEOUT, Clock.fixed(NOW, ZoneOffset.UTC), proc, cgroups);
        sandbox = cri.runPodSandbox(FakeCriTestBase.sandboxConfig("pod"));
        app = cri.createContainer(sandbox, FakeCriTestBase.containerConfig("app", FakeCriTestBase.NGINX),
                FakeCriTestBase.sandboxConfig("pod"));
        cri.startContainer(app);
        cri.createContainer(sandbox, FakeCriTestBase.containerConfig("waiting", FakeCriTestBase.NGINX),
                FakeCriTestBase.sandboxConfig("pod"));
        placed(sandbox, 4242);
        placed(app, 4243);
        cgroup(POD_CGROUP + "/" + sandbox, 1_000_000, 1_048_576);
        cgroup(POD_CGROUP + "/" + app, 5_000_000, 10_485_760);
        Files.createDirectories(proc.resolve("4242/net"));
        Files.writeString(proc.resolve("4242/net/dev"), """
                Inter-|   Receive                                                |  Transmit
                 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
                    lo:     100       1    0    0    0     0          0         0      100       1    0    0    0     0       0          0
                  eth0:    2048      20    1    0    0     0          0         0     4096      40    2    0    0     0       0          0
                """);
        fake.runtime.writableLayers.put(app, CriApi.FilesystemUsage.newBuilder().setTimestamp(1_700_000_000_000_000_000L)
                .setUsedBytes(CriApi.UInt64Value.newBuilder().setValue(4096))
                .setInodesUsed(CriApi.UInt64Value.newBuilder().setValue(12)).build());
        fake.recorder.clear();
    }

    @AfterEach
    void stop() {
        cri.close();
        fake.close();
    }

    @Test
    void aRunningContainersUsageComesFromItsCgroupAndThePodsNetworkFromTheSandboxsProcess() {
        List<PodSandboxStats> pods = cri.listPodSandboxStats(Map.of("io.kubernetes.pod.uid", "uid-pod"));

        assertThat(pods).singleElement().satisfies(pod -> {
            assertThat(pod.id()).isEqualTo(sandbox);
            assertThat(pod.metadata().name()).isEqualTo("pod");
            assertThat(pod.createdAt()).isEqualTo(Instant.ofEpochSecond(0, fake.runtime.nowNanos));
            assertThat(pod.network().timestamp()).isEqualTo(NOW);
            assertThat(pod.network().interfaces()).containsExactly(new NetworkInterfaceUsage("eth0", 2048, 1, 4096, 2));
            assertThat(pod.infra().id()).isEqualTo(sandbox);
            assertThat(pod.infra().metadata()).isEqualTo(new ContainerMetadata("POD", 0));
            assertThat(pod.infra().cpu().usageCoreNanoSeconds()).isEqualTo(1_000_000);
            assertThat(pod.containers()).as("the created container has no usage").singleElement()
                    .isEqualTo(new ContainerStats(app, sandbox, new ContainerMetadata("app", 0),
                            Map.of("io.kubernetes.pod.uid", "uid-pod"), "containerd", POD_CGROUP + "/" + app,
                            FakeCriTestBase.NGINX, null, new CpuUsage(NOW, 5_000_000, null),
                            new MemoryUsage(NOW, 9_437_184, 10_485_760, 4_194_304, 100, 2, 268_435_456L),
                            new WritableLayerUsage(Instant.parse("2023-11-14T22:13:20Z"), 4096, 12), 3L,
                            new ContainerResourceSpec(512, 100_000, 50_000, 268_435_456)));
        });
        assertThat(fake.recorder.request("ListPodSandbox", CriApi.ListPodSandboxRequest.class).getFilter())
                .isEqualTo(CriApi.PodSandboxFilter.newBuilder().setState(CriApi.PodSandboxStateValue.newBuilder()
                        .setState(CriApi.PodSandboxState.SANDBOX_READY)).putLabelSelector("io.kubernetes.pod.uid", "uid-pod")
                        .build());
        assertThat(fake.recorder.request("ListContainers", CriApi.ListContainersRequest.class).getFilter().getState()
                .getState()).isEqualTo(CriApi.ContainerState.CONTAINER_RUNNING);
    }

    @Test
    void whereAContainerRunsIsAskedOnceWithTheVerboseStatus() {
        cri.listPodSandboxStats(Map.of());
        cri.listPodSandboxStats(Map.of());

        assertThat(fake.recorder.calls("ContainerStatus")).singleElement()
                .satisfies(c -> assertThat(((CriApi.ContainerStatusRequest) c.request()).getVerbose()).isTrue());
        assertThat(fake.recorder.calls("PodSandboxStatus")).singleElement()
                .satisfies(c -> assertThat(((CriApi.PodSandboxStatusRequest) c.request()).getVerbose()).isTrue());
        assertThat(fake.recorder.calls("ListContainerStats")).hasSize(2);
    }

    @Test
    void aContainerGoneOrWithoutVerboseInfoIsLeftOutAndAStoppedSandboxIsNotListed() {
        fake.recorder.inject("ContainerStatus", Status.NOT_FOUND);
        assertThat(cri.listPodSandboxStats(Map.of())).singleElement()
                .satisfies(pod -> assertThat(pod.containers()).isEmpty());

        fake.runtime.verboseInfo.remove(app);
        assertThat(cri.listPodSandboxStats(Map.of())).singleElement()
                .satisfies(pod -> assertThat(pod.containers()).isEmpty());

        cri.stopPodSandbox(sandbox);
        assertThat(cri.listPodSandboxStats(Map.of())).isEmpty();
    }

    /** containerd's verbose {@code info}: the process and the cgroup of its runtime spec. */
    private void placed(String id, long pid) {
        fake.runtime.verboseInfo.put(id, Map.of("info", "{\"pid\":" + pid + ",\"runtimeSpec\":{\"linux\":"
                + "{\"cgroupsPath\":\"" + POD_CGROUP + "/" + id + "\"}}}"));
    }

    /** A cgroup v1 leaf with CPU time, memory (a 1 MiB inactive file cache, 256 MiB limit), 3 processes and limits. */
    private void cgroup(String path, long cpuNanos, long memoryBytes) throws IOException {
        write("cpuacct" + path, "cpuacct.usage", cpuNanos);
        write("memory" + path, "memory.usage_in_bytes", memoryBytes);
        write("memory" + path, "memory.limit_in_bytes", 268_435_456);
        Files.writeString(cgroups.resolve("memory" + path).resolve("memory.stat"),
                "total_inactive_file 1048576\ntotal_rss 4194304\ntotal_pgfault 100\ntotal_pgmajfault 2\n");
        write("pids" + path, "pids.current", 3);
        write("cpu" + path, "cpu.shares", 512);
        write("cpu" + path, "cpu.cfs_quota_us", 50_000);
        write("cpu" + path, "cpu.cfs_period_us", 100_000);
    }

    private void write(String dir, String file, long value) throws IOException {
        Path d = Files.createDirectories(cgroups.resolve(dir));
        Files.writeString(d.resolve(file), value + "\n");
    }
}
