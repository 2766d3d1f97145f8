package io.jkubelet.core.volume.csi;

import io.jkubelet.core.volume.PodDirs;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The names and paths upstream's CSI plugin derives from a volume, which other components (the attach/detach
 * controller, the external attacher, a restarted kubelet) derive the same way: pure functions.
 */
final class CsiNames {
    /** Upstream {@code CSIPluginName}: the plugin's name, its directory under {@code plugins} and under a pod's volumes. */
    static final String PLUGIN_NAME = "kubernetes.io/csi";
    /** Upstream {@code globalMountInGlobalPath}. */
    static final String GLOBAL_MOUNT = "globalmount";
    /** Upstream {@code volNameSep}: between the driver and the volume handle in the volume's unique name. */
    static final String VOL_NAME_SEP = "^";

    private CsiNames() {}

    /** Upstream {@code getAttachmentName}: {@code csi-<sha256(volumeHandle + driver + nodeName)>}, the VolumeAttachment's name. */
    static String attachmentName(String volumeHandle, String driver, String nodeName) {
        return "csi-" + sha256(volumeHandle + driver + nodeName);
    }

    /** Upstream {@code makeVolumeHandle}: an inline volume's handle, {@code csi-<sha256(podUID + volume name)>}. */
    static String ephemeralVolumeHandle(String podUid, String volumeSpecName) {
        return "csi-" + sha256(podUid + volumeSpecName);
    }

    /**
     * Upstream {@code makeDeviceMountPath} (v1.30): where a PersistentVolume is staged,
     * {@code <root-dir>/plugins/kubernetes.io/csi/<driver>/<sha256(volumeHandle)>/globalmount} (v1.20's was
     * {@code .../csi/pv/<pv name>/globalmount}).
     */
    static Path deviceMountPath(PodDirs dirs, String driver, String volumeHandle) {
        return dirs.pluginDir(PLUGIN_NAME).resolve(driver).resolve(sha256(volumeHandle)).resolve(GLOBAL_MOUNT);
    }

    /** Upstream {@code GetVolumeName}: {@code <driver>^<volumeHandle>}. */
    static String volumeName(String driver, String volumeHandle) {
        return driver + VOL_NAME_SEP + volumeHandle;
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
