package io.jkubelet.core.cm.cpumanager;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.admission.PodAdmitResult;
import io.jkubelet.core.apis.config.CpuSet;
import io.jkubelet.core.cm.topologymanager.BitMask;
import io.jkubelet.core.cm.topologymanager.NumaInfo;
import io.jkubelet.core.cm.topologymanager.TopologyHint;
import io.jkubelet.core.cm.topologymanager.TopologyManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.jkubelet.core.cm.cpumanager.StaticPolicyTest.container;
import static io.jkubelet.core.cm.cpumanager.StaticPolicyTest.pod;
import static io.jkubelet.core.cm.cpumanager.Topologies.DUAL_SOCKET_HT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CPU manager as a hint provider on upstream's described dual-socket machine (2 NUMA nodes of 6 CPUs: even CPUs
 * on node 0, odd on node 1), CPU 0 reserved, as upstream's {@code topology_hints_test.go} and its policy tests have it.
 */
class CpuTopologyHintsTest {
    @TempDir Path root;

    private static TopologyHint hint(boolean preferred, int... nodes) {
        return new TopologyHint(BitMask.of(nodes), preferred);
    }

    private CpuManager started(TopologyManager topology) throws Exception {
        CpuManager m = CpuManager.newStatic(DUAL_SOCKET_HT, BigDecimal.ONE, CpuSet.parse("0"), Map.of(), root,
                CpuManagerTest.PERIOD, topology);
        m.start();
        topology.addHintProvider(m);
        return m;
    }

    private static TopologyManager policy(String name, String scope) {
        return TopologyManager.create(NumaInfo.of(0, 1), name, scope, Map.of());
    }

    @Test
    void eachNodeThatCanHoldTheRequestIsAHintTheSmallestOnesPreferred() throws Exception {
        CpuManager m = started(policy("best-effort", "container"));
        // Node 0 has 5 free CPUs (0 is reserved), node 1 has 6.
        assertThat(m.getTopologyHints(pod("a", container("app", "5")), container("app", "5")))
                .isEqualTo(Map.of("cpu", List.of(hint(true, 0), hint(true, 1), hint(false, 0, 1))));
        assertThat(m.getTopologyHints(pod("b", container("app", "6")), container("app", "6")))
                .isEqualTo(Map.of("cpu", List.of(hint(true, 1), hint(false, 0, 1))));
        // Seven CPUs need both nodes: that is then the narrowest, and preferred.
        assertThat(m.getTopologyHints(pod("c", container("app", "7")), container("app", "7")))
                .isEqualTo(Map.of("cpu", List.of(hint(true, 0, 1))));
        // A container without exclusive CPUs has no preference.
        assertThat(m.getTopologyHints(pod("d", container("app", "500m")), container("app", "500m"))).isEmpty();
    }

    @Test
    void aContainerTakesItsCpusFromTheNodeItWasAdmittedOn() throws Exception {
        TopologyManager topology = policy("single-numa-node", "container");
        CpuManager m = started(topology);
        Pod first = pod("first", container("app", "4"));
        assertThat(topology.admit(first, List.of()).admit()).isTrue();
        // Node 0 is the lower of the two nodes that can hold 4 CPUs: its free CPUs 2,4,6,8 (and 10).
        assertThat(topology.getAffinity("first", "app")).isEqualTo(hint(true, 0));
        assertThat(m.cpuSet("first", "app").cpus()).allMatch(cpu -> cpu % 2 == 0).hasSize(4);

        // Node 0 has 1 CPU left: 2 more come from node 1, which the manager alone would not have chosen first.
        Pod second = pod("second", container("app", "2"));
        assertThat(topology.admit(second, List.of(first)).admit()).isTrue();
        assertThat(topology.getAffinity("second", "app")).isEqualTo(hint(true, 1));
        assertThat(m.cpuSet("second", "app").cpus()).allMatch(cpu -> cpu % 2 == 1).hasSize(2);
    }

    @Test
    void singleNumaNodeRefusesWhatNoOneNodeHoldsAndBestEffortSpreadsIt() throws Exception {
        TopologyManager strict = policy("single-numa-node", "container");
        CpuManager m = started(strict);
        PodAdmitResult refused = strict.admit(pod("big", container("app", "7")), List.of());
        assertThat(refused).isEqualTo(PodAdmitResult.reject("TopologyAffinityError",
                "Resources cannot be allocated with Topology locality"));
        assertThat(m.exclusiveCpus("big", "app").isEmpty()).isTrue();

        root = java.nio.file.Files.createDirectories(root.resolve("other-node"));
        TopologyManager bestEffort = policy("best-effort", "container");
        CpuManager spread = started(bestEffort);
        assertThat(bestEffort.admit(pod("big", container("app", "7")), List.of()).admit()).isTrue();
        assertThat(spread.exclusiveCpus("big", "app").size()).isEqualTo(7);
    }

    @Test
    void thePodScopeHintsCoverAllOfThePodsExclusiveCpus() throws Exception {
        TopologyManager topology = policy("single-numa-node", "pod");
        CpuManager m = started(topology);
        // 3 + 3 fit node 1 (6 free) but not node 0 (5 free): both containers go to node 1.
        Pod pair = pod("pair", container("a", "3"), container("b", "3"));
        assertThat(m.getPodTopologyHints(pair)).isEqualTo(Map.of("cpu", List.of(hint(true, 1), hint(false, 0, 1))));
        assertThat(topology.admit(pair, List.of()).admit()).isTrue();
        assertThat(m.cpuSet("pair", "a").union(m.cpuSet("pair", "b")).cpus()).allMatch(cpu -> cpu % 2 == 1).hasSize(6);
        assertThat(CpuTopologyHints.podGuaranteedCpus(pair)).isEqualTo(6);
    }
}
