package io.jkubelet.core.testing;

import io.jkubelet.core.volume.util.HostMounts;
import io.jkubelet.core.volume.util.MountException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** What a test mounted under its directory, unmounted (deepest first) before JUnit removes the directory. */
public final class MountsUnder {
    private MountsUnder() {
    }

    public static void unmountAll(Path dir, HostMounts mounts) throws IOException, MountException {
        List<Path> under = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
            Path p = Path.of(line.split(" ")[4]);
            if (p.startsWith(dir)) {
                under.add(p);
            }
        }
        under.sort(Comparator.comparingInt(Path::getNameCount).reversed());
        for (Path p : under) {
            mounts.unmount(p);
        }
    }
}
