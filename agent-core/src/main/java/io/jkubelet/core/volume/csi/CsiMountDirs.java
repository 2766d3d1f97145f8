package io.jkubelet.core.volume.csi;

import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.util.HostMounts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/** The directories the CSI plugin makes for a mount and removes after it (upstream's {@code removeMountDir}). */
final class CsiMountDirs {
    private CsiMountDirs() {}

    /** {@code os.MkdirAll(dir, 0750)}. */
    static void mkdirs(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir);
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-x---"));
        }
    }

    /**
     * Upstream {@code removeMountDir}: once nothing is mounted at {@code mountPath}, removes it, the
     * {@code vol_data.json} beside it and their directory; leaves everything while something is mounted there.
     */
    static void removeMountDir(HostMounts mounts, Path mountPath) throws VolumeException {
        if (mounts.isMountPoint(mountPath)) {
            return;
        }
        Path volPath = mountPath.getParent();
        remove(mountPath, "failed to remove dir [" + mountPath + "]");
        remove(volPath.resolve(VolumeData.FILE_NAME), "failed to delete volume data file [" + volPath.resolve(VolumeData.FILE_NAME) + "]");
        remove(volPath, "failed to delete volume path [" + volPath + "]");
    }

    private static void remove(Path p, String what) throws VolumeException {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            throw new VolumeException(CsiRegistrationHandler.CSI_PLUGIN_NAME + ": " + what + ": " + e);
        }
    }
}
