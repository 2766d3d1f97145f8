package io.jkubelet.cadvisor;

/**
 * One reading of a cgroup's counters, in cAdvisor's terms. A value the hierarchy does not provide is -1.
 *
 * @param cpuUsageNanos cumulative CPU time of all the cgroup's tasks
 * @param memoryUsageBytes everything charged, page cache included
 * @param workingSetBytes usage minus inactive file cache, never below 0 (cAdvisor's working set)
 * @param rssBytes anonymous memory (v1 {@code total_rss}, v2 {@code anon})
 * @param memoryLimitBytes the limit, -1 when unlimited
 * @param processCount {@code pids.current}
 * @param cpuShares {@code cpu.shares} (v2: derived from {@code cpu.weight} as cAdvisor does)
 * @param cpuQuotaMicros {@code cpu.cfs_quota_us} / first field of {@code cpu.max}; -1 when unlimited
 * @param cpuPeriodMicros {@code cpu.cfs_period_us} / second field of {@code cpu.max}
 */
public record CgroupSample(long cpuUsageNanos, long memoryUsageBytes, long workingSetBytes, long rssBytes,
                           long pageFaults, long majorPageFaults, long memoryLimitBytes, long processCount,
                           long cpuShares, long cpuQuotaMicros, long cpuPeriodMicros) {

    /** {@code pids.current}, or null when unknown. */
    public Long processes() {
        return processCount < 0 ? null : processCount;
    }
}
