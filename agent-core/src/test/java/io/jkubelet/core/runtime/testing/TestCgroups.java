package io.jkubelet.core.runtime.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;

/** Removes the cgroups a runtime made for a test's cgroup parent (cgroupfs, every v1 hierarchy or the v2 tree). */
public final class TestCgroups {
    private TestCgroups() {}

    /** Removes {@code /sys/fs/cgroup/<hierarchy>/<top>} and everything below it, once no process is in them. */
    public static void removeTree(String top) throws IOException {
        Path root = Path.of("/sys/fs/cgroup");
        if (top.isEmpty() || top.contains("/") || !Files.isDirectory(root)) {
            return;
        }
        try (var hierarchies = Files.list(root)) {
            for (Path h : hierarchies.toList()) {
                Path tree = h.resolve(top);
                if (!Files.isDirectory(tree)) {
                    continue;
                }
                try (var dirs = Files.walk(tree)) {
                    for (Path d : dirs.filter(Files::isDirectory).sorted(Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(d);
                    }
                }
            }
        }
    }
}
