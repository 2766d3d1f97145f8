package io.jkubelet.core.cm.cpumanager;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.admission.PodAdmitResult;
import io.jkubelet.core.apis.config.CpuSet;
import io.jkubelet.core.cm.topologymanager.TopologyAffinityStore;
import io.jkubelet.core.cm.topologymanager.TopologyManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.jkubelet.core.cm.cpumanager.StaticPolicyTest.container;
import static io.jkubelet.core.cm.cpumanager.StaticPolicyTest.pod;
import static io.jkubelet.core.cm.cpumanager.Topologies.SINGLE_SOCKET_HT;
import static io.jkubelet.core.cm.cpumanager.Topologies.TWO_CORES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The CPU manager over its state file, admitting through the topology manager as the kubelet will. */
class CpuManagerTest {
    static final java.time.Duration PERIOD = java.time.Duration.ofSeconds(10);

    @TempDir
    Path root;

    private CpuManager started(CpuTopology topo, String reservedCpus, Map<String, String> options) throws Exception {
        CpuManager m = CpuManager.newStatic(topo, BigDecimal.ONE, CpuSet.parse(reservedCpus), options, root, PERIOD,
                TopologyAffinityStore.NONE);
        m.start();
        return m;
    }

    @Test
    void aGuaranteedPodGetsCpu1OnThisMachineKeepsItAcrossARestartAndGivesItBackWhenItGoes() throws Exception {
        CpuManager m = started(TWO_CORES, "0", Map.of());
        Pod guaranteed = pod("g", container("app", "1"));
        Pod bestEffort = pod("b", new io.fabric8.kubernetes.api.model.ContainerBuilder().withName("app").build());
        TopologyManager admission = TopologyManager.none(m);
        assertThat(admission.admit(guaranteed, List.of()).admit()).isTrue();
        assertThat(admission.admit(bestEffort, List.of(guaranteed)).admit()).isTrue();
        assertThat(m.cpuSet("g", "app")).hasToString("1");
        assertThat(m.cpuSet("b", "app")).hasToString("0");
        assertThat(Files.readString(root.resolve("cpu_manager_state")))
                .startsWith("{\"policyName\":\"static\",\"defaultCpuSet\":\"0\",\"entries\":{\"g\":{\"app\":\"1\"}},");

        CpuManager restarted = started(TWO_CORES, "0", Map.of());
        assertThat(restarted.cpuSet("g", "app")).hasToString("1");
        assertThat(restarted.exclusiveCpus("g", "app")).hasToString("1");

        restarted.removeStaleState(List.of(bestEffort));
        assertThat(restarted.cpuSet("b", "app")).hasToString("0-1");
        assertThat(restarted.exclusiveCpus("g", "app").isEmpty()).isTrue();
    }

    @Test
    void aPodThatDoesNotFitIsRefusedWithTheReasonUpstreamGives() throws Exception {
        CpuManager m = started(SINGLE_SOCKET_HT, "", Map.of("full-pcpus-only", "true"));
        PodAdmitResult odd = TopologyManager.none(m).admit(pod("p", container("app", "3")), List.of());
        assertThat(odd.admit()).isFalse();
        assertThat(odd.reason()).isEqualTo("SMTAlignmentError");
        assertThat(odd.message()).isEqualTo("SMT Alignment Error: requested 3 cpus not multiple cpus per core = 2");

        // Another node (its own root directory): CPU 0 reserved, one CPU left.
        root = Files.createDirectories(root.resolve("other-node"));
        PodAdmitResult tooMany = TopologyManager.none(started(TWO_CORES, "0", Map.of()))
                .admit(pod("q", container("app", "2")), List.of());
        assertThat(tooMany.reason()).isEqualTo("UnexpectedAdmissionError");
        assertThat(tooMany.message()).isEqualTo("Allocate failed due to not enough cpus available to satisfy request: "
                + "requested=2, available=1, which is unexpected");
    }

    @Test
    void theStaticPolicyNeedsAReservation() {
        assertThatThrownBy(() -> CpuManager.newStatic(TWO_CORES, BigDecimal.ZERO, CpuSet.EMPTY, Map.of(), root, PERIOD,
                TopologyAffinityStore.NONE))
                .hasMessage("[cpumanager] the static policy requires systemreserved.cpu + kubereserved.cpu to be greater "
                        + "than zero");
        assertThatThrownBy(() -> CpuManager.newStatic(TWO_CORES, new BigDecimal("0.5"), CpuSet.EMPTY,
                Map.of("x", "true"), root, PERIOD, TopologyAffinityStore.NONE)).hasMessage("new static policy error: unknown CPU Manager Policy option: \"x\"");
    }

    @Test
    void aStateFileOfTheNonePolicyRefusesTheStart() throws Exception {
        Files.writeString(root.resolve("cpu_manager_state"), CpuManagerCheckpointTest.NONE);
        CpuManager m = CpuManager.newStatic(TWO_CORES, BigDecimal.ONE, CpuSet.EMPTY, Map.of(), root, PERIOD,
                TopologyAffinityStore.NONE);
        assertThatThrownBy(m::start).hasMessageContaining("configured policy \"static\" differs from state checkpoint "
                + "policy \"none\", please drain this node and delete the CPU manager checkpoint file");
    }
}
