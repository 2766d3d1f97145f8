package io.jkubelet.cmd;

import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.apis.config.CpuSet;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.apis.config.KubeletConfigurationDefaults;
import io.jkubelet.core.cm.NodeConfig;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** reservedSystemCPUs reserves its CPUs in place of kubeReserved's and systemReserved's cpu, as upstream's server.go. */
class ReservedCpusTest {
    private static KubeletConfiguration.Builder defaults() {
        return KubeletConfiguration.builder().from(KubeletConfigurationDefaults.newDefaulted());
    }

    @Test
    void theReservedCpusReplaceTheCpuOfBothReservationsAndLeaveTheNodeThatManyFewer() throws Exception {
        KubeletConfiguration config = ReservedCpus.apply(defaults().reservedSystemCPUs("0-1")
                .kubeReserved(Map.of("cpu", "500m", "memory", "1Gi")).systemReserved(Map.of("cpu", "250m")).build(),
                CpuSet.parse("0-3"));

        assertThat(config.systemReserved()).containsExactly(Map.entry("cpu", "2"));
        assertThat(config.kubeReserved()).containsExactly(Map.entry("memory", "1Gi"));
        Map<String, BigDecimal> allocatable = NodeConfig.from(config).nodeAllocatable()
                .allocatable(Map.of("cpu", new Quantity("4"), "memory", new Quantity("8Gi")));
        assertThat(allocatable.get("cpu")).isEqualByComparingTo("2");
    }

    @Test
    void cpusThatAreNotOnlineStopTheStartInUpstreamsWords() {
        assertThatThrownBy(() -> ReservedCpus.apply(defaults().reservedSystemCPUs("2-5").build(), CpuSet.parse("0-3")))
                .isInstanceOf(FlagsException.class).hasMessage("reserved-cpus: 2-5 is not a subset of online-cpus: 0-3");
    }

    @Test
    void withoutReservedCpusNothingChanges() throws Exception {
        KubeletConfiguration config = defaults().kubeReserved(Map.of("cpu", "500m")).build();

        assertThat(ReservedCpus.apply(config, CpuSet.parse("0-3"))).isSameAs(config);
    }
}
