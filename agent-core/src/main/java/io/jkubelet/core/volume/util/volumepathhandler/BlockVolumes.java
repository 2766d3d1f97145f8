package io.jkubelet.core.volume.util.volumepathhandler;

import io.jkubelet.core.volume.VolumeException;

import java.nio.file.Path;

/**
 * Upstream {@code util.MapBlockVolume} and {@code util.UnmapBlockVolume}: the common part of every block volume's map
 * for a pod, after its plugin said where the device is. The layout, for a device {@code D}:
 * <pre>
 *   &lt;global map path&gt;/&lt;pod uid&gt;                         bind mount of D (the pod's map file)
 *   /dev/loopN                                             loop device on that map file: keeps D open
 *   pods/&lt;uid&gt;/volumeDevices/&lt;plugin&gt;/&lt;volume&gt;         symbolic link to D (what containers get)
 * </pre>
 */
public final class BlockVolumes {
    private BlockVolumes() {}

    /**
     * Upstream {@code MapBlockVolume}: the bind mount, the link, then the loop device that holds the device open.
     *
     * @throws VolumeException {@code blkUtil.MapDevice failed. devicePath: ...} or {@code blkUtil.AttachFileDevice
     *     failed. globalMapPath:...}
     */
    public static void mapBlockVolume(BlockVolumePathHandler blkUtil, String devicePath, Path globalMapPath,
                                      Path podVolumeMapPath, String volumeMapName, String podUid) throws VolumeException {
        try {
            blkUtil.mapDevice(devicePath, globalMapPath, podUid, true);
        } catch (VolumeException e) {
            throw new VolumeException("blkUtil.MapDevice failed. devicePath: " + devicePath + ", globalMapPath:"
                    + globalMapPath + ", podUID: " + podUid + ", bindMount: true: " + e.getMessage());
        }
        try {
            blkUtil.mapDevice(devicePath, podVolumeMapPath, volumeMapName, false);
        } catch (VolumeException e) {
            throw new VolumeException("blkUtil.MapDevice failed. devicePath: " + devicePath + ", podVolumeMapPath:"
                    + podVolumeMapPath + ", volumeMapName: " + volumeMapName + ", bindMount: false: " + e.getMessage());
        }
        // Upstream's reason: without a descriptor held open, the device could be silently removed and another attached
        // under the same name, which the container runtime cannot tell.
        try {
            blkUtil.attachFileDevice(globalMapPath.resolve(podUid));
        } catch (VolumeException e) {
            throw new VolumeException("blkUtil.AttachFileDevice failed. globalMapPath:" + globalMapPath + ", podUID: "
                    + podUid + ": " + e.getMessage());
        }
    }

    /**
     * Upstream {@code UnmapBlockVolume}: the loop device released, the link removed, then the bind mount.
     *
     * @throws VolumeException {@code blkUtil.DetachFileDevice failed. ...} with what failed
     */
    public static void unmapBlockVolume(BlockVolumePathHandler blkUtil, Path globalUnmapPath, Path podDeviceUnmapPath,
                                        String volumeMapName, String podUid) throws VolumeException {
        try {
            blkUtil.detachFileDevice(globalUnmapPath.resolve(podUid));
        } catch (VolumeException e) {
            throw new VolumeException("blkUtil.DetachFileDevice failed. globalUnmapPath:" + globalUnmapPath + ", podUID: "
                    + podUid + ": " + e.getMessage());
        }
        // Upstream's messages for the two unmaps name DetachFileDevice too.
        try {
            blkUtil.unmapDevice(podDeviceUnmapPath, volumeMapName, false);
        } catch (VolumeException e) {
            throw new VolumeException("blkUtil.DetachFileDevice failed. podDeviceUnmapPath:" + podDeviceUnmapPath
                    + ", volumeMapName: " + volumeMapName + ", bindMount: false: " + e.getMessage());
        }
        try {
            blkUtil.unmapDevice(globalUnmapPath, podUid, true);
        } catch (VolumeException e) {
            throw new VolumeException("blkUtil.DetachFileDevice failed. globalUnmapPath:" + globalUnmapPath + ", podUID: "
                    + podUid + ", bindMount: true: " + e.getMessage());
        }
    }
}
