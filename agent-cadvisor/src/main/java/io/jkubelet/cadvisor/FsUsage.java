package io.jkubelet.cadvisor;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Capacity and free space of the file system holding a directory ({@code statvfs}), with its inodes when
 * {@code stat -f} can tell them (the JDK cannot). A value that cannot be read is -1.
 */
public record FsUsage(long capacityBytes, long availableBytes, long usedBytes, long inodes, long inodesFree) {
    public static final FsUsage UNKNOWN = new FsUsage(-1, -1, -1, -1, -1);

    public long inodesUsed() {
        return inodes < 0 || inodesFree < 0 ? -1 : inodes - inodesFree;
    }

    public static FsUsage of(Path dir) {
        try {
            FileStore store = Files.getFileStore(dir);
            long capacity = store.getTotalSpace();
            long[] inodes = inodes(dir);
            return new FsUsage(capacity, store.getUsableSpace(), capacity - store.getUnallocatedSpace(), inodes[0],
                    inodes[1]);
        } catch (IOException e) {
            return UNKNOWN;
        }
    }

    private static long[] inodes(Path dir) {
        try {
            Process p = new ProcessBuilder("stat", "-f", "-c", "%c %d", dir.toString()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).strip();
            if (!p.waitFor(5, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return new long[] {-1, -1};
            }
            String[] f = out.split("\\s+");
            return new long[] {Long.parseLong(f[0]), Long.parseLong(f[1])};
        } catch (IOException | RuntimeException e) {
            return new long[] {-1, -1};
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new long[] {-1, -1};
        }
    }
}
