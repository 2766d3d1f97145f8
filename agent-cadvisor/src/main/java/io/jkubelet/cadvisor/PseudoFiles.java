package io.jkubelet.cadvisor;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads {@code /proc} and {@code /sys} files. Their size as {@code stat} reports it is not their content's
 * ({@code Files.readString} trusts it and was seen to return {@code "3"} for {@code pid_max} = 32768), so they
 * are read as a stream until end of file.
 */
public final class PseudoFiles {
    private PseudoFiles() {}

    public static String read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
