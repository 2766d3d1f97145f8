package io.jkubelet.core.cm.cpumanager;

import io.jkubelet.core.apis.config.CpuSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.util.stream.Stream;

import static io.jkubelet.core.cm.cpumanager.Topologies.DUAL_SOCKET_HT;
import static io.jkubelet.core.cm.cpumanager.Topologies.DUAL_SOCKET_MULTI_NUMA_PER_SOCKET_HT;
import static io.jkubelet.core.cm.cpumanager.Topologies.SINGLE_SOCKET_HT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The CPUs a container gets on upstream's described machines: each answer is upstream's ({@code cpu_assignment_test.go}). */
class CpuAccumulatorTest {

    static Stream<Arguments> upstreamCases() {
        return Stream.of(
                Arguments.of("take zero cpus from single socket with HT", SINGLE_SOCKET_HT, "0-7", 0, ""),
                Arguments.of("take one cpu from single socket with HT", SINGLE_SOCKET_HT, "0-7", 1, "0"),
                Arguments.of("take one cpu, some cpus taken: the core with the fewest free first", SINGLE_SOCKET_HT,
                        "1,3,5-7", 1, "6"),
                Arguments.of("take two cpus from single socket with HT: a whole core", SINGLE_SOCKET_HT, "0-7", 2, "0,4"),
                Arguments.of("take all cpus from single socket with HT", SINGLE_SOCKET_HT, "0-7", 8, "0-7"),
                Arguments.of("take two cpus, only one core totally free", SINGLE_SOCKET_HT, "0-3,6", 2, "2,6"),
                Arguments.of("take a socket of cpus from dual socket with HT", DUAL_SOCKET_HT, "0-11", 6, "0,2,4,6,8,10"),
                Arguments.of("take one cpu from dual socket with HT - core from socket 0", DUAL_SOCKET_HT,
                        "1-5,7-11", 1, "2"),
                Arguments.of("4 full cores: 3 filling the first NUMA node, 1 from the second", DUAL_SOCKET_HT, "0-11", 8,
                        "0-2,4,6-8,10"),
                Arguments.of("a socket of a multi-NUMA-per-socket machine", DUAL_SOCKET_MULTI_NUMA_PER_SOCKET_HT, "0-79",
                        40, "0-19,40-59"),
                Arguments.of("a NUMA node of a multi-NUMA-per-socket machine", DUAL_SOCKET_MULTI_NUMA_PER_SOCKET_HT,
                        "0-79", 20, "0-9,40-49"),
                Arguments.of("a NUMA node, one NUMA node already taken", DUAL_SOCKET_MULTI_NUMA_PER_SOCKET_HT,
                        "10-39,50-79", 20, "10-19,50-59"),
                Arguments.of("a socket and a NUMA node", DUAL_SOCKET_MULTI_NUMA_PER_SOCKET_HT, "0-79", 60, "0-29,40-69"),
                Arguments.of("a socket and a NUMA node, a core taken", DUAL_SOCKET_MULTI_NUMA_PER_SOCKET_HT,
                        "1-39,41-79", 60, "10-39,50-79"),
                Arguments.of("32 full cores: 3 NUMA nodes filled and 2 cores of the fourth",
                        DUAL_SOCKET_MULTI_NUMA_PER_SOCKET_HT, "0-79", 64, "0-31,40-71"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("upstreamCases")
    void takesWhatUpstreamTakes(String description, CpuTopology topo, String available, int n, String expected) {
        assertThat(CpuAccumulator.take(topo, CpuSet.parse(available), n)).hasToString(expected);
    }

    @Test
    void refusesMoreThanAreAvailableWithUpstreamsMessage() {
        assertThatThrownBy(() -> CpuAccumulator.take(SINGLE_SOCKET_HT, CpuSet.parse("0,2,4,6"), 5))
                .hasMessage("not enough cpus available to satisfy request: requested=5, available=4");
    }
}
