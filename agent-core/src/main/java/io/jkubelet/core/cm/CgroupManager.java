package io.jkubelet.core.cm;

import io.jkubelet.core.podutil.Resources;

import java.util.Set;

/**
 * Creates, changes and removes cgroups by their {@link CgroupName} (upstream {@code CgroupManager}), in every
 * hierarchy the node mounts, with the driver's naming. Stateless apart from what the file system holds, so
 * thread-safe; callers keep one writer per cgroup.
 */
public interface CgroupManager {

    CgroupDriver driver();

    /** 1 (one hierarchy per controller) or 2 (the unified hierarchy). */
    int version();

    /** The cgroup's path within each hierarchy, in the driver's form (upstream {@code Name}). */
    default String path(CgroupName name) {
        return driver().path(name);
    }

    /**
     * Fails when the cgroup is missing where the kubelet needs it: in the cpu, cpuacct, cpuset, memory, pids,
     * systemd (and hugetlb) hierarchies on v1, or without those controllers on v2.
     *
     * @throws CgroupException with upstream's message ({@code cgroup ["kubepods"] has some missing paths: ...})
     */
    void validate(CgroupName name) throws CgroupException;

    default boolean exists(CgroupName name) {
        try {
            validate(name);
            return true;
        } catch (CgroupException e) {
            return false;
        }
    }

    /** Creates the cgroup (and its missing parents) in every hierarchy, then writes {@code resources}. */
    void create(CgroupName name, ResourceConfig resources) throws CgroupException;

    /** Writes {@code resources} into the existing cgroup. */
    void update(CgroupName name, ResourceConfig resources) throws CgroupException;

    /** Removes the cgroup and any cgroup below it from every hierarchy; a missing one is no error. */
    void destroy(CgroupName name) throws CgroupException;

    /** The processes in the cgroup or below it, in any hierarchy (upstream {@code Pids}). */
    Set<Long> pids(CgroupName name);

    /** The names of the cgroups directly below {@code name}, in any hierarchy; empty when it does not exist. */
    Set<String> children(CgroupName name) throws CgroupException;

    /** Gives the cgroup the fewest CPU shares, for a pod that is stopped but not yet removed (upstream {@code ReduceCPULimits}). */
    default void reduceCpuLimits(CgroupName name) throws CgroupException {
        update(name, ResourceConfig.cpuShares(Resources.MIN_SHARES));
    }
}
