package io.jkubelet.core.volume.util.operationexecutor;

import io.jkubelet.core.volume.Mounter;
import io.jkubelet.core.volume.VolumePlugin;
import io.jkubelet.core.volume.VolumeSpec;

/**
 * A volume mounted for a pod, or perhaps mounted (upstream {@code operationexecutor.MountedVolume}), as the actual
 * state of the world holds it.
 *
 * @param podName the pod's unique name: its UID
 * @param innerVolumeSpecName the spec's name: the pod's volume name, or the PersistentVolume's
 * @param outerVolumeSpecName the pod's name for the volume
 * @param mounter what set it up (its path and attributes); for a volume found after a restart, the reconstructed one
 * @param uncertain whether it may be mounted or not (found on disk after a restart, or a teardown failed)
 */
public record MountedVolume(String volumeName, String podName, String innerVolumeSpecName, String outerVolumeSpecName,
                            VolumePlugin plugin, VolumeSpec spec, Mounter mounter, String volumeGidValue,
                            boolean uncertain) {

    /** Upstream {@code GenerateMsgDetailed} of a mounted volume. */
    public String detailedMessage(String prefix, String suffix) {
        return prefix + " for volume \"" + innerVolumeSpecName + "\" (UniqueName: \"" + volumeName + "\") pod \""
                + podName + "\" (UID: \"" + podName + "\") " + suffix;
    }
}
