package io.jkubelet.core.volume.util.subpath;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * This machine's mount table as the subPath tests read it, apart from the code under test: the mounts below a test's
 * directory, each with the file system directory it shows, and their removal after the test.
 */
public final class MountTable {
    /** One line of {@code /proc/self/mountinfo}: the mount point and the directory of its file system it shows. */
    public record Line(Path mountPoint, String root) {}

    private MountTable() {}

    /** Skips a test that needs to mount: not root, or no mount table. */
    public static void assumeCanMount() {
        assumeTrue("root".equals(System.getProperty("user.name")), "bind mounts need root");
        assumeTrue(Files.isReadable(Path.of("/proc/self/mountinfo")), "needs a mount table");
    }

    /** The mounts at or below {@code dir}, in the table's order (the test directories have no escaped characters). */
    public static List<Line> below(Path dir) throws IOException {
        List<Line> lines = new ArrayList<>();
        for (String l : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
            String[] f = l.split(" ");
            Path mountPoint = Path.of(f[4]);
            if (mountPoint.startsWith(dir)) {
                lines.add(new Line(mountPoint, f[3]));
            }
        }
        return lines;
    }

    /** The mounts at {@code path} itself. */
    public static List<Line> at(Path path) throws IOException {
        return below(path).stream().filter(l -> l.mountPoint().equals(path)).toList();
    }

    /** Unmounts whatever a test left mounted below {@code dir}, the last mounted first. */
    public static void unmountAll(Path dir) throws IOException, InterruptedException {
        List<Line> left = below(dir);
        for (int i = left.size() - 1; i >= 0; i--) {
            new ProcessBuilder("umount", left.get(i).mountPoint().toString()).inheritIO().start().waitFor();
        }
    }
}
