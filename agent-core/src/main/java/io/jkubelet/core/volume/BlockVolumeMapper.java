package io.jkubelet.core.volume;

import java.nio.file.Path;

/**
 * Maps one raw block volume ({@code volumeMode: Block}) for one pod (upstream {@code volume.BlockVolumeMapper} with
 * {@code CustomBlockVolumeMapper}, which every block plugin here is): the plugin makes the device ready for the node
 * ({@link #setUpDevice()}) and for the pod ({@link #mapPodDevice()}); the operation executor then maps the device it
 * gets into the node's global map path and the pod's device map path
 * ({@link io.jkubelet.core.volume.util.volumepathhandler.BlockVolumes#mapBlockVolume}), where the containers get it.
 * Both steps are idempotent: they are run again for a volume found mapped after a restart.
 */
public interface BlockVolumeMapper {
    /**
     * Upstream {@code GetGlobalMapPath}: the node's directory of the volume, where each pod's map file (a bind mount of
     * the device, {@code <global map path>/<pod uid>}) is kept, e.g.
     * {@code <root-dir>/plugins/kubernetes.io~local-volume/volumeDevices/<pv>}.
     */
    Path globalMapPath();

    /**
     * Upstream {@code GetPodDeviceMapPath}'s directory: {@code <root-dir>/pods/<uid>/volumeDevices/<escaped plugin>}.
     */
    Path podDeviceMapPath();

    /** Upstream {@code GetPodDeviceMapPath}'s name: the spec's name, the link's name in {@link #podDeviceMapPath()}. */
    String volumeMapName();

    /** The link to the device that the pod's containers are given: {@code <pod device map path>/<volume map name>}. */
    default Path podDevicePath() {
        return podDeviceMapPath().resolve(volumeMapName());
    }

    /** How the volume is measured for {@code /stats/summary} (upstream's block metrics: its size only). */
    VolumeMetrics metrics();

    /**
     * Upstream {@code CustomBlockVolumeMapper.SetUpDevice}: makes the volume ready once for the node (CSI's
     * {@code NodeStageVolume}); run while the volume is not known to be set up for the node. Nothing for a plugin whose
     * device is there already (a local volume).
     *
     * @throws VolumeException with what failed ({@code MapVolume.SetUpDevice failed})
     */
    void setUpDevice() throws VolumeException;

    /**
     * Upstream {@code CustomBlockVolumeMapper.MapPodDevice}: makes the volume ready for the pod and says where its
     * device is (a local volume's path, the file a CSI driver published the device at).
     *
     * @throws VolumeException with what failed ({@code MapVolume.MapPodDevice failed})
     */
    Path mapPodDevice() throws VolumeException;
}
