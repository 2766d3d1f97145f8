package io.jkubelet.core.cm.cpumanager;

import io.jkubelet.core.apis.config.CpuSet;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * The machine's CPU topology from sysfs, what cAdvisor's {@code MachineInfo.Topology} gives upstream's
 * {@code topology.Discover}: each online CPU's socket ({@code topology/physical_package_id}), its core's threads
 * ({@code topology/thread_siblings_list}, the core named by the lowest of them) and its NUMA node (the
 * {@code node<N>} entry in the CPU's directory; node 0 on a kernel without NUMA).
 */
public final class SysfsTopology {
    private SysfsTopology() {}

    /** Reads {@code <sys>/devices/system/cpu}. */
    public static CpuTopology read(Path sys) throws IOException {
        Path cpuDir = sys.resolve("devices/system/cpu");
        CpuSet online = CpuSet.parse(Files.readString(cpuDir.resolve("online")).strip());
        Map<Integer, CpuTopology.CpuInfo> cpus = new TreeMap<>();
        for (int cpu : online.cpus()) {
            Path dir = cpuDir.resolve("cpu" + cpu);
            int socket = Integer.parseInt(Files.readString(dir.resolve("topology/physical_package_id")).strip());
            CpuSet siblings = CpuSet.parse(Files.readString(dir.resolve("topology/thread_siblings_list")).strip());
            int core = siblings.isEmpty() ? cpu : siblings.cpus().first();
            cpus.put(cpu, new CpuTopology.CpuInfo(numaNode(dir), socket, core));
        }
        return CpuTopology.of(cpus);
    }

    private static int numaNode(Path cpuDir) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(cpuDir, "node[0-9]*")) {
            for (Path e : entries) {
                return Integer.parseInt(e.getFileName().toString().substring("node".length()));
            }
        }
        return 0;
    }
}
