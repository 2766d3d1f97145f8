package io.jkubelet.core.runtime;

import java.time.Instant;

/**
 * Memory usage of a container or sandbox (CRI {@code MemoryUsage}), with cAdvisor's definitions.
 *
 * @param workingSetBytes usage minus inactive file cache: what the kernel cannot reclaim easily, and what
 *     eviction and {@code kubectl top} look at
 * @param usageBytes everything charged to the cgroup, page cache included
 * @param rssBytes anonymous memory and swap cache
 * @param limitBytes the cgroup's limit, or {@code null} when it has none (then {@code availableBytes} is omitted)
 */
public record MemoryUsage(Instant timestamp, long workingSetBytes, long usageBytes, long rssBytes, long pageFaults,
                          long majorPageFaults, Long limitBytes) {}
