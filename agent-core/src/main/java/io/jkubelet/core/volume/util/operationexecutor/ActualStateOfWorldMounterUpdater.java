package io.jkubelet.core.volume.util.operationexecutor;

import io.jkubelet.core.volume.Mounter;

import java.nio.file.Path;

/** What the operations write to the actual state of the world (upstream {@code ActualStateOfWorldMounterUpdater}). */
public interface ActualStateOfWorldMounterUpdater {
    /** The volume is mounted for the pod. */
    void markVolumeAsMounted(VolumeToMount volume, Mounter mounter);

    /** The volume may or may not be mounted for the pod: a teardown failed half-way. */
    void markVolumeMountAsUncertain(String podName, String volumeName);

    /** The volume is no longer mounted for the pod. */
    void markVolumeAsUnmounted(String podName, String volumeName);

    /** The volume's global mount is there. */
    void markDeviceAsMounted(String volumeName, Path deviceMountPath);

    /** The volume's global mount is gone: the volume leaves the node's state. */
    void markDeviceAsUnmounted(String volumeName);

    /** Whether the volume may or may not be mounted for the pod. */
    boolean isVolumeMountUncertain(String podName, String volumeName);

    /** Whether the pod's mount of the volume was found on disk after a restart and is not yet known to be good. */
    boolean isVolumeReconstructed(String podName, String volumeName);

    /** Upstream {@code GetDeviceMountState} is {@code DeviceGloballyMounted}: the volume's global mount is made. */
    boolean isDeviceGloballyMounted(String volumeName);
}
