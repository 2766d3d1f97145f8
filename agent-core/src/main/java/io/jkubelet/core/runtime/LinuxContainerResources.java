package io.jkubelet.core.runtime;

/**
 * Cgroup settings of a container (CRI {@code LinuxContainerResources}); 0 or empty means "not set".
 *
 * @param cpuPeriod CFS period in microseconds
 * @param cpuQuota CFS quota in microseconds
 * @param cpuShares relative CPU weight
 * @param memoryLimitInBytes the memory limit
 * @param oomScoreAdj the container's OOM score
 * @param cpusetCpus the CPUs it may run on ({@code 0-1,3}), the CPU manager's; empty: all of its parent's
 * @param cpusetMems the NUMA nodes its memory comes from ({@code 0-1}), the memory manager's (CRI {@code cpuset_mems},
 *     Docker's {@code CpusetMems}); empty: all of its parent's
 */
public record LinuxContainerResources(long cpuPeriod, long cpuQuota, long cpuShares, long memoryLimitInBytes,
                                      int oomScoreAdj, String cpusetCpus, String cpusetMems) {

    public LinuxContainerResources {
        cpusetCpus = cpusetCpus == null ? "" : cpusetCpus;
        cpusetMems = cpusetMems == null ? "" : cpusetMems;
    }

    /** Settings on these CPUs, the memory of every NUMA node. */
    public LinuxContainerResources(long cpuPeriod, long cpuQuota, long cpuShares, long memoryLimitInBytes,
                                   int oomScoreAdj, String cpusetCpus) {
        this(cpuPeriod, cpuQuota, cpuShares, memoryLimitInBytes, oomScoreAdj, cpusetCpus, "");
    }

    /** Settings without a cpuset. */
    public LinuxContainerResources(long cpuPeriod, long cpuQuota, long cpuShares, long memoryLimitInBytes,
                                   int oomScoreAdj) {
        this(cpuPeriod, cpuQuota, cpuShares, memoryLimitInBytes, oomScoreAdj, "");
    }

    /** The same settings on these CPUs. */
    public LinuxContainerResources withCpusetCpus(String cpus) {
        return new LinuxContainerResources(cpuPeriod, cpuQuota, cpuShares, memoryLimitInBytes, oomScoreAdj, cpus,
                cpusetMems);
    }
}
