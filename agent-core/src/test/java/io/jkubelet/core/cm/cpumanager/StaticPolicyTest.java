package io.jkubelet.core.cm.cpumanager;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.apis.config.CpuSet;
import io.jkubelet.core.cm.topologymanager.AdmissionError;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.jkubelet.core.cm.cpumanager.Topologies.DUAL_SOCKET_HT;
import static io.jkubelet.core.cm.cpumanager.Topologies.SINGLE_SOCKET_HT;
import static io.jkubelet.core.cm.cpumanager.Topologies.TWO_CORES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The static policy's decisions on described machines, as upstream's {@code policy_static_test.go} has them. */
class StaticPolicyTest {

    static Container container(String name, String cpu) {
        Map<String, Quantity> r = Map.of("cpu", new Quantity(cpu), "memory", new Quantity("100Mi"));
        return new ContainerBuilder().withName(name).withImage("i").withNewResources().withRequests(r).withLimits(r)
                .endResources().build();
    }

    static Pod pod(String uid, Container... containers) {
        return new PodBuilder().withNewMetadata().withName("p-" + uid).withNamespace("default").withUid(uid).endMetadata()
                .withNewSpec().withContainers(containers).endSpec().build();
    }

    static CpuManagerState started(StaticPolicy policy) {
        CpuManagerState s = new CpuManagerState();
        policy.start(s);
        return s;
    }

    @Test
    void onThisMachineReservingCpu0AGuaranteedPodOfOneCpuGetsCpu1AndGivesItBack() throws Exception {
        StaticPolicy policy = new StaticPolicy(TWO_CORES, 1, CpuSet.parse("0"), StaticPolicyOptions.NONE);
        CpuManagerState s = started(policy);
        assertThat(s.defaultCpuSet()).hasToString("0-1");

        Pod guaranteed = pod("g", container("app", "1"));
        policy.allocate(s, guaranteed, guaranteed.getSpec().getContainers().getFirst(), null);
        assertThat(s.cpuSet("g", "app")).hasToString("1");
        assertThat(s.defaultCpuSet()).hasToString("0");

        policy.removeContainer(s, "g", "app");
        assertThat(s.cpuSet("g", "app")).isNull();
        assertThat(s.defaultCpuSet()).hasToString("0-1");
    }

    @Test
    void fractionalAndNonGuaranteedContainersStayOnTheSharedPool() throws Exception {
        StaticPolicy policy = new StaticPolicy(SINGLE_SOCKET_HT, 1, CpuSet.EMPTY, StaticPolicyOptions.NONE);
        CpuManagerState s = started(policy);
        Pod fractional = pod("f", container("app", "1500m"));
        policy.allocate(s, fractional, fractional.getSpec().getContainers().getFirst(), null);
        Container burstable = new ContainerBuilder(container("app", "2")).editResources().withLimits(Map.of()).endResources()
                .build();
        Pod b = pod("b", burstable);
        policy.allocate(s, b, burstable, null);
        assertThat(s.assignments()).isEmpty();
        assertThat(s.defaultCpuSet()).hasToString("0-7");
    }

    @Test
    void theReservedQuantityIsTakenByTopologyFromTheLowestCoresAndKeptFromExclusiveUse() throws Exception {
        StaticPolicy policy = new StaticPolicy(SINGLE_SOCKET_HT, 2, CpuSet.EMPTY, StaticPolicyOptions.NONE);
        assertThat(policy.reserved()).hasToString("0,4");
        CpuManagerState s = started(policy);
        Pod p = pod("p", container("app", "6"));
        policy.allocate(s, p, p.getSpec().getContainers().getFirst(), null);
        assertThat(s.cpuSet("p", "app")).hasToString("1-3,5-7");
        assertThat(s.defaultCpuSet()).hasToString("0,4");

        Pod more = pod("q", container("app", "1"));
        assertThatThrownBy(() -> policy.allocate(s, more, more.getSpec().getContainers().getFirst(), null))
                .hasMessage("not enough cpus available to satisfy request: requested=1, available=0");
    }

    @Test
    void aReservationThatCannotBeHadIsRefusedWithUpstreamsMessage() {
        assertThatThrownBy(() -> new StaticPolicy(TWO_CORES, 3, CpuSet.EMPTY, StaticPolicyOptions.NONE))
                .hasMessage("[cpumanager] unable to reserve the required amount of CPUs (size of  did not equal 3)");
    }

    @Test
    void anInitContainersCpusAreGivenAgainToTheAppContainerAfterIt() throws Exception {
        StaticPolicy policy = new StaticPolicy(DUAL_SOCKET_HT, 1, CpuSet.EMPTY, StaticPolicyOptions.NONE);
        CpuManagerState s = started(policy);
        Container init = container("init", "4");
        Container app = container("app", "4");
        Pod p = new PodBuilder(pod("p", app)).editSpec().withInitContainers(init).endSpec().build();
        policy.allocate(s, p, init, null);
        policy.allocate(s, p, app, null);
        assertThat(s.cpuSet("p", "app")).isEqualTo(s.cpuSet("p", "init"));
        assertThat(s.cpuSet("p", "app").size()).isEqualTo(4);
    }

