package io.jkubelet.core.cm;

import io.fabric8.kubernetes.api.model.Pod;

import java.util.Map;

/**
 * Each pod's own cgroup (upstream {@code PodContainerManager}): {@code pod<uid>} below its QoS cgroup, holding the
 * pod's sandbox and containers, limited to what they add up to. With {@code cgroupsPerQOS=false} nothing is created
 * and containers go wherever the runtime puts them.
 */
public interface PodContainerManager {

    /** Whether the pod's cgroup exists. */
    boolean exists(Pod pod);

    /** Creates the pod's cgroup with its limits unless it exists; an existing one is left as it is. */
    void ensureExists(Pod pod) throws CgroupException;

    /** The pod's cgroup. */
    CgroupName name(Pod pod);

    /**
     * The pod's cgroup as a path in the driver's form, the CRI sandbox's {@code cgroup_parent} (upstream
     * {@code GetPodCgroupParent}); empty when there are no pod cgroups.
     */
    String cgroupParent(Pod pod);

    /** Kills what still runs in the pod's cgroup, then removes it. */
    void destroy(CgroupName podCgroup) throws CgroupException;

    /** Gives a stopped pod's cgroup the fewest CPU shares until it can be removed. */
    void reduceCpuLimits(CgroupName podCgroup) throws CgroupException;

    /** Every pod cgroup found below the QoS cgroups, by pod UID (upstream {@code GetAllPodsFromCgroups}). */
    Map<String, CgroupName> allPodsFromCgroups() throws CgroupException;

    /** No pod cgroups ({@code cgroupsPerQOS=false}): every pod's cgroup "exists" and has no path. */
    PodContainerManager NOOP = new PodContainerManager() {
        @Override
        public boolean exists(Pod pod) {
            return true;
        }

        @Override
        public void ensureExists(Pod pod) {
        }

        @Override
        public CgroupName name(Pod pod) {
            return CgroupName.ROOT;
        }

        @Override
        public String cgroupParent(Pod pod) {
            return "";
        }

        @Override
        public void destroy(CgroupName podCgroup) {
        }

        @Override
        public void reduceCpuLimits(CgroupName podCgroup) {
        }

        @Override
        public Map<String, CgroupName> allPodsFromCgroups() {
            return Map.of();
        }
    };
}
