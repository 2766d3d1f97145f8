package io.jkubelet.core.volume.util.operationexecutor;

import io.jkubelet.core.volume.BlockVolumeMapper;
import io.jkubelet.core.volume.Mounter;
import io.jkubelet.core.volume.VolumePlugin;
import io.jkubelet.core.volume.VolumeSpec;

import java.nio.file.Path;

/**
 * A volume mounted for a pod, or perhaps mounted (upstream {@code operationexecutor.MountedVolume}), as the actual
 * state of the world holds it.
 *
 * @param podName the pod's unique name: its UID
 * @param innerVolumeSpecName the spec's name: the pod's volume name, or the PersistentVolume's
 * @param outerVolumeSpecName the pod's name for the volume
 * @param mounter what set it up (its path and attributes); for a volume found after a restart, the reconstructed one;
 *     null for a raw block volume
 * @param uncertain whether it may be mounted or not (found on disk after a restart, or a teardown failed)
 * @param blockVolumeMapper what mapped a raw block volume ({@code volumeMode: Block}) for the pod; null for a volume
 *     mounted as a file system
 * @param deviceMountPath the volume's global mount path, or a block volume's global map path (upstream's
 *     {@code DeviceMountPath}, where its unmap finds the pod's map file); null when it has none
 */
public record MountedVolume(String volumeName, String podName, String innerVolumeSpecName, String outerVolumeSpecName,
                            VolumePlugin plugin, VolumeSpec spec, Mounter mounter, String volumeGidValue,
                            boolean uncertain, BlockVolumeMapper blockVolumeMapper, Path deviceMountPath) {

    /** A volume mounted as a file system. */
    public MountedVolume(String volumeName, String podName, String innerVolumeSpecName, String outerVolumeSpecName,
                         VolumePlugin plugin, VolumeSpec spec, Mounter mounter, String volumeGidValue, boolean uncertain) {
        this(volumeName, podName, innerVolumeSpecName, outerVolumeSpecName, plugin, spec, mounter, volumeGidValue,
                uncertain, null, null);
    }

    /** Upstream {@code GenerateMsgDetailed} of a mounted volume. */
    public String detailedMessage(String prefix, String suffix) {
        return prefix + " for volume \"" + innerVolumeSpecName + "\" (UniqueName: \"" + volumeName + "\") pod \""
                + podName + "\" (UID: \"" + podName + "\") " + suffix;
    }
}
