package io.jkubelet.core.runtime;

/**
 * The cgroup settings of a container as the kernel holds them, for cAdvisor's {@code container_spec_*} metrics.
 *
 * @param cpuShares cgroup v1 {@code cpu.shares} (on v2 converted back from {@code cpu.weight}, as cAdvisor does)
 * @param cpuPeriod CFS period in microseconds
 * @param cpuQuota CFS quota in microseconds, {@code -1} for none
 * @param memoryLimitBytes {@code 0} for none, as cAdvisor reports an unlimited container
 */
public record ContainerResourceSpec(long cpuShares, long cpuPeriod, long cpuQuota, long memoryLimitBytes) {}
