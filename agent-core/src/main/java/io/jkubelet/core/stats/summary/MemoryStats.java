package io.jkubelet.core.stats.summary;

import java.time.Instant;

/** Upstream {@code MemoryStats}; {@code availableBytes} (limit minus working set) only when there is a limit. */
public record MemoryStats(Instant time, Long availableBytes, Long usageBytes, Long workingSetBytes, Long rssBytes,
                          Long pageFaults, Long majorPageFaults) {}
