package io.jkubelet.core.runtime;

import io.jkubelet.cadvisor.CgroupSample;
import io.jkubelet.cadvisor.InterfaceStats;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** What the adapters report of a container from its cgroup and of a sandbox from its {@code net/dev}. */
class CgroupUsageTest {
    private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");

    @Test
    void aCgroupReadingBecomesThePortsUsageRecords() {
        CgroupSample s = new CgroupSample(5_000, 800, 600, 300, 9, 2, 1_000, 4, 1024, 50_000, 100_000);

        CgroupUsage usage = CgroupUsage.of(Optional.of(s), NOW);

        assertThat(usage.cpu()).isEqualTo(new CpuUsage(NOW, 5_000, null));
        assertThat(usage.memory()).isEqualTo(new MemoryUsage(NOW, 600, 800, 300, 9, 2, 1_000L));
        assertThat(usage.processCount()).isEqualTo(4L);
        assertThat(usage.spec()).isEqualTo(new ContainerResourceSpec(1024, 100_000, 50_000, 1_000));
    }

    @Test
    void whatTheHierarchyDoesNotProvideIsLeftOutOrZeroAsCadvisorReportsIt() {
        CgroupSample unlimited = new CgroupSample(-1, 800, 600, -1, -1, -1, -1, -1, -1, -1, -1);

        CgroupUsage usage = CgroupUsage.of(Optional.of(unlimited), NOW);

        assertThat(usage.cpu()).isNull();
        assertThat(usage.memory()).isEqualTo(new MemoryUsage(NOW, 600, 800, 0, 0, 0, null));
        assertThat(usage.processCount()).isNull();
        assertThat(usage.spec()).as("no limit is 0, no quota stays -1").isEqualTo(new ContainerResourceSpec(0, 0, -1, 0));
        assertThat(CgroupUsage.of(Optional.of(new CgroupSample(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1)), NOW).memory())
                .isNull();
    }

    @Test
    void aCgroupThatCannotBeReadGivesNoUsage() {
        assertThat(CgroupUsage.of(Optional.empty(), NOW)).isEqualTo(new CgroupUsage(null, null, null, null));
    }

    @Test
    void netDevCountersBecomeTheSandboxsNetworkUsageInTheKernelsOrder() {
        NetworkUsage usage = NetworkUsage.of(NOW, List.of(new InterfaceStats("eth1", 1, 2, 3, 4),
                new InterfaceStats("eth0", 5, 6, 7, 8)));

        assertThat(usage).isEqualTo(new NetworkUsage(NOW, List.of(new NetworkInterfaceUsage("eth1", 1, 2, 3, 4),
                new NetworkInterfaceUsage("eth0", 5, 6, 7, 8))));
    }
}
