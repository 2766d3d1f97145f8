package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.apis.config.CpuSet;
import io.jkubelet.core.cm.cpumanager.CpuManager;
import io.jkubelet.core.cm.cpumanager.CpuTopology;
import io.jkubelet.core.cm.memorymanager.MemoryManager;
import io.jkubelet.core.cm.testing.TwoNumaNodeMachine;
import io.jkubelet.core.cm.topologymanager.NumaInfo;
import io.jkubelet.core.cm.topologymanager.TopologyManager;
import io.jkubelet.core.config.PodOperation;
import io.jkubelet.core.config.PodSources;
import io.jkubelet.core.config.PodUpdate;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.podresources.PodResourcesV1.ContainerMemory;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.LinuxContainerResources;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.testing.FakeClock;
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

import static io.jkubelet.core.cm.testing.TwoNumaNodeMachine.GI;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The topology manager through the whole kubelet's admission with {@code topologyManagerPolicy: single-numa-node}, on
 * described machines of 2 NUMA nodes: a Guaranteed pod that only both nodes together could hold is refused with
 * upstream's reason and message, one that fits runs on one node, with the CPU manager (CPUs 0 and 2 on node 0, 1 and 3
 * on node 1, CPU 0 reserved) and with the memory manager's {@code Static} policy ({@link TwoNumaNodeMachine}'s 10Gi on
 * each node, 1Gi of each reserved).
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

    private static Pod pod(String name, String cpus, String memory) {
        Map<String, Quantity> limits = Map.of("cpu", new Quantity(cpus), "memory", new Quantity(memory));
        Container c = new ContainerBuilder().withName("app").withImage("busybox:1.36").withImagePullPolicy("IfNotPresent")
                .withCommand("sleep", "3600").withNewResources().withRequests(limits).withLimits(limits).endResources().build();
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").withUid("uid-" + name)
                .endMetadata().withNewSpec().withContainers(c).endSpec().build();
    }

    private void start(Optional<CpuManager> cpus, TopologyManager topology, Optional<MemoryManager> memory) {
        runtime.addImage("busybox:1.36");
        runtime.addImage("jkubelet/pause:3.9");
        KubeletDeps.Builder deps = KubeletDeps.builder(runtime, runtime, new LoggingEventRecorder(clock), clock)
                .topologyManager(topology);
        cpus.ifPresent(deps::cpuManager);
        memory.ifPresent(deps::memoryManager);
        kubelet = new Kubelet(TestSettings.under(root), deps.build());
        kubelet.start();
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

    /** The pod is refused with upstream's TopologyAffinityError. */
    private void refused(String name) {
        await().atMost(Duration.ofSeconds(10)).until(() -> phase(name, "Failed"));
        var refused = status(name).orElseThrow().getStatus();
        assertThat(refused.getReason()).isEqualTo("TopologyAffinityError");
        assertThat(refused.getMessage()).isEqualTo("Pod was rejected: Resources cannot be allocated with Topology locality");
    }

    /** The resources the runtime was given for the pod's running container. */
    private LinuxContainerResources running(String podUid) {
        ContainerFilter runningOnes = new ContainerFilter(null, ContainerState.CONTAINER_RUNNING, null, null);
        await().atMost(Duration.ofSeconds(10)).until(() -> runtime.listContainers(runningOnes).stream()
                .anyMatch(c -> podUid.equals(c.labels().get(Labels.POD_UID))));
        String id = runtime.listContainers(runningOnes).stream()
                .filter(c -> podUid.equals(c.labels().get(Labels.POD_UID))).findFirst().orElseThrow().id();
        return runtime.containerConfig(id).resources();
    }

    /** An unlabelled sample of the kubelet's {@code /metrics}. */
    private double metric(String name) throws java.io.IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter.create().write(out,
                kubelet.views().kubeletMetrics().scrape());
        return out.toString(java.nio.charset.StandardCharsets.UTF_8).lines().filter(l -> l.startsWith(name + " "))
                .mapToDouble(l -> Double.parseDouble(l.substring(name.length() + 1))).findFirst().orElseThrow();
    }

    @Test
    void singleNumaNodeRefusesAPodNoOneNodeCanHoldAndRunsOneThatFitsOnItsNodesCpus() throws Exception {
        CpuTopology twoNodes = CpuTopology.of(Map.of(0, new CpuTopology.CpuInfo(0, 0, 0), 1, new CpuTopology.CpuInfo(1, 1, 1),
                2, new CpuTopology.CpuInfo(0, 0, 2), 3, new CpuTopology.CpuInfo(1, 1, 3)));
        TopologyManager topology = TopologyManager.create(NumaInfo.of(0, 1), "single-numa-node", "container", Map.of());
        CpuManager cpus = CpuManager.newStatic(twoNodes, BigDecimal.ONE, CpuSet.parse("0"), Map.of(), root,
                Duration.ofSeconds(10), topology);
        start(Optional.of(cpus), topology, Optional.empty());

        send(pod("three", "3", "64Mi"));
        refused("three");
        send(pod("two", "2", "64Mi"));
        assertThat(running("uid-two").cpusetCpus()).isEqualTo("1,3");
        // Both admissions counted; the refused pod never reached the CPU manager.
        assertThat(metric("kubelet_topology_manager_admission_requests_total")).isEqualTo(2);
        assertThat(metric("kubelet_topology_manager_admission_errors_total")).isEqualTo(1);
        assertThat(metric("kubelet_topology_manager_admission_duration_ms_count")).isEqualTo(2);
        assertThat(metric("kubelet_cpu_manager_pinning_requests_total")).isEqualTo(1);
        assertThat(metric("kubelet_cpu_manager_pinning_errors_total")).isZero();
    }

    @Test
    void singleNumaNodeRefusesMemoryNoOneNodeCanHoldAndPinsMemoryThatFitsToOneNode() throws Exception {
        TopologyManager topology = TopologyManager.create(NumaInfo.of(0, 1), "single-numa-node", "container", Map.of());
        start(Optional.empty(), topology,
                Optional.of(TwoNumaNodeMachine.staticMemoryManager(root, TwoNumaNodeMachine.MEMORY, topology)));

        send(pod("big", "1", "12Gi"));
        refused("big");
        send(pod("small", "1", "5Gi"));
        assertThat(running("uid-small").cpusetMems()).isEqualTo("0");
        assertThat(metric("kubelet_topology_manager_admission_errors_total")).isEqualTo(1);
        assertThat(metric("kubelet_memory_manager_pinning_requests_total")).isEqualTo(1);
        assertThat(metric("kubelet_memory_manager_pinning_errors_total")).isZero();
        // The pod-resources API tells the same block, and each node's 9Gi as allocatable.
        assertThat(kubelet.views().podResources().list()).filteredOn(p -> p.name().equals("small")).singleElement()
                .satisfies(p -> assertThat(p.containers().get(0).memory())
                        .containsExactly(new ContainerMemory("memory", 5 * GI, List.of(0L))));
        assertThat(kubelet.views().podResources().allocatable().memory()).containsExactly(
                new ContainerMemory("memory", 9 * GI, List.of(0L)), new ContainerMemory("memory", 9 * GI, List.of(1L)));
        assertThat(Files.readString(root.resolve("memory_manager_state"))).contains(
                "\"entries\":{\"uid-small\":{\"app\":[{\"numaAffinity\":[0],\"type\":\"memory\",\"size\":5368709120}]}}");
    }
}
