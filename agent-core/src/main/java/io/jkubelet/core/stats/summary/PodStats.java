package io.jkubelet.core.stats.summary;

import java.time.Instant;
import java.util.List;

/** Pod-level usage (upstream {@code PodStats}); JSON names {@code volume}, {@code ephemeral-storage}, {@code process_stats}. */
public record PodStats(PodReference podRef, Instant startTime, List<ContainerStats> containers, CpuStats cpu,
                       MemoryStats memory, NetworkStats network, List<VolumeStats> volume, FsStats ephemeralStorage,
                       ProcessStats processStats) {
    public PodStats {
        containers = List.copyOf(containers);
        volume = volume == null ? List.of() : List.copyOf(volume);
    }

    PodStats onlyCpuAndMemory() {
        return new PodStats(podRef, startTime, containers.stream().map(ContainerStats::onlyCpuAndMemory).toList(),
                cpu, memory, null, List.of(), null, null);
    }
}
