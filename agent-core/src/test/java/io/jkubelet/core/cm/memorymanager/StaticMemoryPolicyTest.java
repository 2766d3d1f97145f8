package io.jkubelet.core.cm.memorymanager;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.apis.config.MemoryReservation;
import io.jkubelet.core.cm.topologymanager.BitMask;
import io.jkubelet.core.cm.topologymanager.TopologyAffinityStore;
import io.jkubelet.core.cm.topologymanager.TopologyHint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@code Static} policy's decisions on a described machine of 2 NUMA nodes of 10Gi each, 1Gi of each reserved
 * (9Gi allocatable per node), after upstream's policy_static_test.go cases: hints, pinning to the admitted node or the
 * best one, the single-or-group rule, init containers' memory reused, memory given back, a request no node can hold.
 */
class StaticMemoryPolicyTest {
    static final long GI = 1L << 30;
    static final List<NumaMemory> TWO_NODES = List.of(NumaMemory.of(0, 10 * GI), NumaMemory.of(1, 10 * GI));
    static final List<MemoryReservation> RESERVED = List.of(new MemoryReservation(0, Map.of("memory", "1Gi")),
            new MemoryReservation(1, Map.of("memory", "1Gi")));

    @TempDir
    Path root;
    /** The topology manager's admitted affinity, by pod UID / container. */
    private final Map<String, TopologyHint> admitted = new HashMap<>();
    private final List<Pod> active = new ArrayList<>();

    private MemoryManager started() throws Exception {
        TopologyAffinityStore store = (uid, c) -> admitted.getOrDefault(uid + "/" + c, TopologyHint.NONE);
        MemoryManager m = MemoryManager.create("Static", TWO_NODES, Map.of("memory", BigDecimal.valueOf(2 * GI)), RESERVED,
                root, store);
        m.start(() -> active, () -> true);
        return m;
    }

    static Container container(String name, String memory) {
        Map<String, Quantity> r = Map.of("cpu", new Quantity("1"), "memory", new Quantity(memory));
        return new ContainerBuilder().withName(name).withNewResources().withRequests(r).withLimits(r).endResources().build();
    }

    static Pod pod(String uid, List<Container> init, Container... apps) {
        return new PodBuilder().withNewMetadata().withName(uid).withNamespace("default").withUid(uid).endMetadata()
                .withNewSpec().withInitContainers(init).withContainers(apps).endSpec().build();
    }

    private static TopologyHint hint(boolean preferred, int... nodes) {
        return new TopologyHint(BitMask.of(nodes), preferred);
    }

    @Test
    void hintsPreferTheFewestNodesThatCanHoldTheRequest() throws Exception {
        MemoryManager m = started();
        Pod small = pod("small", List.of(), container("app", "5Gi"));
        assertThat(m.getTopologyHints(small, small.getSpec().getContainers().get(0)))
                .containsExactly(Map.entry("memory", List.of(hint(true, 0), hint(true, 1), hint(false, 0, 1))));
        Pod big = pod("big", List.of(), container("app", "12Gi"));
        assertThat(m.getTopologyHints(big, big.getSpec().getContainers().get(0)))
                .containsExactly(Map.entry("memory", List.of(hint(true, 0, 1))));
        Pod burstable = new PodBuilder(small).editSpec().editFirstContainer().editResources().withLimits(Map.of())
                .endResources().endContainer().endSpec().build();
        assertThat(m.getTopologyHints(burstable, burstable.getSpec().getContainers().get(0))).isEmpty();
    }

