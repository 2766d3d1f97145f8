package io.jkubelet.core.cm;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.podutil.PodResources;
import io.jkubelet.core.podutil.Resources;
import io.jkubelet.core.qos.QosClass;

import java.util.Map;

/**
 * What to write into a cgroup (upstream {@code ResourceConfig}); a null field is left as it is.
 *
 * @param cpuShares {@code cpu.shares} (cgroup v2: converted to {@code cpu.weight})
 * @param cpuQuota CFS quota in microseconds per period; {@code -1} for none
 * @param cpuPeriod CFS period in microseconds
 * @param memory the memory limit in bytes; {@code -1} for none
 * @param pidsLimit the most processes; {@code -1} for none
 */
public record ResourceConfig(Long cpuShares, Long cpuQuota, Long cpuPeriod, Long memory, Long pidsLimit) {
    public static final ResourceConfig NONE = new ResourceConfig(null, null, null, null, null);

    /** The resource name of process IDs in reservations ({@code kubeReserved: {pid: "1000"}}). */
    public static final String PID = "pid";

    public static ResourceConfig cpuShares(long shares) {
        return NONE.withCpuShares(shares);
    }

    public ResourceConfig withCpuShares(long shares) {
        return new ResourceConfig(shares, cpuQuota, cpuPeriod, memory, pidsLimit);
    }

    public ResourceConfig withPidsLimit(long limit) {
        return new ResourceConfig(cpuShares, cpuQuota, cpuPeriod, memory, limit);
    }

    /**
     * A pod cgroup's limits (upstream {@code ResourceConfigForPod}): CPU shares from the pod's CPU request; a CFS
     * quota and a memory limit from its limits, for a Burstable pod only when every container sets that limit;
     * BestEffort pods get the minimum shares and nothing else.
     *
     * @param enforceCpuLimits {@code cpuCFSQuota}; false leaves the quota unlimited
     * @param cpuPeriodUs {@code cpuCFSQuotaPeriod} in microseconds
     */
    public static ResourceConfig forPod(Pod pod, boolean enforceCpuLimits, long cpuPeriodUs) {
        boolean[] declared = {true, true}; // cpu, memory: every container (with its sidecars) sets the limit
        Map<String, Long> limits = PodResources.limits(pod, each -> {
            declared[0] &= PodResources.sets(each, PodResources.CPU);
            declared[1] &= PodResources.sets(each, PodResources.MEMORY);
        });
        Map<String, Long> requests = PodResources.requests(pod);
        long shares = Resources.milliCpuToShares(requests.getOrDefault(PodResources.CPU, 0L));
        long quota = enforceCpuLimits ? Resources.milliCpuToQuota(limits.getOrDefault(PodResources.CPU, 0L), cpuPeriodUs) : -1;
        long memory = limits.getOrDefault(PodResources.MEMORY, 0L);
        return switch (QosClass.of(pod)) {
            case GUARANTEED -> new ResourceConfig(shares, quota, cpuPeriodUs, memory, null);
            case BURSTABLE -> new ResourceConfig(shares, declared[0] ? quota : null, declared[0] ? cpuPeriodUs : null,
                    declared[1] ? memory : null, null);
            case BEST_EFFORT -> cpuShares(Resources.MIN_SHARES);
        };
    }

    /**
     * The limits of a cgroup that holds reserved or allocatable resources (upstream {@code getCgroupConfig}):
     * CPU shares from {@code cpu} (millicores), the memory limit from {@code memory}, the PID limit from {@code pid}.
     */
    public static ResourceConfig forResources(Map<String, Long> amounts) {
        Long cpu = amounts.get(PodResources.CPU);
        return new ResourceConfig(cpu == null ? null : Resources.milliCpuToShares(cpu), null, null,
                amounts.get(PodResources.MEMORY), amounts.get(PID));
    }
}
