package io.jkubelet.core.volume.util;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Upstream's {@code removeall.RemoveAllOneFilesystem}: {@code rm -rf --one-file-system}. A tree is removed as long as
 * nothing in it is mounted: a directory something is mounted at (a volume still set up, a bind-mounted PersistentVolume)
 * fails the removal instead of losing data that is not the kubelet's.
 */
public final class RemoveAll {
    private RemoveAll() {}

    /** Removes {@code path} and everything below it; nothing when it does not exist. */
    public static void oneFilesystem(Path path) throws IOException {
        oneFilesystem(new LinuxMounts(), path);
    }

    /**
     * @throws IOException {@code <dir> is still a mount point} for the first mounted directory met, or the I/O error
     */
    public static void oneFilesystem(LinuxMounts mounts, Path path) throws IOException {
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        // One reading of the mount table for the whole tree, not one a directory.
        Set<Path> mountPoints = mounts.list().stream().map(HostMounts.MountPoint::path).collect(Collectors.toSet());
        remove(path.toAbsolutePath().normalize(), mountPoints);
    }

    private static void remove(Path p, Set<Path> mountPoints) throws IOException {
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            if (mountPoints.contains(p)) {
                throw new IOException(p + " is still a mount point");
            }
            try (var s = Files.list(p)) {
                for (Path c : s.toList()) {
                    remove(c, mountPoints);
                }
            }
        }
        Files.deleteIfExists(p);
    }
}
