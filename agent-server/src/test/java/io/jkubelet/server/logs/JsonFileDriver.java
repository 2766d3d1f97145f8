package io.jkubelet.server.logs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Docker's json-file log driver as far as rotation goes (moby {@code loggerutils.LogFile}): before each line, a
 * live file of {@code maxSize} bytes or more is rotated (the oldest kept file deleted, {@code .n} renamed to
 * {@code .n+1} from the highest down, the live file to {@code .1}, a new live file started), so files hold whole
 * lines and {@code maxFiles} files are kept. Thread-safe.
 */
final class JsonFileDriver {
    final Path live;
    private final long maxSize;
    private final int maxFiles;
    private int rotations;

    JsonFileDriver(Path live, long maxSize, int maxFiles) throws IOException {
        this.live = live;
        this.maxSize = maxSize;
        this.maxFiles = maxFiles;
        Files.write(live, new byte[0]);
    }

    /** Writes one line of stdout as Docker does, rotating first when the live file is full. */
    synchronized void write(String text) throws IOException {
        if (Files.size(live) >= maxSize) {
            rotate();
        }
        String entry = "{\"log\":\"" + text + "\\n\",\"stream\":\"stdout\",\"time\":\"2026-01-01T00:00:00.000000001Z\"}\n";
        Files.writeString(live, entry, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }

    synchronized void rotate() throws IOException {
        Files.deleteIfExists(rotated(maxFiles - 1));
        for (int i = maxFiles - 1; i > 1; i--) {
            if (Files.exists(rotated(i - 1))) {
                Files.move(rotated(i - 1), rotated(i));
            }
        }
        Files.move(live, rotated(1));
        Files.write(live, new byte[0]);
        rotations++;
    }

    synchronized int rotations() {
        return rotations;
    }

    private Path rotated(int n) {
        return live.resolveSibling(live.getFileName() + "." + n);
    }
}
