package io.jkubelet.core.volume.util.subpath;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What a container that writes to a volume can do between the kubelet's check of a path and its use of it. */
final class Swap {
    private Swap() {}

    /** The directory is moved aside ({@code <dir>.old}) and a symlink to {@code target} takes its name. */
    static Runnable directoryForSymlink(Path dir, Path target) {
        return () -> {
            try {
                Files.move(dir, dir.resolveSibling(dir.getFileName() + ".old"));
                Files.createSymbolicLink(dir, target);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }
}
