package io.jkubelet.core.volume.local;

import io.jkubelet.core.volume.BlockVolumeMapper;
import io.jkubelet.core.volume.BlockVolumeUnmapper;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumeMetrics;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;

/**
 * Upstream {@code localVolumeMapper} and {@code localVolumeUnmapper}: a {@code local} PersistentVolume in
 * {@code volumeMode: Block}, whose path is the node's block device. There is nothing to set up: the device is the
 * volume, given to the pod as it is; its global map path is
 * {@code <root-dir>/plugins/kubernetes.io~local-volume/volumeDevices/<pv>} (the plugin's name escaped there, as upstream
 * names it), the pod's link {@code pods/<uid>/volumeDevices/kubernetes.io~local-volume/<pv>}.
 *
 * @param devicePath the PersistentVolume's {@code local.path}; empty for an unmapper, which needs none
 */
record LocalVolumeMapper(PodDirs dirs, String podUid, String volumeName, String devicePath)
        implements BlockVolumeMapper, BlockVolumeUnmapper {

    @Override
    public Path globalMapPath() {
        return dirs.volumeDevicePluginDir(LocalVolumePlugin.NAME.replace('/', '~')).resolve(volumeName);
    }

    @Override
    public Path podDeviceMapPath() {
        return dirs.podVolumeDeviceDir(podUid, LocalVolumePlugin.NAME);
    }

    @Override
    public String volumeMapName() {
        return volumeName;
    }

    /**
     * Upstream's {@code metricsBlock} on the pod's map file: the device's size as the volume's capacity, found by
     * seeking to its end (the JDK asks the kernel for a block device's size); nothing else is known of a raw device.
     */
    @Override
    public VolumeMetrics metrics() {
        Path device = globalMapPath().resolve(podUid);
        return (VolumeMetrics.Provider) () -> {
            try (RandomAccessFile f = new RandomAccessFile(device.toFile(), "r")) {
                // Upstream's summary gives 0 for the figures a block volume's metrics leave unset.
                return new VolumeMetrics.Metrics(f.length(), 0, 0, 0, 0, 0);
            } catch (IOException e) {
                throw new VolumeException("unable to open device \"" + device + "\": " + e.getMessage());
            }
        };
    }

    /** The device is the node's already. */
    @Override
    public void setUpDevice() {
    }

    /**
     * Upstream {@code MapPodDevice}: the PersistentVolume's path.
     *
     * @throws VolumeException upstream's {@code device path of the volume is empty} for a PersistentVolume without one
     */
    @Override
    public Path mapPodDevice() throws VolumeException {
        if (devicePath.isEmpty()) {
            throw new VolumeException("device path of the volume is empty");
        }
        return Path.of(devicePath).toAbsolutePath();
    }

    @Override
    public void unmapPodDevice() {
    }

    @Override
    public void tearDownDevice(Path globalMapPath) {
    }
}
