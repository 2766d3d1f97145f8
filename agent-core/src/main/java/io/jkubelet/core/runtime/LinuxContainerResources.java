package io.jkubelet.core.runtime;

/**
 * Cgroup settings of a container (CRI {@code LinuxContainerResources}); 0 means "not set".
 *
 * @param cpuPeriod CFS period in microseconds
 * @param cpuQuota CFS quota in microseconds
 * @param cpuShares relative CPU weight
 * @param memoryLimitInBytes the memory limit
 * @param oomScoreAdj the container's OOM score
 */
public record LinuxContainerResources(long cpuPeriod, long cpuQuota, long cpuShares, long memoryLimitInBytes,
                                      int oomScoreAdj) {}
