package io.jkubelet.core.volume.csi;

import java.util.List;

/**
 * Upstream mounter's {@code supportsFSGroup}: whether the pod's {@code fsGroup} is applied to a CSI volume's files, by
 * the CSIDriver's {@code fsGroupPolicy}: never for {@code None} or a read-only volume, always for {@code File}, and for
 * {@code ReadWriteOnceWithFSType} (the default) only to a PersistentVolume with an {@code fsType} and a
 * {@code ReadWriteOnce} access mode. Pure.
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
        if (fsType == null || fsType.isEmpty() || accessModes == null || accessModes.isEmpty()) {
            return false;
        }
        return accessModes.contains("ReadWriteOnce");
    }
}
