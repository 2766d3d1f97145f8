package io.jkubelet.core.cm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Cgroups on cgroup v1: one hierarchy per controller (or group of controllers), each with its own copy of the
 * cgroup's directory. Limits go to the cpu, memory and pids hierarchies; the directory is created and removed in
 * every hierarchy, as runc creates a container's.
 */
final class CgroupV1Manager extends CgroupTree {
    /** The hierarchies upstream checks a cgroup exists in; the rest (devices, freezer, ...) are runc's business. */
    private static final List<String> CHECKED = List.of("cpu", "cpuacct", "cpuset", "memory", "systemd", "pids", "hugetlb");

    private final Map<String, Path> mounts;
    private final Set<Path> hierarchies;

    /**
     * @param mounts each mounted subsystem's mount point ({@code cpu} → {@code /sys/fs/cgroup/cpu}, {@code systemd}
     *     for {@code name=systemd}); co-mounted subsystems share one
     * @param others more hierarchies to create and remove the directory in without writing limits there (the
     *     unified hierarchy of a hybrid host, where runc creates containers too)
     */
    CgroupV1Manager(CgroupDriver driver, Map<String, Path> mounts, Collection<Path> others) {
        super(driver);
        this.mounts = new TreeMap<>(mounts);
        this.hierarchies = new LinkedHashSet<>(mounts.values());
        this.hierarchies.addAll(others);
    }

    @Override
    public int version() {
        return 1;
    }

    @Override
    Collection<Path> hierarchies() {
        return hierarchies;
    }

    @Override
    public void validate(CgroupName name) throws CgroupException {
        List<String> missing = new ArrayList<>();
        for (String subsystem : CHECKED) {
            Path mount = mounts.get(subsystem);
            if (mount != null && !Files.isDirectory(dir(mount, name))) {
                missing.add(dir(mount, name).toString());
            }
        }
        if (!missing.isEmpty()) {
            throw new CgroupException("cgroup " + name + " has some missing paths: " + String.join(", ", missing));
        }
    }

    @Override
    public void create(CgroupName name, ResourceConfig resources) throws CgroupException {
        for (Path hierarchy : hierarchies) {
            mkdirs(dir(hierarchy, name));
        }
        Path cpuset = mounts.get("cpuset");
        if (cpuset != null) {
            inheritCpuset(cpuset, name);
        }
        update(name, resources);
    }

    /**
     * A new cpuset cgroup starts with no CPUs and no memory nodes, and no process can join it until it has some:
     * each level takes its parent's, as libcontainer's cpuset does.
     */
    private void inheritCpuset(Path mount, CgroupName name) throws CgroupException {
        Path dir = dir(mount, name);
        List<Path> levels = new ArrayList<>();
        for (Path p = dir; p != null && !p.equals(mount) && p.startsWith(mount); p = p.getParent()) {
            levels.addFirst(p);
        }
        for (Path level : levels) {
            for (String file : List.of("cpuset.cpus", "cpuset.mems")) {
                String parent = read(level.getParent(), file);
                if (read(level, file).isEmpty() && !parent.isEmpty()) {
                    write(level, file, parent);
                }
            }
        }
    }

    @Override
    public void update(CgroupName name, ResourceConfig r) throws CgroupException {
        Path cpu = mounts.get("cpu");
        if (cpu != null) {
            setCpu(dir(cpu, name), r);
        }
        Path memory = mounts.get("memory");
        if (memory != null && r.memory() != null && r.memory() != 0) {
            write(dir(memory, name), "memory.limit_in_bytes", Long.toString(r.memory()));
        }
        Path pids = mounts.get("pids");
        if (pids != null && r.pidsLimit() != null && r.pidsLimit() != 0) {
            write(dir(pids, name), "pids.max", r.pidsLimit() > 0 ? Long.toString(r.pidsLimit()) : "max");
        }
    }

    /**
     * Shares, then period, then quota, as libcontainer writes them; a period the kernel refuses before the quota
     * is lowered (the old quota over the new period would exceed the parent's) is written again after it.
     */
    private static void setCpu(Path dir, ResourceConfig r) throws CgroupException {
        if (r.cpuShares() != null && r.cpuShares() != 0) {
            write(dir, "cpu.shares", Long.toString(r.cpuShares()));
        }
        boolean periodPending = false;
        if (r.cpuPeriod() != null && r.cpuPeriod() != 0) {
            try {
                write(dir, "cpu.cfs_period_us", Long.toString(r.cpuPeriod()));
            } catch (CgroupException e) {
                if (r.cpuQuota() == null || r.cpuQuota() == 0) {
                    throw e;
                }
                periodPending = true;
            }
        }
        if (r.cpuQuota() != null && r.cpuQuota() != 0) {
            write(dir, "cpu.cfs_quota_us", Long.toString(r.cpuQuota()));
            if (periodPending) {
                write(dir, "cpu.cfs_period_us", Long.toString(r.cpuPeriod()));
            }
        }
    }
}
