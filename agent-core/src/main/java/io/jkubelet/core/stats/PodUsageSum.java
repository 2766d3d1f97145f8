package io.jkubelet.core.stats;

import io.jkubelet.core.runtime.ContainerStats;
import io.jkubelet.core.runtime.CpuUsage;
import io.jkubelet.core.runtime.MemoryUsage;
import io.jkubelet.core.stats.summary.MemoryStats;

import java.time.Instant;
import java.util.List;

/**
 * What a pod's containers add up to, its sandbox's own container included: CPU and memory as upstream's
 * {@code addPodCPUMemoryStats} sums them when it reads no pod cgroup, and the process count as {@code addProcessStats}
 * merges it. A part that no container reported is {@code null}; each sum takes the time of the last reading it added.
 */
record PodUsageSum(Cpu cpu, Memory memory, Long processCount) {

    /** The containers' cumulative CPU time. */
    record Cpu(Instant time, long usageCoreNanoSeconds) {
        Cpu plus(CpuUsage c) {
            return new Cpu(c.timestamp(), usageCoreNanoSeconds + c.usageCoreNanoSeconds());
        }
    }

    /** The containers' memory counters, each summed. */
    record Memory(Instant time, long usageBytes, long workingSetBytes, long rssBytes, long pageFaults,
                  long majorPageFaults) {
        Memory plus(MemoryUsage m) {
            return new Memory(m.timestamp(), usageBytes + m.usageBytes(), workingSetBytes + m.workingSetBytes(),
                    rssBytes + m.rssBytes(), pageFaults + m.pageFaults(), majorPageFaults + m.majorPageFaults());
        }

        /** As the summary shows it: without {@code availableBytes} (upstream sums the containers' available bytes). */
        MemoryStats toStats() {
            return new MemoryStats(time, null, usageBytes, workingSetBytes, rssBytes, pageFaults, majorPageFaults);
        }
    }

    private static final Cpu NO_CPU = new Cpu(null, 0);
    private static final Memory NO_MEMORY = new Memory(null, 0, 0, 0, 0, 0);

    /** The sums over {@code containers}, in their order (so the last container read gives each sum's time). */
    static PodUsageSum of(List<ContainerStats> containers) {
        Cpu cpu = null;
        Memory memory = null;
        Long processes = null;
        for (ContainerStats c : containers) {
            if (c.cpu() != null) {
                cpu = (cpu == null ? NO_CPU : cpu).plus(c.cpu());
            }
            if (c.memory() != null) {
                memory = (memory == null ? NO_MEMORY : memory).plus(c.memory());
            }
            if (c.processCount() != null) {
                processes = (processes == null ? 0 : processes) + c.processCount();
            }
        }
        return new PodUsageSum(cpu, memory, processes);
    }
}
