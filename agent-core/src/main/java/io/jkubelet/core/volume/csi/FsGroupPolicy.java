package io.jkubelet.core.volume.csi;

import java.util.List;

/**
 * Upstream mounter's {@code supportsFSGroup} (v1.30): whether the kubelet applies the pod's {@code fsGroup} to a CSI
 * volume's files, by the CSIDriver's {@code fsGroupPolicy}: never for {@code None} or a read-only volume, always for
 * {@code File}, and for {@code ReadWriteOnceWithFSType} (the default) only to a volume with an {@code fsType} that is
 * either inline (always published {@code ReadWriteOnce}) or a PersistentVolume with the {@code ReadWriteOnce} access
 * mode. {@code ReadWriteOncePod} alone does not qualify in v1.30 (upstream added it in v1.32, issue 127170). Pure.
 */
final class FsGroupPolicy {
    private FsGroupPolicy() {}

    /**
     * @param fsGroup the pod's {@code securityContext.fsGroup}, null when it has none
     * @param accessModes the PersistentVolume's; null for an inline volume (which has none)
     */
    static boolean supportsFsGroup(String policy, Long fsGroup, boolean readOnly, String fsType, List<String> accessModes) {
        if (fsGroup == null || CsiDriverPolicies.FS_GROUP_NONE.equals(policy) || readOnly) {
            return false;
        }
        if (CsiDriverPolicies.FS_GROUP_FILE.equals(policy)) {
            return true;
        }
        if (fsType == null || fsType.isEmpty()) {
            return false;
        }
        return accessModes == null || accessModes.contains("ReadWriteOnce");
    }
}