    @Test
    void pinsToTheAdmittedNodeAndThatNodeNoLongerServesAGroup() throws Exception {
        MemoryManager m = started();
        admitted.put("a/app", hint(true, 1));
        Pod a = pod("a", List.of(), container("app", "5Gi"));
        active.add(a);
        m.allocate(a, a.getSpec().getContainers().get(0));
        assertThat(m.memory("a", "app")).containsExactly(new MemoryBlock(List.of(1), "memory", 5 * GI));
        assertThat(m.memoryNumaNodes("a", "app")).containsExactly(1);
        NumaNodeState node1 = m.state().machineState().get(1);
        assertThat(node1.memoryMap().get("memory")).isEqualTo(new MemoryTable(10 * GI, GI, 9 * GI, 5 * GI, 4 * GI));
        assertThat(node1.numberOfAssignments()).isEqualTo(1);

        // Node 1 has 4Gi free and serves single-node allocations: only node 0 is left for another 5Gi.
        Pod b = pod("b", List.of(), container("app", "5Gi"));
        assertThat(m.getTopologyHints(b, b.getSpec().getContainers().get(0)))
                .containsExactly(Map.entry("memory", List.of(hint(true, 0))));
        // Without an affinity from the topology manager the best hint is taken.
        active.add(b);
        m.allocate(b, b.getSpec().getContainers().get(0));
        assertThat(m.memoryNumaNodes("b", "app")).containsExactly(0);
        // A third 5Gi fits on neither node alone, and a group may not take nodes that serve single-node allocations.
        Pod c = pod("c", List.of(), container("app", "5Gi"));
        assertThat(m.getTopologyHints(c, c.getSpec().getContainers().get(0))).isEmpty();
        assertThatThrownBy(() -> m.allocate(c, c.getSpec().getContainers().get(0))).hasMessage("[memorymanager] failed "
                + "to get the default NUMA affinity, no NUMA nodes with enough memory is available");
    }

    @Test
    void aPodBiggerThanOneNodeIsPinnedToBothAndANotGuaranteedPodGetsNothing() throws Exception {
        MemoryManager m = started();
        Pod big = pod("big", List.of(), container("app", "12Gi"));
        m.allocate(big, big.getSpec().getContainers().get(0));
        assertThat(m.memoryNumaNodes("big", "app")).containsExactly(0, 1);
        Map<Integer, NumaNodeState> machine = m.state().machineState();
        assertThat(machine.get(0).memoryMap().get("memory").free()).isZero();
        assertThat(machine.get(1).memoryMap().get("memory").free()).isEqualTo(6 * GI);
        assertThat(machine.get(1).cells()).containsExactly(0, 1);

        Pod bestEffort = pod("be", List.of(), new ContainerBuilder().withName("app").build());
        m.allocate(bestEffort, bestEffort.getSpec().getContainers().get(0));
        assertThat(m.memoryNumaNodes("be", "app")).isEmpty();
    }

    @Test
    void appContainersReuseTheInitContainersMemoryOnTheSameNodes() throws Exception {
        MemoryManager m = started();
        Pod pod = pod("p", List.of(container("init", "4Gi")), container("app", "3Gi"));
        admitted.put("p/init", hint(true, 0));
        admitted.put("p/app", hint(true, 0));
        m.allocate(pod, pod.getSpec().getInitContainers().get(0));
        m.allocate(pod, pod.getSpec().getContainers().get(0));
        // 4Gi held in all, not 7: the app container took 3Gi of the init container's, whose block shrank to 1Gi.
        assertThat(m.state().machineState().get(0).memoryMap().get("memory").reserved()).isEqualTo(4 * GI);
        assertThat(m.memory("p", "init")).containsExactly(new MemoryBlock(List.of(0), "memory", GI));
        assertThat(m.memory("p", "app")).containsExactly(new MemoryBlock(List.of(0), "memory", 3 * GI));

        // Once the app container is created the init container is done: its 1Gi goes back.
        m.addContainer(pod, pod.getSpec().getContainers().get(0));
        assertThat(m.memory("p", "init")).isEmpty();
        assertThat(m.state().machineState().get(0).memoryMap().get("memory").reserved()).isEqualTo(3 * GI);
    }

