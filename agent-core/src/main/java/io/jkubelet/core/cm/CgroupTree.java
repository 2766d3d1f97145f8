package io.jkubelet.core.cm;

import io.jkubelet.cadvisor.PseudoFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * What cgroup v1 and v2 managers do alike on the cgroup file system: find a cgroup's directory in each hierarchy,
 * list its processes, remove it bottom-up, write its files.
 */
abstract sealed class CgroupTree implements CgroupManager permits CgroupV1Manager, CgroupV2Manager {
    /** How often a removal is tried: a cgroup whose last process is exiting stays busy for a moment (libcontainer's 5). */
    private static final int REMOVE_ATTEMPTS = 5;

    private final CgroupDriver driver;

    CgroupTree(CgroupDriver driver) {
        this.driver = driver;
    }

    @Override
    public CgroupDriver driver() {
        return driver;
    }

    /** The mount point of every hierarchy the cgroup has a directory in. */
    abstract Collection<Path> hierarchies();

    /** The cgroup's directory below a hierarchy's mount point. */
    Path dir(Path hierarchy, CgroupName name) {
        String p = path(name);
        String relative = p.startsWith("/") ? p.substring(1) : p;
        return relative.isEmpty() ? hierarchy : hierarchy.resolve(relative);
    }

    @Override
    public void destroy(CgroupName name) throws CgroupException {
        for (Path hierarchy : hierarchies()) {
            Path dir = dir(hierarchy, name);
            if (!dir.equals(hierarchy) && Files.isDirectory(dir)) {
                removeTree(dir, name);
            }
        }
    }

    /** rmdir from the leaves up: a cgroup directory cannot be emptied of its interface files, only removed. */
    private static void removeTree(Path dir, CgroupName name) throws CgroupException {
        List<Path> dirs = null;
        for (int attempt = 0; dirs == null; attempt++) {
            try (Stream<Path> s = Files.walk(dir)) {
                dirs = s.filter(Files::isDirectory).sorted(Comparator.reverseOrder()).toList();
            } catch (IOException | UncheckedIOException e) {
                // The walk meets a directory removed meanwhile as an error (the pod's own termination and the orphan
                // clean-up may remove one pod's cgroups at once, the runtime its containers'): walk again what is left.
                if (!Files.isDirectory(dir)) {
                    return;
                }
                if (attempt + 1 >= REMOVE_ATTEMPTS) {
                    throw new CgroupException("unable to destroy cgroup paths for cgroup " + name + " : " + e.getMessage(), e);
                }
            }
        }
        for (Path d : dirs) {
            removeDir(d, name);
        }
    }

    private static void removeDir(Path d, CgroupName name) throws CgroupException {
        IOException last = null;
        for (int attempt = 0; attempt < REMOVE_ATTEMPTS; attempt++) {
            try {
                Files.deleteIfExists(d);
                return;
            } catch (DirectoryNotEmptyException e) {
                // A real cgroup directory holds only interface files, which go with it; a plain one (a test's
                // stand-in for cgroupfs) has ordinary files that must go first.
                if (!deleteFiles(d)) {
                    last = e;
                }
            } catch (IOException e) {
                last = e; // EBUSY while the last process is exiting
            }
            pause(attempt);
        }
        throw new CgroupException("unable to destroy cgroup paths for cgroup " + name + " : failed to remove " + d
                + ": " + (last == null ? "busy" : last.getMessage()), last);
    }

    private static boolean deleteFiles(Path d) {
        try (Stream<Path> s = Files.list(d)) {
            for (Path f : s.filter(Files::isRegularFile).toList()) {
                Files.deleteIfExists(f);
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void pause(int attempt) {
        try {
            Thread.sleep(10L << attempt);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public Set<Long> pids(CgroupName name) {
        Set<Long> pids = new TreeSet<>();
        for (Path hierarchy : hierarchies()) {
            Path dir = dir(hierarchy, name);
            if (!Files.isDirectory(dir)) {
                continue; // already removed from this hierarchy
            }
            try (Stream<Path> s = Files.walk(dir)) {
                for (Path d : s.filter(Files::isDirectory).toList()) {
                    pids.addAll(procs(d));
                }
            } catch (IOException | RuntimeException e) {
                // A container cgroup removed while walking; the next destroy attempt sees the rest.
            }
        }
        return pids;
    }

    private static List<Long> procs(Path dir) {
        List<Long> out = new ArrayList<>();
        try {
            for (String line : PseudoFiles.read(dir.resolve("cgroup.procs")).split("\n")) {
                if (!line.isBlank()) {
                    out.add(Long.parseLong(line.strip()));
                }
            }
        } catch (IOException | NumberFormatException e) {
            // no procs file (or gone): nothing charged here
        }
        return out;
    }

    @Override
    public Set<String> children(CgroupName name) throws CgroupException {
        Set<String> out = new TreeSet<>();
        for (Path hierarchy : hierarchies()) {
            Path dir = dir(hierarchy, name);
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> s = Files.list(dir)) {
                s.filter(Files::isDirectory).forEach(p -> out.add(p.getFileName().toString()));
            } catch (NoSuchFileException e) {
                // removed meanwhile
            } catch (IOException e) {
                throw new CgroupException("failed to read the cgroup directory " + dir + " : " + e.getMessage(), e);
            }
        }
        return out;
    }

    /** Creates {@code dir} and its missing parents. */
    static void mkdirs(Path dir) throws CgroupException {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new CgroupException("failed to create cgroup " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Writes one interface file, as the kernel takes it: the value alone, no newline. */
    static void write(Path dir, String file, String value) throws CgroupException {
        try {
            Files.writeString(dir.resolve(file), value);
        } catch (IOException e) {
            throw new CgroupException("failed to write \"" + value + "\" to " + dir.resolve(file) + ": " + e.getMessage(), e);
        }
    }

    /** An interface file's content, stripped; empty when it is missing. */
    static String read(Path dir, String file) {
        try {
            return PseudoFiles.read(dir.resolve(file)).strip();
        } catch (IOException e) {
            return "";
        }
    }
}
