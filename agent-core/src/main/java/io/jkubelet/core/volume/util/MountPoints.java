package io.jkubelet.core.volume.util;

import io.jkubelet.core.volume.Unmounter;
import io.jkubelet.core.volume.VolumeException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/** The mount points of volumes that bind or mount a file system into a pod's directory (local, nfs). */
public final class MountPoints {
    private MountPoints() {}

    /**
     * Makes {@code dir} (0750) and bind-mounts {@code source} there with {@code options}; a mount that fails leaves no
     * mount and no directory behind.
     */
    public static void bindMount(HostMounts mounts, Path source, Path dir, List<String> options) throws VolumeException {
        makeDir(dir);
        try {
            mounts.bindMount(source, dir, options);
        } catch (MountException e) {
            undo(mounts, dir);
            throw new VolumeException(e.getMessage());
        }
    }

    /** Makes {@code dir} (0750) and mounts {@code source} there; a mount that fails leaves nothing behind. */
    public static void mount(HostMounts mounts, String source, Path dir, String fsType, List<String> options)
            throws VolumeException {
        makeDir(dir);
        try {
            mounts.mount(source, dir, fsType, options);
        } catch (MountException e) {
            undo(mounts, dir);
            throw new VolumeException(e.getMessage());
        }
    }

    private static void makeDir(Path dir) throws VolumeException {
        try {
            Files.createDirectories(dir);
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-x---"));
        } catch (IOException e) {
            throw new VolumeException("mkdir failed on disk " + dir + " (" + e.getMessage() + ")");
        }
    }

    private static void undo(HostMounts mounts, Path dir) {
        try {
            if (mounts.isMountPoint(dir)) {
                mounts.unmount(dir);
            }
            Files.deleteIfExists(dir);
        } catch (MountException | IOException e) {
            // Left for the teardown, which the volume manager runs again.
        }
    }

    /**
     * Upstream {@code CleanupMountPoint}: unmounts what is mounted at {@code dir} and removes the directory, which is
     * then empty (a {@code rmdir}: what was mounted there stays where it lives).
     */
    public static Unmounter cleanupMountPoint(HostMounts mounts, Path dir) {
        return Unmounter.of(dir, () -> {
            try {
                if (mounts.isMountPoint(dir)) {
                    mounts.unmount(dir);
                }
                if (mounts.isMountPoint(dir)) {
                    throw new VolumeException(dir + " is still mounted");
                }
                Files.deleteIfExists(dir);
            } catch (MountException e) {
                throw new VolumeException(e.getMessage());
            } catch (IOException e) {
                throw new VolumeException("failed to remove " + dir + ": " + e);
            }
        });
    }
}
