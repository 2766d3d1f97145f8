package io.jkubelet.core.volume.util.operationexecutor;

import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.volume.BlockVolumeMapper;
import io.jkubelet.core.volume.Mounter;

import java.nio.file.Path;

/** What the operations write to the actual state of the world (upstream {@code ActualStateOfWorldMounterUpdater}). */
public interface ActualStateOfWorldMounterUpdater {
    /** Upstream's {@code VolumeMountState} of a pod's volume. */
    enum VolumeMountState { NOT_MOUNTED, UNCERTAIN, MOUNTED }

    /** Upstream's {@code DeviceMountState} of a volume's global mount. */
    enum DeviceMountState { NOT_MOUNTED, UNCERTAIN, GLOBALLY_MOUNTED }

    /** The volume is mounted for the pod. */
    void markVolumeAsMounted(VolumeToMount volume, Mounter mounter);

    /** The volume may or may not be mounted for the pod: a teardown failed half-way. */
    void markVolumeMountAsUncertain(String podName, String volumeName);

    /**
     * The volume may or may not be mounted for the pod: a set-up failed without knowing (upstream
     * {@code MarkVolumeMountAsUncertain} of a volume not mounted).
     */
    void markVolumeMountAsUncertain(VolumeToMount volume, Mounter mounter);

    /** A raw block volume is mapped for the pod (upstream's {@code MarkVolumeAsMounted} with a block mapper). */
    void markVolumeAsMapped(VolumeToMount volume, BlockVolumeMapper mapper);

    /**
     * A raw block volume may or may not be mapped for the pod: its map failed without knowing, or after the plugin
     * mapped it; it is unmapped if its pod goes first.
     */
    void markVolumeMapAsUncertain(VolumeToMount volume, BlockVolumeMapper mapper);

    /** The volume is no longer mounted for the pod. */
    void markVolumeAsUnmounted(String podName, String volumeName);

    /** The volume's global mount is there. */
    void markDeviceAsMounted(String volumeName, Path deviceMountPath);

    /** The volume's global mount may or may not be there: its mount failed without knowing. */
    void markDeviceAsUncertain(String volumeName, Path deviceMountPath);

    /** The volume's global mount is gone: the volume leaves the node's state. */
    void markDeviceAsUnmounted(String volumeName);

    /**
     * Upstream {@code MarkVolumeAsResized}: the volume's file system has {@code claimSize} now (or the plugin cannot
     * grow it): no in-use expansion until its PersistentVolume grows past that.
     */
    void markVolumeAsResized(String volumeName, Quantity claimSize);

    /**
     * Upstream {@code MarkForInUseExpansionError}: the driver cannot expand the volume while it is in use; it is not
     * tried again on this node while the volume stays.
     */
    void markForInUseExpansionError(String volumeName);

    /** Upstream {@code GetVolumeMountState}. */
    VolumeMountState getVolumeMountState(String volumeName, String podName);

    /** Whether the pod's mount of the volume was found on disk after a restart and is not yet known to be good. */
    boolean isVolumeReconstructed(String podName, String volumeName);

    /** Upstream {@code GetDeviceMountState}. */
    DeviceMountState getDeviceMountState(String volumeName);
}
