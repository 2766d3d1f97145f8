package io.jkubelet.core.cm;

import io.jkubelet.cadvisor.CgroupReader;
import io.jkubelet.cadvisor.PseudoFiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where this machine mounts its cgroup hierarchies (libcontainer's {@code GetCgroupMounts}, upstream
 * {@code GetCgroupSubsystems}), and the {@link CgroupManager} for them.
 */
public final class CgroupMounts {
    private static final String NAME_PREFIX = "name=";

    private CgroupMounts() {}

    /**
     * The manager for this machine: v2 when {@code /sys/fs/cgroup} is the unified hierarchy, else v1 with the
     * hierarchies {@code /proc/self/mountinfo} lists.
     *
     * @throws CgroupException when the cgroup file system cannot be read, or no hierarchy is mounted
     */
    public static CgroupManager forHost(CgroupDriver driver) throws CgroupException {
        Path root = CgroupReader.DEFAULT_ROOT;
        try {
            if (CgroupReader.CGROUP2_FS_TYPE.equals(Files.getFileStore(root).type())) {
                return new CgroupV2Manager(driver, root);
            }
            String mountinfo = PseudoFiles.read(Path.of("/proc/self/mountinfo"));
            String cgroups = PseudoFiles.read(Path.of("/proc/self/cgroup"));
            return v1(driver, mountinfo, cgroups);
        } catch (IOException e) {
            throw new CgroupException("cannot read the cgroup mounts under " + root + ": " + e.getMessage(), e);
        }
    }

    static CgroupV1Manager v1(CgroupDriver driver, String mountinfo, String procSelfCgroup) throws CgroupException {
        Set<String> known = knownSubsystems(procSelfCgroup);
        Map<String, Path> mounts = new LinkedHashMap<>();
        List<Path> unified = new ArrayList<>();
        for (String line : mountinfo.split("\n")) {
            int dash = line.indexOf(" - ");
            if (dash < 0) {
                continue;
            }
            String[] before = line.substring(0, dash).split(" ");
            String[] after = line.substring(dash + 3).split(" ");
            if (before.length < 5 || after.length < 3) {
                continue;
            }
            Path mountPoint = Path.of(before[4]);
            if (after[0].equals(CgroupReader.CGROUP2_FS_TYPE)) {
                unified.add(mountPoint); // a hybrid host's unified hierarchy: runc makes directories there too
            } else if (after[0].equals("cgroup")) {
                for (String option : after[2].split(",")) {
                    if (!known.contains(option)) {
                        continue;
                    }
                    String subsystem = option.startsWith(NAME_PREFIX) ? option.substring(NAME_PREFIX.length()) : option;
                    // The shortest mount point wins when a hierarchy is mounted twice (upstream, kubernetes#95488).
                    mounts.merge(subsystem, mountPoint,
                            (a, b) -> b.toString().length() < a.toString().length() ? b : a);
                }
            }
        }
        if (mounts.isEmpty()) {
            throw new CgroupException("failed to find cgroup mounts");
        }
        return new CgroupV1Manager(driver, mounts, unified);
    }

    /** The controllers this process's cgroup file names ({@code 4:memory:/...}, {@code 9:name=systemd:/}). */
    private static Set<String> knownSubsystems(String procSelfCgroup) {
        Set<String> known = new HashSet<>();
        for (String line : procSelfCgroup.split("\n")) {
            String[] f = line.split(":", 3);
            if (f.length == 3 && !f[1].isEmpty()) {
                known.addAll(List.of(f[1].split(",")));
            }
        }
        return known;
    }
}
