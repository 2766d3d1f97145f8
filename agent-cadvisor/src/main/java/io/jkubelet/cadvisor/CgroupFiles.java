package io.jkubelet.cadvisor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** Small parsers for cgroup interface files. */
final class CgroupFiles {
    /** Limits at or above this are the kernel's "unlimited" (v1 writes PAGE_COUNTER_MAX * page size). */
    static final long UNLIMITED_AT = 1L << 62;

    private CgroupFiles() {}

    /** The directory of a cgroup below a hierarchy root; {@code cgroupPath} is absolute within the hierarchy. */
    static Path dir(Path root, String cgroupPath) {
        String relative = cgroupPath.startsWith("/") ? cgroupPath.substring(1) : cgroupPath;
        return relative.isEmpty() ? root : root.resolve(relative);
    }

    /** The first line of a one-value file as a number; -1 when the file is missing or says {@code max}. */
    static long readLong(Path file) {
        String text = readOrNull(file);
        if (text == null) {
            return -1;
        }
        String v = text.strip();
        if (v.isEmpty() || v.equals("max")) {
            return -1;
        }
        try {
            return Long.parseLong(v.split("\\s+")[0]);
        } catch (NumberFormatException e) {
            throw new IllegalStateException(file + ": not a number: " + v, e);
        }
    }

    /** A flat keyed file ({@code memory.stat}, {@code cpu.stat}): {@code key value} per line. */
    static Map<String, Long> readKeyed(Path file) {
        Map<String, Long> values = new HashMap<>();
        String text = readOrNull(file);
        if (text == null) {
            return values;
        }
        for (String line : text.split("\n")) {
            String[] kv = line.strip().split("\\s+");
            if (kv.length == 2) {
                try {
                    values.put(kv[0], Long.parseLong(kv[1]));
                } catch (NumberFormatException e) {
                    // not a counter (e.g. a nested key); cAdvisor skips such lines too
                }
            }
        }
        return values;
    }

    static String readOrNull(Path file) {
        try {
            return PseudoFiles.read(file);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    static long workingSet(long usage, long inactiveFile) {
        return Math.max(0, usage - Math.max(0, inactiveFile));
    }
}
