package io.jkubelet.cadvisor;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The space a directory tree takes, as upstream's {@code du}-based volume metrics measure an emptyDir: the
 * sum of the files' sizes and the number of inodes (files and directories). Symbolic links are not followed.
 * Files that vanish during the walk are skipped.
 */
public record DirUsage(long bytes, long inodes) {
    public static final DirUsage EMPTY = new DirUsage(0, 0);

    /** The usage of {@code dir}, or {@link #EMPTY} when it does not exist. */
    public static DirUsage of(Path dir) {
        return of(dir, false);
    }

    /**
     * As {@link #of(Path)}, counting a symbolic link to a file as that file's size when {@code followFileLinks}:
     * a pod's log directory holds links to the runtime's log files (Docker's json logs), whose size is the
     * container's log usage.
     */
    public static DirUsage of(Path dir, boolean followFileLinks) {
        if (!Files.exists(dir)) {
            return EMPTY;
        }
        long[] totals = new long[2];
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
                    totals[1]++;
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (attrs.isRegularFile()) {
                        totals[0] += attrs.size();
                    } else if (followFileLinks && attrs.isSymbolicLink()) {
                        try {
                            totals[0] += Files.isRegularFile(file) ? Files.size(file) : 0;
                        } catch (IOException e) {
                            // a dangling link takes no space
                        }
                    }
                    totals[1]++;
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            // walkFileTree reports per-file failures through visitFileFailed; what is left is the root vanishing
            return EMPTY;
        }
        return new DirUsage(totals[0], totals[1]);
    }
}