    @Test
    void theMemoryOfPodsNoLongerActiveIsGivenBackBeforeTheNextHintsAndTheStateSurvivesARestart() throws Exception {
        MemoryManager m = started();
        Pod a = pod("a", List.of(), container("app", "9Gi"));
        active.add(a);
        m.allocate(a, a.getSpec().getContainers().get(0));
        assertThat(m.memoryNumaNodes("a", "app")).containsExactly(0);

        MemoryManager restarted = started();
        assertThat(restarted.memory("a", "app")).containsExactly(new MemoryBlock(List.of(0), "memory", 9 * GI));
        Pod b = pod("b", List.of(), container("app", "9Gi"));
        assertThat(restarted.getTopologyHints(b, b.getSpec().getContainers().get(0)))
                .containsExactly(Map.entry("memory", List.of(hint(true, 1))));

        // Pod a is no longer active: its 9Gi on node 0 is given back before the hints are asked (upstream's
        // removeStaleState in GetTopologyHints), so node 0 is a hint again.
        active.clear();
        assertThat(restarted.getTopologyHints(b, b.getSpec().getContainers().get(0)))
                .containsExactly(Map.entry("memory", List.of(hint(true, 0), hint(true, 1), hint(false, 0, 1))));
        assertThat(restarted.memory("a", "app")).isEmpty();
        Pod c = pod("c", List.of(), container("app", "9Gi"));
        admitted.put("c/app", hint(true, 0));
        restarted.allocate(c, c.getSpec().getContainers().get(0));
        assertThat(restarted.memoryNumaNodes("c", "app")).containsExactly(0);
    }

    @Test
    void aStateFileThatDoesNotMatchTheMachineRefusesTheStart() throws Exception {
        MemoryManager m = started();
        Pod a = pod("a", List.of(), container("app", "5Gi"));
        m.allocate(a, a.getSpec().getContainers().get(0));
        MemoryManager smaller = MemoryManager.create("Static", List.of(NumaMemory.of(0, 8 * GI), NumaMemory.of(1, 10 * GI)),
                Map.of("memory", BigDecimal.valueOf(2 * GI)), RESERVED, root, TopologyAffinityStore.NONE);
        assertThatThrownBy(() -> smaller.start(List::of, () -> true))
                .hasMessage("[memorymanager] the expected machine state is different from the real one");
        MemoryManager none = MemoryManager.create("None", TWO_NODES, Map.of(), List.of(), root, TopologyAffinityStore.NONE);
        assertThatThrownBy(() -> none.start(List::of, () -> true)).hasMessageContaining(
                "[memorymanager] configured policy \"None\" differs from state checkpoint policy \"Static\"");
    }

    @Test
    void reservedMemoryMustAddUpToNodeAllocatablesReservationOnNodesOfTheMachine() {
        assertThatThrownBy(() -> MemoryManager.create("Static", TWO_NODES, Map.of("memory", BigDecimal.valueOf(1124L << 20)),
                RESERVED, root, TopologyAffinityStore.NONE)).hasMessage("the total amount \"2Gi\" of type \"memory\" is "
                + "not equal to the value \"1124Mi\" determined by Node Allocatable feature");
        assertThatThrownBy(() -> MemoryManager.create("Static", TWO_NODES, Map.of("memory", BigDecimal.valueOf(GI)),
                List.of(new MemoryReservation(2, Map.of("memory", "1Gi"))), root, TopologyAffinityStore.NONE))
                .hasMessage("the reserved memory configuration references a NUMA node 2 that does not exist on this machine");
        assertThatThrownBy(() -> MemoryManager.create("Static", TWO_NODES, Map.of(), List.of(), root,
                TopologyAffinityStore.NONE)).hasMessage("[memorymanager] you should specify the system reserved memory");
        assertThatThrownBy(() -> MemoryManager.create("static", TWO_NODES, Map.of(), List.of(), root,
                TopologyAffinityStore.NONE)).hasMessage("unknown policy: \"static\"");
    }
}
