package io.jkubelet.core.stats.summary;

import java.time.Instant;

/** Upstream {@code CPUStats}: the rate over the last sample window, and the cumulative time. */
public record CpuStats(Instant time, Long usageNanoCores, Long usageCoreNanoSeconds) {}
