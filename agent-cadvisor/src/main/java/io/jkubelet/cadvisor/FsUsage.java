package io.jkubelet.cadvisor;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Capacity and free space of the file system holding a directory ({@code statvfs}), with its inodes when
 * {@code stat -f} can tell them (the JDK cannot). A value that cannot be read is -1.
 */
public record FsUsage(long capacityBytes, long availableBytes, long usedBytes, long inodes, long inodesFree) {
    private static final Logger log = LoggerFactory.getLogger(FsUsage.class);

    public static final FsUsage UNKNOWN = new FsUsage(-1, -1, -1, -1, -1);

    public long inodesUsed() {
        return inodes < 0 || inodesFree < 0 ? -1 : inodes - inodesFree;
    }

    /** The usage of the file system of {@code dir}, or {@link #UNKNOWN} when it cannot be looked at. */
    public static FsUsage of(Path dir) {
        try {
            return read(dir);
        } catch (IOException e) {
            return UNKNOWN;
        }
    }

    /**
     * The usage of the file system of {@code dir}; inodes are -1 when {@code stat} cannot tell them.
     *
     * @throws IOException when {@code dir} is not on this machine
     */
    public static FsUsage read(Path dir) throws IOException {
        FileStore store = Files.getFileStore(dir);
        long capacity = store.getTotalSpace();
        long[] inodes = inodes(dir);
        return new FsUsage(capacity, store.getUsableSpace(), capacity - store.getUnallocatedSpace(), inodes[0], inodes[1]);
    }

    /** Total and free inodes of the file system of {@code dir}, or -1s when {@code stat} cannot tell. */
    private static long[] inodes(Path dir) {
        try {
            Process p = new ProcessBuilder("stat", "-f", "-c", "%c %d", dir.toString()).redirectErrorStream(true).start();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new long[] {-1, -1};
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            String[] parts = out.split("\\s+");
            if (p.exitValue() != 0 || parts.length != 2) {
                return new long[] {-1, -1};
            }
            return new long[] {Long.parseLong(parts[0]), Long.parseLong(parts[1])};
        } catch (IOException | NumberFormatException e) {
            log.debug("Cannot read the inodes of {}: {}", dir, e.toString());
            return new long[] {-1, -1};
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new long[] {-1, -1};
        }
    }
}
