package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.apis.config.CpuSet;
import io.jkubelet.core.cluster.ClusterSide;
import io.jkubelet.core.cm.ContainerManager;
import io.jkubelet.core.cm.cpumanager.CpuManager;
import io.jkubelet.core.cm.cpumanager.CpuTopology;
import io.jkubelet.core.cm.devicemanager.DevicePluginServer;
import io.jkubelet.core.cm.topologymanager.NumaInfo;
import io.jkubelet.core.cm.topologymanager.TopologyManager;
import io.jkubelet.core.config.PodOperation;
import io.jkubelet.core.config.PodSources;
import io.jkubelet.core.config.PodUpdate;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.logs.ContainerLogManager;
import io.jkubelet.core.pluginmanager.PluginRegistrationClient;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The topology manager through the whole kubelet's admission on a described machine of 2 NUMA nodes (CPUs 0 and 2 on
 * node 0, 1 and 3 on node 1, CPU 0 reserved) with {@code topologyManagerPolicy: single-numa-node}: a Guaranteed pod
 * asking for 3 CPUs, which only both nodes together have, is refused with upstream's reason and message; one asking for
 * 2 runs on node 1's CPUs.
 */
class KubeletTopologyManagerTest {
    @TempDir Path root;
    private final FakeClock clock = new FakeClock();
    private final FakeRuntime runtime = new FakeRuntime(clock);
    private final List<Pod> sourcePods = new ArrayList<>();
    private Kubelet kubelet;

    @AfterEach
    void stop() {
        if (kubelet != null) {
            kubelet.close();
        }
    }

    private static Pod pod(String name, String cpus) {
        Map<String, Quantity> limits = Map.of("cpu", new Quantity(cpus), "memory", new Quantity("64Mi"));
        Container c = new ContainerBuilder().withName("app").withImage("busybox:1.36").withImagePullPolicy("IfNotPresent")
                .withCommand("sleep", "3600").withNewResources().withRequests(limits).withLimits(limits).endResources().build();
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").withUid("uid-" + name)
                .endMetadata().withNewSpec().withContainers(c).endSpec().build();
    }

    private void send(Pod pod) {
        sourcePods.add(pod);
        kubelet.sourceChannel(PodSources.FILE).send(new PodUpdate(List.copyOf(sourcePods), PodOperation.SET, PodSources.FILE));
    }

    private Optional<Pod> status(String name) {
        return kubelet.views().pods().stream().filter(p -> p.getMetadata().getName().equals(name)).findFirst();
    }

    private boolean phase(String name, String phase) {
        return status(name).map(p -> p.getStatus() != null && phase.equals(p.getStatus().getPhase())).orElse(false);
    }

    @Test
    void singleNumaNodeRefusesAPodNoOneNodeCanHoldAndRunsOneThatFitsOnItsNodesCpus() throws Exception {
        runtime.addImage("busybox:1.36");
        runtime.addImage("jkubelet/pause:3.9");
        CpuTopology twoNodes = CpuTopology.of(Map.of(0, new CpuTopology.CpuInfo(0, 0, 0), 1, new CpuTopology.CpuInfo(1, 1, 1),
                2, new CpuTopology.CpuInfo(0, 0, 2), 3, new CpuTopology.CpuInfo(1, 1, 3)));
        TopologyManager topology = TopologyManager.create(NumaInfo.of(0, 1), "single-numa-node", "container", Map.of());
        CpuManager cpus = CpuManager.newStatic(twoNodes, BigDecimal.ONE, CpuSet.parse("0"), Map.of(), root,
                Duration.ofSeconds(10), topology);
        kubelet = new Kubelet(TestSettings.under(root), new KubeletDeps(runtime, runtime, new LoggingEventRecorder(clock),
                clock, ClusterSide.standalone(), null, KubeletExecutors.named(), ContainerManager.stub(),
                ContainerLogManager.rotatedByRuntime(), DevicePluginServer.none(), PluginRegistrationClient.none(),
                Optional.of(cpus), topology));
        kubelet.start();

        send(pod("three", "3"));
        await().atMost(Duration.ofSeconds(10)).until(() -> phase("three", "Failed"));
        var refused = status("three").orElseThrow().getStatus();
        assertThat(refused.getReason()).isEqualTo("TopologyAffinityError");
        assertThat(refused.getMessage()).isEqualTo("Pod was rejected: Resources cannot be allocated with Topology locality");

        send(pod("two", "2"));
        await().atMost(Duration.ofSeconds(10)).until(() -> runtime.listContainers(
                new ContainerFilter(null, ContainerState.CONTAINER_RUNNING, null, null)).stream()
                .anyMatch(c -> "uid-two".equals(c.labels().get(Labels.POD_UID))));
        String id = runtime.listContainers(new ContainerFilter(null, ContainerState.CONTAINER_RUNNING, null, null)).stream()
                .filter(c -> "uid-two".equals(c.labels().get(Labels.POD_UID))).findFirst().orElseThrow().id();
        assertThat(runtime.containerConfig(id).resources().cpusetCpus()).isEqualTo("1,3");
    }
}
