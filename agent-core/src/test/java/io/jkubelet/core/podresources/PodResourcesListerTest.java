package io.jkubelet.core.podresources;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.admission.testing.AdmittedPods;
import io.jkubelet.core.apis.config.FeatureGates;
import io.jkubelet.core.cm.cpumanager.CpuManager;
import io.jkubelet.core.cm.devicemanager.DeviceManager;
import io.jkubelet.core.cm.devicemanager.DevicePluginServer;
import io.jkubelet.core.cm.memorymanager.MemoryManager;
import io.jkubelet.core.cm.memorymanager.NumaMemory;
import io.jkubelet.core.cm.testing.TwoNumaNodeMachine;
import io.jkubelet.core.cm.topologymanager.NumaInfo;
import io.jkubelet.core.cm.topologymanager.TopologyManager;
import io.jkubelet.core.podresources.PodResourcesV1.ContainerMemory;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.jkubelet.core.cm.testing.TwoNumaNodeMachine.GI;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pod-resources API's CPU and memory answers on a described machine ({@link TwoNumaNodeMachine}: CPUs 0-1 on NUMA
 * node 0, 2-3 on node 1, CPU 0 reserved; 10Gi on each node, 1Gi of each reserved), here with node 0 holding 512 pages of
 * 2Mi hugepages and node 1 none; the topology manager's {@code single-numa-node} policy with the CPU manager's
 * {@code static} and the memory manager's {@code Static} policies. Upstream's {@code v1PodResourcesServer} over its
 * container manager's {@code GetCPUs}, {@code GetMemory}, {@code GetAllocatableCPUs} and {@code GetAllocatableMemory}.
 */
class PodResourcesListerTest {
    static final List<NumaMemory> MEMORY = List.of(new NumaMemory(0, 10 * GI, Map.of(2048L, 512L)),
            new NumaMemory(1, 10 * GI, Map.of(2048L, 0L)));

    @TempDir
    Path root;
    private final FakeClock clock = new FakeClock();
    private final AdmittedPods pods = new AdmittedPods();

