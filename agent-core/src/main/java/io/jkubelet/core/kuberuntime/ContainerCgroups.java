package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.podutil.Resources;

import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Where a pod's sandbox and containers go in the cgroup tree, and whether their CPU limits are enforced (upstream
 * {@code runtimeHelper.GetPodCgroupParent} and the runtime manager's {@code cpuCFSQuota}, {@code cpuCFSQuotaPeriod}).
 *
 * @param cgroupParent the pod's cgroup as the runtime names it (the CRI {@code cgroup_parent}); empty for the
 *     runtime's default
 * @param cpuCfsQuota {@code cpuCFSQuota}: a container's CPU limit becomes a CFS quota
 * @param cpuCfsQuotaPeriodUs {@code cpuCFSQuotaPeriod} in microseconds
 */
public record ContainerCgroups(Function<Pod, String> cgroupParent, boolean cpuCfsQuota, long cpuCfsQuotaPeriodUs,
                               BiFunction<Pod, Container, String> cpusetCpus,
                               BiFunction<Pod, Container, String> cpusetMems) {
    /** The runtime's default cgroups, CPU limits enforced over 100 ms. */
    public static final ContainerCgroups DEFAULT = new ContainerCgroups(pod -> "", true, Resources.QUOTA_PERIOD_US);

    /** No cpuset of the kubelet's: the container runs on its parent's CPUs. */
    public ContainerCgroups(Function<Pod, String> cgroupParent, boolean cpuCfsQuota, long cpuCfsQuotaPeriodUs) {
        this(cgroupParent, cpuCfsQuota, cpuCfsQuotaPeriodUs, (pod, c) -> "", (pod, c) -> "");
    }

    /** The same with the CPU manager's CPUs for each container (upstream's {@code PreCreateContainer}). */
    public ContainerCgroups withCpusetCpus(BiFunction<Pod, Container, String> cpus) {
        return new ContainerCgroups(cgroupParent, cpuCfsQuota, cpuCfsQuotaPeriodUs, cpus, cpusetMems);
    }

    /**
     * The same with the memory manager's NUMA nodes for each container's {@code cpuset.mems} (upstream's
     * {@code PreCreateContainer}: {@code GetMemoryNUMANodes}); empty: every node.
     */
    public ContainerCgroups withCpusetMems(BiFunction<Pod, Container, String> mems) {
        return new ContainerCgroups(cgroupParent, cpuCfsQuota, cpuCfsQuotaPeriodUs, cpusetCpus, mems);
    }
}