    @Test
    void aNumaAffinityIsTakenFromFirst() throws Exception {
        StaticPolicy policy = new StaticPolicy(DUAL_SOCKET_HT, 1, CpuSet.EMPTY, StaticPolicyOptions.NONE);
        CpuManagerState s = started(policy);
        Pod p = pod("p", container("app", "2"));
        policy.allocate(s, p, p.getSpec().getContainers().getFirst(), io.jkubelet.core.cm.topologymanager.BitMask.of(1));
        assertThat(s.cpuSet("p", "app")).hasToString("1,7");
    }

    @Test
    void fullPcpusOnlyRefusesAnOddRequestOnAHyperthreadedMachineAsSmtAlignmentError() {
        StaticPolicy policy = new StaticPolicy(SINGLE_SOCKET_HT, 1, CpuSet.EMPTY, new StaticPolicyOptions(true));
        CpuManagerState s = started(policy);
        Pod p = pod("p", container("app", "3"));
        assertThatThrownBy(() -> policy.allocate(s, p, p.getSpec().getContainers().getFirst(), null))
                .isInstanceOfSatisfying(AdmissionError.class, e -> assertThat(e.type()).isEqualTo("SMTAlignmentError"))
                .hasMessage("SMT Alignment Error: requested 3 cpus not multiple cpus per core = 2");
    }

    @Test
    void fullPcpusOnlyKeepsTheReservedCpusWholeCoresFromExclusiveUse() {
        // Reserving CPU 0 alone takes its core (0,4): 6 CPUs of whole cores are left, not 7.
        StaticPolicy policy = new StaticPolicy(SINGLE_SOCKET_HT, 1, CpuSet.EMPTY, new StaticPolicyOptions(true));
        CpuManagerState s = started(policy);
        Pod p = pod("p", container("app", "8"));
        assertThatThrownBy(() -> policy.allocate(s, p, p.getSpec().getContainers().getFirst(), null))
                .hasMessage("SMT Alignment Error: not enough free physical CPUs: available physical CPUs = 6, "
                        + "requested CPUs = 8, CPUs per core = 2");
    }

    @Test
    void aStateThatDoesNotMatchThePolicyRefusesTheStartWithUpstreamsMessages() {
        StaticPolicy policy = new StaticPolicy(TWO_CORES, 1, CpuSet.parse("0"), StaticPolicyOptions.NONE);
        CpuManagerState reservedTaken = new CpuManagerState();
        reservedTaken.setDefaultCpuSet(CpuSet.parse("1"));
        reservedTaken.setCpuSet("p", "c", CpuSet.parse("0"));
        assertThatThrownBy(() -> policy.start(reservedTaken))
                .hasMessage("not all reserved cpus: \"0\" are present in defaultCpuSet: \"1\"");

        CpuManagerState overlap = new CpuManagerState();
        overlap.setDefaultCpuSet(CpuSet.parse("0-1"));
        overlap.setCpuSet("p", "c", CpuSet.parse("1"));
        assertThatThrownBy(() -> policy.start(overlap))
                .hasMessage("pod: p, container: c cpuset: \"1\" overlaps with default cpuset \"0-1\"");

        CpuManagerState otherMachine = new CpuManagerState();
        otherMachine.setDefaultCpuSet(CpuSet.parse("0-3"));
        assertThatThrownBy(() -> policy.start(otherMachine))
                .hasMessage("current set of available CPUs \"0-1\" doesn't match with CPUs in state \"0-3\"");

        CpuManagerState noDefault = new CpuManagerState();
        noDefault.setCpuSet("p", "c", CpuSet.parse("1"));
        assertThatThrownBy(() -> policy.start(noDefault)).hasMessage("default cpuset cannot be empty");
    }

    @Test
    void optionsAsUpstreamParsesThem() {
        assertThat(StaticPolicyOptions.parse(Map.of("full-pcpus-only", "true")).fullPhysicalCpusOnly()).isTrue();
        assertThatThrownBy(() -> StaticPolicyOptions.parse(Map.of("full-pcpus-only", "yes")))
                .hasMessage("bad value for option \"full-pcpus-only\": strconv.ParseBool: parsing \"yes\": invalid syntax");
        assertThatThrownBy(() -> StaticPolicyOptions.parse(Map.of("distribute-cpus-across-numa", "true")))
                .hasMessage("CPU Manager Policy Alpha-level Options not enabled, but option \"distribute-cpus-across-numa\""
                        + " provided");
        assertThatThrownBy(() -> StaticPolicyOptions.parse(Map.of("x", "true")))
                .hasMessage("unknown CPU Manager Policy option: \"x\"");
    }
}
