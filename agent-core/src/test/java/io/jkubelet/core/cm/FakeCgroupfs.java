package io.jkubelet.core.cm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A cgroup v1 file system as plain directories under a test's folder: one hierarchy per controller, the root
 * cpuset holding CPUs and memory nodes as the kernel's does. What it cannot do is the kernel's part (interface
 * files appearing in a new cgroup, rmdir of a cgroup with files): the managers write files and remove trees alike
 * on both.
 */
public final class FakeCgroupfs {
    static final List<String> SUBSYSTEMS = List.of("cpu", "cpuacct", "cpuset", "memory", "pids", "systemd", "devices");

    final Path root;
    final Map<String, Path> mounts = new LinkedHashMap<>();

    public FakeCgroupfs(Path root) {
        this.root = root;
        try {
            for (String s : SUBSYSTEMS) {
                mounts.put(s, Files.createDirectories(root.resolve(s)));
            }
            Files.writeString(mounts.get("cpuset").resolve("cpuset.cpus"), "0-3\n");
            Files.writeString(mounts.get("cpuset").resolve("cpuset.mems"), "0\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public CgroupManager manager(CgroupDriver driver) {
        return new CgroupV1Manager(driver, mounts, List.of());
    }

    /** Makes the cgroup at {@code path} (e.g. {@code /jk}) in every hierarchy, as an operator makes a cgroup root. */
    public void mkdir(String path) {
        try {
            for (Path m : mounts.values()) {
                Files.createDirectories(m.resolve(path.substring(1)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An interface file's content, or null when it was never written. */
    public String read(String subsystem, String path, String file) {
        Path p = mounts.get(subsystem).resolve(path.substring(1)).resolve(file);
        try {
            return Files.exists(p) ? Files.readString(p).strip() : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public boolean exists(String subsystem, String path) {
        return Files.isDirectory(mounts.get(subsystem).resolve(path.substring(1)));
    }

    /** Puts a process into a cgroup's {@code cgroup.procs}, as the kernel lists it. */
    public void addProcess(String subsystem, String path, long pid) {
        try {
            Path dir = Files.createDirectories(mounts.get(subsystem).resolve(path.substring(1)));
            Files.writeString(dir.resolve("cgroup.procs"), pid + "\n", java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
