package io.jkubelet.core.stats.summary;

import java.time.Instant;

/**
 * Container-level usage (upstream {@code ContainerStats}). Accelerators and user-defined metrics are not
 * collected, so they are always omitted.
 */
public record ContainerStats(String name, Instant startTime, CpuStats cpu, MemoryStats memory, FsStats rootfs,
                             FsStats logs) {
    ContainerStats onlyCpuAndMemory() {
        return new ContainerStats(name, startTime, cpu, memory, null, null);
    }
}
