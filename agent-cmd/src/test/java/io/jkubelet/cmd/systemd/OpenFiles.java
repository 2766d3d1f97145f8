package io.jkubelet.cmd.systemd;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Which files a process holds open, from {@code /proc/<pid>/fd}. */
public final class OpenFiles {
    private OpenFiles() {}

    /** How many of the process's descriptors refer to {@code file}. */
    public static int count(long pid, Path file) throws IOException {
        int n = 0;
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds) {
                try {
                    if (Files.readSymbolicLink(fd).equals(file)) {
                        n++;
                    }
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        }
        return n;
    }
}
