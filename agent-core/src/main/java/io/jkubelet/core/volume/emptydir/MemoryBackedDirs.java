package io.jkubelet.core.volume.emptydir;

import io.jkubelet.core.volume.Unmounter;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.util.HostMounts;
import io.jkubelet.core.volume.util.MountException;
import io.jkubelet.core.volume.util.RemoveAll;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * The directory of an emptyDir, and of the volumes upstream wraps in one (secret, downwardAPI and projected live on a
 * tmpfs, so that secrets never reach the node's disk): made world-writable, mounted as a tmpfs when memory-backed,
 * unmounted and removed when torn down.
 */
public final class MemoryBackedDirs {
    private MemoryBackedDirs() {}

    /** Makes {@code dir} (0777) and, when {@code memory}, mounts a tmpfs there unless one is. Idempotent. */
    public static void setUp(HostMounts mounts, Path dir, boolean memory) throws VolumeException {
        // Checked on every remount of a wrapped volume (each pod sync): by stat, as upstream's GetMountMedium, not by
        // reading the whole mount table. A tmpfs there is the kubelet's own (upstream also checks its medium by statfs).
        boolean mounted;
        try {
            Files.createDirectories(dir);
            mounted = memory && mounts.isLikelyMountPoint(dir);
            // World-writable as upstream's (0777), so that any container user can use it. Changed only when those bits
            // differ (upstream's setupDir), so that the setgid bit an fsGroup gave the directory stays.
            if (!mounted && ((Integer) Files.getAttribute(dir, "unix:mode") & 0777) != 0777) {
                Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
            }
        } catch (IOException e) {
            throw new VolumeException("failed to create " + dir + ": " + e.getMessage());
        }
        if (memory && !mounted) {
            try {
                mounts.mount("tmpfs", dir, "tmpfs", List.of());
            } catch (MountException e) {
                throw new VolumeException(e.getMessage());
            }
        }
    }

    /**
     * Unmounts the tmpfs at {@code dir}, if one is there, and removes the directory (upstream {@code TearDownAt}: the
     * medium is what is mounted, not what the spec said).
     */
    public static Unmounter unmounter(HostMounts mounts, Path dir) {
        return Unmounter.of(dir, () -> {
            if (!Files.exists(dir)) {
                return;
            }
            try {
                if (mounts.isMountPoint(dir)) {
                    mounts.unmount(dir);
                }
                RemoveAll.oneFilesystem(dir);
            } catch (MountException | IOException e) {
                throw new VolumeException(e.getMessage());
            }
        });
    }
}
