package io.jkubelet.core.volume.util.operationexecutor;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.volume.VolumePlugin;
import io.jkubelet.core.volume.VolumeSpec;

/**
 * A volume a pod wants mounted (upstream {@code operationexecutor.VolumeToMount}), as the desired state of the world
 * holds it.
 *
 * @param volumeName the volume's unique name ({@code kubernetes.io/empty-dir/<uid>-cache},
 *     {@code kubernetes.io/local-volume/pv-1})
 * @param podName the pod's unique name: its UID
 * @param outerVolumeSpecName the pod's name for the volume ({@code spec.volumes[].name})
 * @param pluginIsAttachable whether the volume is attached to the node before it is mounted (a CSI volume whose
 *     CSIDriver requires attachment; none of the in-tree plugins here)
 * @param pluginIsDeviceMountable whether the volume has a global mount for the node before its pods' mounts
 * @param reportedInUse whether the node status has listed it in {@code volumesInUse}
 * @param desiredPersistentVolumeSize the capacity of the claim's PersistentVolume, once the populator found the volume
 *     mounted for the pod (upstream's {@code DesiredPersistentVolumeSize}, what an in-use expansion grows it to); null
 *     before, and for every other volume
 * @param devicePath where the attached volume is on the node (upstream's {@code DevicePath}, from the actual state of the
 *     world as the node status gave it); "" for a volume not attached, or not yet known to be
 */
public record VolumeToMount(String volumeName, String podName, Pod pod, VolumeSpec spec, String outerVolumeSpecName,
                            VolumePlugin plugin, boolean pluginIsAttachable, boolean pluginIsDeviceMountable,
                            String volumeGidValue, boolean reportedInUse, Quantity desiredPersistentVolumeSize,
                            String devicePath) {

    /** The same volume at {@code devicePath} (upstream's reconciler sets it from {@code PodExistsInVolume}). */
    public VolumeToMount withDevicePath(String devicePath) {
        return new VolumeToMount(volumeName, podName, pod, spec, outerVolumeSpecName, plugin, pluginIsAttachable,
                pluginIsDeviceMountable, volumeGidValue, reportedInUse, desiredPersistentVolumeSize, devicePath);
    }

    /** Upstream {@code GenerateMsgSimple}: {@code <prefix> for volume "<spec name>" <suffix>}. */
    public String simpleMessage(String prefix, String suffix) {
        return prefix + " for volume \"" + spec.name() + "\" " + suffix;
    }

    /** Upstream {@code GenerateMsgDetailed}: the simple message with the unique name and the pod. */
    public String detailedMessage(String prefix, String suffix) {
        return prefix + " for volume \"" + spec.name() + "\" (UniqueName: \"" + volumeName + "\") pod \""
                + pod.getMetadata().getName() + "\" (UID: \"" + podName + "\") " + suffix;
    }
}
