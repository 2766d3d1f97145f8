package io.jkubelet.core.cm.cpumanager;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The topology read from a sysfs tree laid out as a kernel lays out upstream's dual-socket machine. */
class SysfsTopologyTest {
    @TempDir
    Path sys;

    @Test
    void aDualSocketHyperthreadedMachineReadsAsUpstreamDescribesIt() throws Exception {
        Path cpus = Files.createDirectories(sys.resolve("devices/system/cpu"));
        Files.writeString(cpus.resolve("online"), "0-11\n");
        for (int cpu = 0; cpu < 12; cpu++) {
            Path dir = Files.createDirectories(cpus.resolve("cpu" + cpu + "/topology"));
            int socket = cpu % 2;
            int core = cpu % 6;
            Files.writeString(dir.resolve("physical_package_id"), socket + "\n");
            Files.writeString(dir.resolve("thread_siblings_list"), core + "," + (core + 6) + "\n");
            Files.createDirectories(cpus.resolve("cpu" + cpu + "/node" + socket));
        }
        CpuTopology topo = SysfsTopology.read(sys);
        assertThat(topo).isEqualTo(Topologies.DUAL_SOCKET_HT);
        assertThat(topo.cpusPerCore()).isEqualTo(2);
        assertThat(topo.cpusPerSocket()).isEqualTo(6);
        assertThat(topo.numNumaNodes()).isEqualTo(2);
    }

    @Test
    void aMachineWithoutNumaIsOneNode() throws Exception {
        Path cpus = Files.createDirectories(sys.resolve("devices/system/cpu"));
        Files.writeString(cpus.resolve("online"), "0-1\n");
        for (int cpu = 0; cpu < 2; cpu++) {
            Path dir = Files.createDirectories(cpus.resolve("cpu" + cpu + "/topology"));
            Files.writeString(dir.resolve("physical_package_id"), "0\n");
            Files.writeString(dir.resolve("thread_siblings_list"), cpu + "\n");
        }
        assertThat(SysfsTopology.read(sys)).isEqualTo(Topologies.TWO_CORES);
    }
}
