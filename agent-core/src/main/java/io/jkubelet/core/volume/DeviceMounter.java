package io.jkubelet.core.volume;

import java.nio.file.Path;

/**
 * A plugin's mount of a volume for the whole node, before it is mounted into pods (upstream {@code DeviceMounter} and
 * {@code DeviceUnmounter}): a local volume on a block device is formatted if need be and mounted once at its global
 * path. Idempotent.
 */
public interface DeviceMounter {
    /**
     * The global mount path of the volume (upstream {@code GetDeviceMountPath}); null for a spec that has none (a CSI
     * inline volume, upstream's {@code CanDeviceMount} false).
     */
    Path deviceMountPath(VolumeSpec spec);

    /**
     * Mounts the volume at its global path when it needs one; nothing for a volume that does not.
     *
     * @param devicePath the attached volume's device path as its attacher gave it (upstream {@code MountDevice}'s); ""
     *     for a volume not attached
     */
    void mountDevice(VolumeSpec spec, String devicePath) throws VolumeException;

    /** Unmounts the volume's global mount, if any, once no pod uses it. */
    void unmountDevice(String volumeName, Path deviceMountPath) throws VolumeException;
}
