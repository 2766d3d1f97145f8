package io.jkubelet.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A JUnit temporary directory made to behave as a plain root-owned one: the process's own group and no setgid bit.
 * Some machines' {@code /tmp} is setgid with a group of its own, whose files then belong to that group; tests that
 * assert which group the kubelet gives (or leaves) a volume's files would read the machine's group instead of
 * the kubelet's doing.
 */
public final class PlainTempDir {
    private PlainTempDir() {}

    /** Gives {@code dir} the process's group and clears its setgid bit; returns it. */
    public static Path of(Path dir) {
        try {
            Files.setAttribute(dir, "unix:gid", (int) Files.getAttribute(Path.of("/proc/self"), "unix:gid"));
            int mode = (int) Files.getAttribute(dir, "unix:mode");
            Files.setAttribute(dir, "unix:mode", mode & ~02000 & 07777);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make " + dir + " a plain directory", e);
        }
    }
}
