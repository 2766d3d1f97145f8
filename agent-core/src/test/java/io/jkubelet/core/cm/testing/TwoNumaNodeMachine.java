package io.jkubelet.core.cm.testing;

import io.jkubelet.core.apis.config.CpuSet;
import io.jkubelet.core.apis.config.MemoryReservation;
import io.jkubelet.core.cm.cpumanager.CpuManager;
import io.jkubelet.core.cm.cpumanager.CpuTopology;
import io.jkubelet.core.cm.memorymanager.MemoryManager;
import io.jkubelet.core.cm.memorymanager.NumaMemory;
import io.jkubelet.core.cm.topologymanager.TopologyAffinityStore;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A described machine for the resource managers: 4 CPUs on 2 NUMA nodes (CPUs 0-1 on node 0, 2-3 on node 1, each its
 * own core), CPU 0 reserved; 10Gi of memory on each node, 1Gi of each reserved ({@code reservedMemory}, node
 * allocatable's reservation 2Gi). Its managers come as agent-cmd's {@code HostSetup} makes them: not started yet.
 */
public final class TwoNumaNodeMachine {
    public static final long GI = 1L << 30;
    public static final CpuTopology CPUS = CpuTopology.of(Map.of(
            0, new CpuTopology.CpuInfo(0, 0, 0), 1, new CpuTopology.CpuInfo(0, 0, 1),
            2, new CpuTopology.CpuInfo(1, 1, 2), 3, new CpuTopology.CpuInfo(1, 1, 3)));
    /** Each node's memory, without hugepages. */
    public static final List<NumaMemory> MEMORY = List.of(NumaMemory.of(0, 10 * GI), NumaMemory.of(1, 10 * GI));
    public static final List<MemoryReservation> RESERVED_MEMORY = List.of(
            new MemoryReservation(0, Map.of("memory", "1Gi")), new MemoryReservation(1, Map.of("memory", "1Gi")));

    private TwoNumaNodeMachine() {
    }

    /** The CPU manager's {@code static} policy with CPU 0 reserved, its state in {@code root}. */
    public static CpuManager staticCpuManager(Path root, TopologyAffinityStore affinity) {
        return CpuManager.newStatic(CPUS, BigDecimal.ONE, CpuSet.parse("0"), Map.of(), root, Duration.ofSeconds(10),
                affinity);
    }

    /**
     * The memory manager's {@code Static} policy on {@code memory} (this machine's nodes, perhaps with hugepages) with
     * 1Gi reserved on each node, its state in {@code root}.
     */
    public static MemoryManager staticMemoryManager(Path root, List<NumaMemory> memory, TopologyAffinityStore affinity) {
        return MemoryManager.create("Static", memory, Map.of("memory", BigDecimal.valueOf(2 * GI)), RESERVED_MEMORY, root,
                affinity);
    }
}
