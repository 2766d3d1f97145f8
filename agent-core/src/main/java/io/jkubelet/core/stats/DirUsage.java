package io.jkubelet.core.stats;

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
                    totals[0] += attrs.isRegularFile() ? attrs.size() : 0;
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
