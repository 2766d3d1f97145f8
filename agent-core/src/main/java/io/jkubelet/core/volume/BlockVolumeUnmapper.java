package io.jkubelet.core.volume;

import java.nio.file.Path;

/**
 * Unmaps one raw block volume for one pod, and for the node once no pod has it (upstream
 * {@code volume.BlockVolumeUnmapper} with {@code CustomBlockVolumeUnmapper}): the operation executor removes its own
 * links first ({@link io.jkubelet.core.volume.util.volumepathhandler.BlockVolumes#unmapBlockVolume}), then the plugin
 * undoes what it did. Idempotent.
 */
public interface BlockVolumeUnmapper {
    /** As {@link BlockVolumeMapper#podDeviceMapPath()}. */
    Path podDeviceMapPath();

    /** As {@link BlockVolumeMapper#volumeMapName()}. */
    String volumeMapName();

    /** Upstream {@code UnmapPodDevice}: the plugin's part of the pod's unmap (CSI's {@code NodeUnpublishVolume}). */
    void unmapPodDevice() throws VolumeException;

    /**
     * Upstream {@code TearDownDevice}: the plugin's part once no pod has the volume (CSI's {@code NodeUnstageVolume});
     * the global map path is removed after it.
     */
    void tearDownDevice(Path globalMapPath) throws VolumeException;
}
