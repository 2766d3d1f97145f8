package io.jkubelet.core.cm;

import io.jkubelet.core.podutil.Resources;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Cgroups on cgroup v2: one unified hierarchy. A controller works in a cgroup only when every parent enables it
 * for its children ({@code cgroup.subtree_control}), which creating a cgroup does, as runc's fs2 does.
 */
final class CgroupV2Manager extends CgroupTree {
    /** The controllers the kubelet uses, as far as the kernel has them (upstream {@code getSupportedUnifiedControllers}). */
    private static final List<String> NEEDED = List.of("cpu", "cpuset", "hugetlb", "memory", "pids");
    /** cgroup v2's CPU weight range is [1, 10000] where v1's shares are [2, 262144]. */
    private static final long MAX_WEIGHT = 10_000;
    private static final long MAX_SHARES = 262_144;

    private final Path root;

    CgroupV2Manager(CgroupDriver driver, Path root) {
        super(driver);
        this.root = root;
    }

    @Override
    public int version() {
        return 2;
    }

    @Override
    Collection<Path> hierarchies() {
        return List.of(root);
    }

    private Set<String> controllers(Path dir) {
        return new LinkedHashSet<>(Arrays.asList(read(dir, "cgroup.controllers").split("\\s+")));
    }

    @Override
    public void validate(CgroupName name) throws CgroupException {
        Path dir = dir(root, name);
        if (!Files.exists(dir.resolve("cgroup.controllers"))) {
            throw new CgroupException("could not read controllers for cgroup " + name + ": open "
                    + dir.resolve("cgroup.controllers") + ": no such file or directory");
        }
        Set<String> available = controllers(root);
        Set<String> enabled = controllers(dir);
        List<String> missing = NEEDED.stream().filter(available::contains).filter(c -> !enabled.contains(c)).toList();
        if (!missing.isEmpty()) {
            throw new CgroupException("cgroup " + name + " has some missing controllers: " + String.join(", ", missing));
        }
    }

    @Override
    public void create(CgroupName name, ResourceConfig resources) throws CgroupException {
        Path dir = dir(root, name);
        List<Path> parents = new ArrayList<>();
        for (Path p = dir.getParent(); p != null && p.startsWith(root); p = p.getParent()) {
            parents.addFirst(p);
        }
        String enable = String.join(" ", controllers(root).stream().filter(c -> !c.isEmpty()).map(c -> "+" + c).toList());
        for (Path parent : parents) {
            mkdirs(parent);
            enableControllers(parent, enable);
        }
        mkdirs(dir);
        update(name, resources);
    }

    /** All at once, else one by one: a controller the kernel will not delegate here must not stop the others. */
    private static void enableControllers(Path dir, String enable) {
        if (enable.isEmpty()) {
            return;
        }
        try {
            write(dir, "cgroup.subtree_control", enable);
        } catch (CgroupException e) {
            for (String one : enable.split(" ")) {
                try {
                    write(dir, "cgroup.subtree_control", one);
                } catch (CgroupException ignored) {
                    // Caught where a limit of that controller is written.
                }
            }
        }
    }

    @Override
    public void update(CgroupName name, ResourceConfig r) throws CgroupException {
        Path dir = dir(root, name);
        if (r.cpuShares() != null && r.cpuShares() != 0) {
            write(dir, "cpu.weight", Long.toString(cpuWeight(r.cpuShares())));
        }
        boolean quota = r.cpuQuota() != null && r.cpuQuota() != 0;
        boolean period = r.cpuPeriod() != null && r.cpuPeriod() != 0;
        if (quota || period) {
            String max = quota && r.cpuQuota() > 0 ? Long.toString(r.cpuQuota()) : "max";
            write(dir, "cpu.max", period ? max + " " + r.cpuPeriod() : max);
        }
        if (r.memory() != null && r.memory() != 0) {
            write(dir, "memory.max", r.memory() > 0 ? Long.toString(r.memory()) : "max");
        }
        if (r.pidsLimit() != null && r.pidsLimit() != 0) {
            write(dir, "pids.max", r.pidsLimit() > 0 ? Long.toString(r.pidsLimit()) : "max");
        }
    }

    /** v1 shares to a v2 weight (upstream {@code getCPUWeight}): 2 → 1, 1024 → 39, 262144 → 10000. */
    static long cpuWeight(long shares) {
        if (shares >= MAX_SHARES) {
            return MAX_WEIGHT;
        }
        return 1 + (Math.max(shares, Resources.MIN_SHARES) - 2) * 9999 / 262142;
    }
}
