package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.apis.config.MemoryReservation;
import io.jkubelet.core.cluster.ClusterSide;
import io.jkubelet.core.cm.ContainerManager;
import io.jkubelet.core.cm.devicemanager.DevicePluginServer;
import io.jkubelet.core.cm.memorymanager.MemoryManager;
import io.jkubelet.core.cm.memorymanager.NumaMemory;
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
import io.jkubelet.core.volume.csi.CsiDriverClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The memory manager's {@code Static} policy through the whole kubelet's admission on a described machine of 2 NUMA
 * nodes of 10Gi each, 1Gi of each reserved, with {@code topologyManagerPolicy: single-numa-node}: a Guaranteed pod
 * asking for 12Gi, which only both nodes together have, is refused with upstream's reason and message; one asking for
 * 5Gi runs with its memory on one node ({@code cpuset.mems} through the runtime), and the state file says so.
 */
class KubeletMemoryManagerTest {
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

    private static Pod pod(String name, String memory) {
        Map<String, Quantity> limits = Map.of("cpu", new Quantity("1"), "memory", new Quantity(memory));
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
    void singleNumaNodeRefusesAPodNoOneNodeCanHoldAndPinsOneThatFitsToOneNode() throws Exception {
        runtime.addImage("busybox:1.36");
        runtime.addImage("jkubelet/pause:3.9");
        long gi = 1L << 30;
        TopologyManager topology = TopologyManager.create(NumaInfo.of(0, 1), "single-numa-node", "container", Map.of());
        MemoryManager memory = MemoryManager.create("Static", List.of(NumaMemory.of(0, 10 * gi), NumaMemory.of(1, 10 * gi)),
                Map.of("memory", BigDecimal.valueOf(2 * gi)), List.of(new MemoryReservation(0, Map.of("memory", "1Gi")),
                        new MemoryReservation(1, Map.of("memory", "1Gi"))), root, topology);
        kubelet = new Kubelet(TestSettings.under(root), new KubeletDeps(runtime, runtime, new LoggingEventRecorder(clock),
                clock, ClusterSide.standalone(), null, KubeletExecutors.named(), ContainerManager.stub(),
                ContainerLogManager.rotatedByRuntime(), DevicePluginServer.none(), PluginRegistrationClient.none(),
                Optional.empty(), topology, CsiDriverClient.none(), Optional.of(memory)));
        kubelet.start();

        send(pod("big", "12Gi"));
        await().atMost(Duration.ofSeconds(10)).until(() -> phase("big", "Failed"));
        var refused = status("big").orElseThrow().getStatus();
        assertThat(refused.getReason()).isEqualTo("TopologyAffinityError");
        assertThat(refused.getMessage()).isEqualTo("Pod was rejected: Resources cannot be allocated with Topology locality");

        send(pod("small", "5Gi"));
        await().atMost(Duration.ofSeconds(10)).until(() -> runtime.listContainers(
                new ContainerFilter(null, ContainerState.CONTAINER_RUNNING, null, null)).stream()
                .anyMatch(c -> "uid-small".equals(c.labels().get(Labels.POD_UID))));
        String id = runtime.listContainers(new ContainerFilter(null, ContainerState.CONTAINER_RUNNING, null, null)).stream()
                .filter(c -> "uid-small".equals(c.labels().get(Labels.POD_UID))).findFirst().orElseThrow().id();
        assertThat(runtime.containerConfig(id).resources().cpusetMems()).isEqualTo("0");
        assertThat(Files.readString(root.resolve("memory_manager_state"))).contains(
                "\"entries\":{\"uid-small\":{\"app\":[{\"numaAffinity\":[0],\"type\":\"memory\",\"size\":5368709120}]}}");
    }
}
