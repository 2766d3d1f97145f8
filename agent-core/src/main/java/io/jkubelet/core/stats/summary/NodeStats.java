package io.jkubelet.core.stats.summary;

import java.time.Instant;
import java.util.List;

/** Node-level usage (upstream {@code NodeStats}). Every field but the name and start time may be null. */
public record NodeStats(String nodeName, List<ContainerStats> systemContainers, Instant startTime, CpuStats cpu,
                        MemoryStats memory, NetworkStats network, FsStats fs, RuntimeStats runtime,
                        RlimitStats rlimit) {
    public NodeStats {
        systemContainers = systemContainers == null ? List.of() : List.copyOf(systemContainers);
    }
}
