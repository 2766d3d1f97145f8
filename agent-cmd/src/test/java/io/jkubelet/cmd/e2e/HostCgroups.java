package io.jkubelet.cmd.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The machine's cgroup hierarchies under {@code /sys/fs/cgroup} (one per controller on this cgroup v1 host), as an
 * operator reads them. Tests make and remove only trees of their own names.
 */
public final class HostCgroups {
    static final Path ROOT = Path.of("/sys/fs/cgroup");

    private HostCgroups() {}

    /** Every hierarchy's mount point: {@code cpu}, {@code memory}, ..., and the unified one of a hybrid host. */
    static List<Path> hierarchies() {
        try (Stream<Path> s = Files.list(ROOT)) {
            return s.filter(p -> Files.isRegularFile(p.resolve("cgroup.procs"))).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Makes the cgroup {@code /<name>} in every hierarchy, as an operator makes a kubelet's cgroup root. */
    public static void create(String name) {
        try {
            for (Path h : hierarchies()) {
                Files.createDirectories(h.resolve(name));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Gives the cpuset cgroup {@code /<name>} the CPUs and memory nodes of its parent, the root. */
    static void cpusetFromParent(String name) {
        Path cpuset = ROOT.resolve("cpuset");
        if (!Files.isRegularFile(cpuset.resolve("cpuset.cpus"))) {
            return;
        }
        try {
            for (String file : List.of("cpuset.cpus", "cpuset.mems")) {
                Path own = cpuset.resolve(name).resolve(file);
                if (Files.readString(own).isBlank()) {
                    Files.writeString(own, Files.readString(cpuset.resolve(file)).strip());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Removes the tree {@code /<name>} from every hierarchy, leaves first; what is not there is no error. */
    public static void removeTree(String name) {
        for (Path h : hierarchies()) {
            Path tree = h.resolve(name);
            if (!Files.isDirectory(tree)) {
                continue;
            }
            try (Stream<Path> s = Files.walk(tree)) {
                for (Path d : s.filter(Files::isDirectory).sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(d);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot remove the test's cgroup " + tree + ": " + e.getMessage(), e);
            }
        }
    }

    /** An interface file of a cgroup in one hierarchy, e.g. ("cpu", "/x/kubepods", "cpu.shares"); null if absent. */
    static String read(String hierarchy, String cgroup, String file) {
        Path p = ROOT.resolve(hierarchy).resolve(cgroup.substring(1)).resolve(file);
        try {
            return Files.exists(p) ? Files.readString(p).strip() : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static boolean exists(String hierarchy, String cgroup) {
        return Files.isDirectory(ROOT.resolve(hierarchy).resolve(cgroup.substring(1)));
    }
}
