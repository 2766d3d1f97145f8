package io.jkubelet.cri;

import io.jkubelet.core.runtime.ContainerStats;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.PodSandboxStats;
import io.jkubelet.core.runtime.testing.RuntimePods;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Pod usage on the real containerd: each running container's cgroup, the sandbox's network, the writable layer. */
class CriStatsTest extends CriPodsTestBase {

    @Test
    void aRunningPodReportsCpuMemoryProcessesNetworkAndItsWritableLayer() {
        RuntimePods.Sandbox sandbox = pods.sandbox("busy");
        String id = sandbox.create("app", 0, CriTestSupport.BUSYBOX,
                List.of("sh", "-c", "head -c 300000 /dev/zero > /tmp/fill; sleep 3600"));
        runtime.startContainer(id);

        List<PodSandboxStats> all = runtime.listPodSandboxStats(Map.of(Labels.NODE_NAME, node));

        assertThat(all).singleElement().satisfies(pod -> {
            assertThat(pod.id()).isEqualTo(sandbox.id);
            assertThat(pod.network()).isNotNull();
            assertThat(pod.network().interfaces()).anySatisfy(i -> assertThat(i.name()).isEqualTo("eth0"));
            assertThat(pod.infra()).isNotNull();
            assertThat(pod.containers()).singleElement().satisfies(c -> {
                assertThat(c.id()).isEqualTo(id);
                assertThat(c.metadata().name()).isEqualTo("app");
                assertThat(c.cpu().usageCoreNanoSeconds()).isPositive();
                assertThat(c.memory().workingSetBytes()).isPositive();
                assertThat(c.processCount()).isGreaterThanOrEqualTo(1L);
                assertThat(c.cgroupPath()).endsWith(id);
            });
        });
        ContainerStats one = runtime.containerStats(id);
        assertThat(one.id()).isEqualTo(id);
        assertThat(one.writableLayer()).isNotNull();
        assertThatThrownBy(() -> runtime.containerStats("0123456789abcdef-unknown"))
                .isInstanceOf(io.jkubelet.core.runtime.NotFoundException.class);
    }
}