    private static Container container(String name, String cpu, String memory) {
        Map<String, Quantity> r = Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory));
        return new ContainerBuilder().withName(name).withNewResources().withRequests(r).withLimits(r).endResources().build();
    }

    /** A Guaranteed pod: {@code app} with 2 whole CPUs and 2Gi, {@code side} with half a CPU (the shared pool) and 1Gi. */
    private static Pod guaranteed() {
        return new PodBuilder().withNewMetadata().withName("db").withNamespace("default").withUid("uid-db").endMetadata()
                .withNewSpec().withContainers(container("app", "2", "2Gi"), container("side", "500m", "1Gi")).endSpec()
                .build();
    }

    private static Pod burstable() {
        Container web = new ContainerBuilder().withName("web").withNewResources()
                .withRequests(Map.of("cpu", new Quantity("1"), "memory", new Quantity("1Gi"))).endResources().build();
        return new PodBuilder().withNewMetadata().withName("web").withNamespace("default").withUid("uid-web").endMetadata()
                .withNewSpec().withContainers(web).endSpec().build();
    }

    private DeviceManager devices() throws Exception {
        DeviceManager devices = new DeviceManager(DevicePluginServer.none(), clock);
        devices.start(pods::list, () -> true, (uid, name) -> false);
        return devices;
    }

    /** The lister with the static CPU manager and the Static memory manager, both started, as the kubelet has them. */
    private PodResourcesLister staticPolicies(TopologyManager topology, FeatureGates gates) throws Exception {
        CpuManager cpus = TwoNumaNodeMachine.staticCpuManager(root, topology);
        cpus.start();
        MemoryManager memory = TwoNumaNodeMachine.staticMemoryManager(root, MEMORY, topology);
        memory.start(pods::list, () -> true);
        topology.addHintProvider(cpus);
        topology.addHintProvider(memory);
        return new PodResourcesLister(pods::list, devices(), CpusProvider.of(cpus), MemoryProvider.of(memory), gates);
    }

    private static PodResourcesV1.ContainerResources container(PodResourcesV1 pod, String name) {
        return pod.containers().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void listTellsEachContainersExclusiveCpusAndPinnedMemoryAndNothingOfTheSharedPool() throws Exception {
        TopologyManager topology = TopologyManager.create(NumaInfo.of(0, 1), "single-numa-node", "container", Map.of());
        PodResourcesLister lister = staticPolicies(topology, FeatureGates.of(Map.of()));
        assertThat(pods.admit(topology, guaranteed()).admit()).isTrue();
        assertThat(pods.admit(topology, burstable()).admit()).isTrue();

        List<PodResourcesV1> list = lister.list();
        PodResourcesV1 db = list.get(0);
        // Node 0 has one free CPU (0 is reserved): the 2 CPUs and with them the 2Gi come from node 1.
        assertThat(container(db, "app").cpuIds()).containsExactly(2L, 3L);
        assertThat(container(db, "app").memory()).containsExactly(new ContainerMemory("memory", 2 * GI, List.of(1L)));
        // Half a CPU is not exclusive: the container runs in the shared pool, so no CPU is told. Its 1Gi is pinned: only
        // the memory manager has hints for it, node 0 and node 1 alike, and the first of two equal hints wins.
        assertThat(container(db, "side").cpuIds()).isEmpty();
        assertThat(container(db, "side").memory()).containsExactly(new ContainerMemory("memory", GI, List.of(0L)));
        // A Burstable pod has neither.
        PodResourcesV1 web = list.get(1);
        assertThat(container(web, "web").cpuIds()).isEmpty();
        assertThat(container(web, "web").memory()).isEmpty();
    }

    @Test
    void getAnswersTheSameForOnePod() throws Exception {
        TopologyManager topology = TopologyManager.create(NumaInfo.of(0, 1), "single-numa-node", "container", Map.of());
        PodResourcesLister lister = staticPolicies(topology, FeatureGates.of(Map.of(PodResourcesLister.GET_GATE, true)));
        assertThat(pods.admit(topology, guaranteed()).admit()).isTrue();

        PodResourcesV1.ContainerResources app = container(lister.get("default", "db"), "app");
        assertThat(app.cpuIds()).containsExactly(2L, 3L);
        assertThat(app.memory()).containsExactly(new ContainerMemory("memory", 2 * GI, List.of(1L)));
    }

    @Test
    void allocatableIsEveryCpuButTheReservedAndEachNodesAllocatableMemory() throws Exception {
        PodResourcesV1.Allocatable allocatable = staticPolicies(TopologyManager.none(), FeatureGates.of(Map.of())).allocatable();
        assertThat(allocatable.cpuIds()).containsExactly(1L, 2L, 3L);
        // Node 0: 10Gi less 1Gi reserved less its 1Gi of hugepages; node 1 has no 2Mi pages, so no block for them.
        assertThat(allocatable.memory()).containsExactly(
                new ContainerMemory("hugepages-2Mi", GI, List.of(0L)),
                new ContainerMemory("memory", 8 * GI, List.of(0L)),
                new ContainerMemory("memory", 9 * GI, List.of(1L)));
    }

    @Test
    void theNonePoliciesTellNoCpusAndNoMemory() throws Exception {
        TopologyManager topology = TopologyManager.none();
        MemoryManager memory = MemoryManager.create("None", MEMORY, Map.of(), List.of(), root, topology);
        memory.start(pods::list, () -> true);
        topology.addHintProvider(memory);
        PodResourcesLister lister = new PodResourcesLister(pods::list, devices(), CpusProvider.none(),
                MemoryProvider.of(memory), FeatureGates.of(Map.of()));
        assertThat(pods.admit(topology, guaranteed()).admit()).isTrue();

        PodResourcesV1.ContainerResources app = container(lister.list().get(0), "app");
        assertThat(app.cpuIds()).isEmpty();
        assertThat(app.memory()).isEmpty();
        assertThat(lister.allocatable().cpuIds()).isEmpty();
        assertThat(lister.allocatable().memory()).isEmpty();
    }
}
