package io.jkubelet.core.cm.cpumanager;

import java.util.Map;
import java.util.TreeMap;

/** Upstream's described machines of its CPU manager tests ({@code policy_test.go}), for the decisions this one cannot show. */
final class Topologies {
    private Topologies() {}

    /** 8 CPUs, 1 socket, 4 cores: CPU n and n+4 are one core's threads. */
    static final CpuTopology SINGLE_SOCKET_HT = build(8, cpu -> new CpuTopology.CpuInfo(0, 0, cpu % 4));

    /** 12 CPUs, 2 sockets (a NUMA node each), 6 cores: even CPUs on socket 0, odd on 1; n and n+6 one core's. */
    static final CpuTopology DUAL_SOCKET_HT = build(12, cpu -> new CpuTopology.CpuInfo(cpu % 2, cpu % 2, cpu % 6));

    /** 80 CPUs, 2 sockets of 2 NUMA nodes each, 40 cores: n and n+40 one core's; NUMA node = (n mod 40) / 10. */
    static final CpuTopology DUAL_SOCKET_MULTI_NUMA_PER_SOCKET_HT = build(80,
            cpu -> new CpuTopology.CpuInfo((cpu % 40) / 10, (cpu % 40) / 20, cpu % 40));

    /** This project's test machine: 2 CPUs, one core each, 1 socket. */
    static final CpuTopology TWO_CORES = build(2, cpu -> new CpuTopology.CpuInfo(0, 0, cpu));

    private static CpuTopology build(int n, java.util.function.IntFunction<CpuTopology.CpuInfo> info) {
        Map<Integer, CpuTopology.CpuInfo> cpus = new TreeMap<>();
        for (int cpu = 0; cpu < n; cpu++) {
            cpus.put(cpu, info.apply(cpu));
        }
        return CpuTopology.of(cpus);
    }
}
