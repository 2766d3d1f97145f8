package io.jkubelet.core.runtime;

import java.time.Instant;

/**
 * CPU usage of a container or sandbox (CRI {@code CpuUsage}).
 *
 * @param timestamp when the counter was read
 * @param usageCoreNanoSeconds cumulative CPU time of all cores since the cgroup was created
 * @param usageNanoCores the average rate over the last sample window, or {@code null} when the runtime does not
 *     compute it (the kubelet then derives it from two samples, as upstream does for such runtimes)
 */
public record CpuUsage(Instant timestamp, long usageCoreNanoSeconds, Long usageNanoCores) {}
