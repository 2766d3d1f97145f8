package io.jkubelet.core.volume.util.operationexecutor;

import io.jkubelet.core.volume.VolumePlugin;
import io.jkubelet.core.volume.VolumeSpec;

/** What the verification of an attachment writes to the actual state of the world (upstream {@code ActualStateOfWorldAttacherUpdater}). */
public interface ActualStateOfWorldAttacherUpdater {
    /**
     * Upstream {@code MarkVolumeAsAttached}: the volume is on the node.
     *
     * @param attachable whether the attach/detach controller attached it (upstream's {@code pluginIsAttachable})
     * @param devicePath where it is, as the node's {@code status.volumesAttached} says; "" for a volume attached by none
     */
    void markVolumeAsAttached(String volumeName, VolumeSpec spec, VolumePlugin plugin, boolean attachable,
                              String devicePath);
}
