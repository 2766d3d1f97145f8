package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.podutil.Resources;

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
public record ContainerCgroups(Function<Pod, String> cgroupParent, boolean cpuCfsQuota, long cpuCfsQuotaPeriodUs) {
    /** The runtime's default cgroups, CPU limits enforced over 100 ms. */
    public static final ContainerCgroups DEFAULT = new ContainerCgroups(pod -> "", true, Resources.QUOTA_PERIOD_US);
}
