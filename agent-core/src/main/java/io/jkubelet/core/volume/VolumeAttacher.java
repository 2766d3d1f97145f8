package io.jkubelet.core.volume;

import io.fabric8.kubernetes.api.model.Pod;

/**
 * The kubelet's side of a volume that is attached to the node before it is mounted (upstream {@code volume.Attacher}'s
 * {@code WaitForAttach}): the attach itself is the attach/detach controller's (through a {@code VolumeAttachment} for
 * CSI); the kubelet only checks that it happened. Thread-safe.
 */
public interface VolumeAttacher {
    /**
     * Returns when the volume is attached to this node (upstream {@code WaitForAttach}).
     *
     * @param devicePath where the node status says the volume is ({@code status.volumesAttached[].devicePath})
     * @return the volume's device path, what the global mount is made from
     * @throws VolumeException why it is not (yet) attached: the mount fails with {@code MountVolume.WaitForAttach failed}
     *     and is tried again after its back-off
     */
    String waitForAttach(VolumeSpec spec, String devicePath, Pod pod) throws VolumeException;
}
