package io.jkubelet.docker;

import io.jkubelet.core.runtime.ContainerStats;
import io.jkubelet.core.runtime.LinuxContainerResources;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PodSandboxStats;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code listPodSandboxStats} on the real engine: cgroups, the writable layer and the sandbox's network namespace. */
@Tag("docker")
class DockerStatsTest {
    private static DockerRuntime runtime;
    private PodFixture pods;

    @BeforeAll
    static void connect() {
        runtime = DockerTestSupport.connect();
    }

    @AfterAll
    static void disconnect() {
        runtime.close();
    }

    @BeforeEach
    void scope() throws Exception {
        pods = new PodFixture(runtime, Files.createTempDirectory("stats-logs").toString());
    }

    @AfterEach
    void cleanUp() {
        pods.removeAll();
    }

    @Test
    void aReadySandboxReportsItsContainersUsage() {
        PodSandboxConfig sandbox = pods.sandbox("usage", UnaryOperator.identity());
        String sandboxId = runtime.runPodSandbox(sandbox);
        // 8 MiB written into the container's own layer; a 64 MiB limit with a 50 ms / 100 ms CFS quota.
        String containerId = pods.run(sandboxId, PodFixture.withResources(pods.container("app", List.of("sh", "-c",
                        "dd if=/dev/zero of=/fill bs=1M count=8 && trap 'exit 0' TERM; sleep 3600 & wait"), sandbox,
                UnaryOperator.identity()), new LinuxContainerResources(100000, 50000, 512, 64 * 1024 * 1024, 0)), sandbox);

        PodSandboxStats stats = Awaitility.await().atMost(Duration.ofSeconds(30)).until(
                () -> runtime.listPodSandboxStats(Map.of(Labels.NODE_NAME, pods.nodeName)),
                l -> l.size() == 1 && l.get(0).containers().size() == 1 && l.get(0).containers().get(0).writableLayer() != null
                        && l.get(0).containers().get(0).writableLayer().usedBytes() >= 8 * 1024 * 1024).get(0);

        assertThat(stats.id()).isEqualTo(sandboxId);
        assertThat(stats.metadata().uid()).isEqualTo(sandbox.metadata().uid());
        assertThat(stats.network().interfaces()).extracting(i -> i.name()).contains("eth0");
        assertThat(stats.infra().metadata().name()).isEqualTo("POD");
        assertThat(stats.infra().cgroupPath()).endsWith(sandboxId);
        ContainerStats app = stats.containers().get(0);
        assertThat(app.id()).isEqualTo(containerId);
        assertThat(app.metadata().name()).isEqualTo("app");
        assertThat(app.runtimeName()).startsWith("k8s_app_usage_contract_");
        assertThat(app.image()).isEqualTo(DockerTestSupport.BUSYBOX);
        assertThat(app.startedAt()).isNotNull();
        assertThat(app.cpu().usageCoreNanoSeconds()).isPositive();
        assertThat(app.memory().usageBytes()).isPositive();
        assertThat(app.memory().limitBytes()).isEqualTo(64L * 1024 * 1024);
        assertThat(app.processCount()).isGreaterThanOrEqualTo(2L);
        assertThat(app.spec().cpuQuota()).isEqualTo(50000L);
        assertThat(app.spec().cpuPeriod()).isEqualTo(100000L);
        assertThat(app.spec().cpuShares()).isEqualTo(512L);
        assertThat(app.spec().memoryLimitBytes()).isEqualTo(64L * 1024 * 1024);

        // A stopped container is no longer reported; a stopped sandbox is not either.
        runtime.stopContainer(containerId, Duration.ofSeconds(5));
        assertThat(runtime.listPodSandboxStats(Map.of(Labels.NODE_NAME, pods.nodeName)).get(0).containers()).isEmpty();
        runtime.stopPodSandbox(sandboxId);
        assertThat(runtime.listPodSandboxStats(Map.of(Labels.NODE_NAME, pods.nodeName))).isEmpty();
    }
}
