package io.jkubelet.core.qos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A process's {@code oom_score_adj} control file ({@code /proc/<pid>/oom_score_adj}).
 * An interface so that tests can stand in for the kernel's rules.
 */
public interface OomScoreAdjFile {

    /** The current value. */
    int read() throws IOException;

    /**
     * Sets a new value.
     *
     * @throws IOException when the kernel refuses it; a refusal to lower the value is reported as
     *                     {@code EACCES} ("Permission denied") or {@code EPERM} ("Operation not permitted")
     */
    void write(int value) throws IOException;

    /** A description for messages (the path). */
    String describe();

    /** The file at {@code path}: {@code /proc/self/oom_score_adj}, another process's, or a test file. */
    static OomScoreAdjFile at(Path path) {
        return new OomScoreAdjFile() {
            @Override
            public int read() throws IOException {
                String text = Files.readString(path, StandardCharsets.US_ASCII).trim();
                try {
                    return Integer.parseInt(text);
                } catch (NumberFormatException e) {
                    throw new IOException(path + " does not hold a number: \"" + text + "\"", e);
                }
            }

            @Override
            public void write(int value) throws IOException {
                // No CREATE: the file must exist (procfs never creates one); TRUNCATE for plain test files.
                Files.writeString(path, Integer.toString(value), StandardCharsets.US_ASCII,
                        StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
            }

            @Override
            public String describe() {
                return path.toString();
            }
        };
    }

    /** This process's file. */
    static OomScoreAdjFile self() {
        return at(Path.of("/proc/self/oom_score_adj"));
    }
}
