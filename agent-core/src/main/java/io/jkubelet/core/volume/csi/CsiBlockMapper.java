package io.jkubelet.core.volume.csi;

import io.jkubelet.core.volume.BlockVolumeMapper;
import io.jkubelet.core.volume.BlockVolumeUnmapper;
import io.jkubelet.core.volume.TransientOperationException;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumeMetrics;
import io.jkubelet.core.volume.util.RemoveAll;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Upstream {@code csiBlockMapper} ({@code csi_block.go}): a CSI PersistentVolume in {@code volumeMode: Block}. The driver
 * stages it once for the node at a staging directory ({@code NodeStageVolume} with the {@code block} access type, when
 * it has {@code STAGE_UNSTAGE_VOLUME}) and publishes it for each pod at a publish file ({@code NodePublishVolume}: the
 * driver makes the file and bind-mounts the device on it, or makes a device node there); the operation executor then
 * maps that file. Under {@code <root-dir>/plugins/kubernetes.io/csi/volumeDevices}:
 * <pre>
 *   staging/&lt;spec name&gt;                 the staging path
 *   publish/&lt;spec name&gt;/&lt;pod uid&gt;       the publish path (the driver's file)
 *   &lt;spec name&gt;/dev/&lt;pod uid&gt;           the pod's map file (the global map path is {@code <spec name>/dev})
 *   &lt;spec name&gt;/data/vol_data.json     what its unmap and reconstruction need
 * </pre>
 * Every driver call of one step within one {@code csiTimeout}. Thread-safe.
 *
 * @param src the volume's source; for an unmapper, only its driver and handle (from {@code vol_data.json})
 * @param podUid the pod's UID; empty for the node's unmapper
 */
record CsiBlockMapper(CsiVolumePlugin plugin, String specName, String podUid, CsiSource src)
        implements BlockVolumeMapper, BlockVolumeUnmapper {
    private static final Logger log = LoggerFactory.getLogger(CsiBlockMapper.class);
    private static final String PREFIX = CsiRegistrationHandler.CSI_PLUGIN_NAME + ": ";

    /** Upstream {@code getVolumeDevicePluginDir}'s root: {@code plugins/kubernetes.io/csi/volumeDevices}. */
    static Path volumeDevicesDir(CsiVolumePlugin plugin) {
        return plugin.dirs().volumeDevicePluginDir(CsiNames.PLUGIN_NAME);
    }

    /** Upstream {@code getVolumeDeviceDataDir}: where the volume's {@code vol_data.json} is. */
    static Path dataDir(CsiVolumePlugin plugin, String specName) {
        return volumeDevicesDir(plugin).resolve(specName).resolve("data");
    }

    /** {@code <spec name>/dev}: each pod's map file is in it. */
    @Override
    public Path globalMapPath() {
        return volumeDevicesDir(plugin).resolve(specName).resolve("dev");
    }

    /** Upstream {@code GetStagingPath}. */
    Path stagingPath() {
        return volumeDevicesDir(plugin).resolve("staging").resolve(specName);
    }

    private Path publishDir() {
        return volumeDevicesDir(plugin).resolve("publish").resolve(specName);
    }

    /** Upstream {@code getPublishPath}. */
    Path publishPath() {
        return publishDir().resolve(podUid);
    }

    @Override
    public Path podDeviceMapPath() {
        return plugin.dirs().podVolumeDeviceDir(podUid, CsiNames.PLUGIN_NAME);
    }

    @Override
    public String volumeMapName() {
        return specName;
    }

    /** Upstream's {@code NewMetricsCsi} on the pod's map file: the driver's {@code NodeGetVolumeStats}. */
    @Override
    public VolumeMetrics metrics() {
        return new CsiMetrics(plugin.drivers(), plugin.client(), src.driver(), src.volumeHandle(),
                globalMapPath().resolve(podUid), plugin.csiTimeout());
    }

    private CsiNodeClient client(String step) throws VolumeException {
        try {
            return CsiNodeClient.of(plugin.drivers(), plugin.client(), src.driver(), plugin.csiTimeout());
        } catch (VolumeException e) {
            // Upstream issue 120268: a driver not registered (yet) is expected to come.
            throw new TransientOperationException(PREFIX + "blockMapper." + step + " failed to get CSI client: "
                    + e.getMessage());
        }
    }

    private Map<String, String> publishContext(String step) throws VolumeException {
        try {
            return plugin.attacher().publishContext(src);
        } catch (VolumeException e) {
            throw new VolumeException(PREFIX + "blockMapper." + step + " failed to get volume attachment [id="
                    + CsiNames.attachmentName(src.volumeHandle(), src.driver(), plugin.nodeName()) + "]: "
                    + e.getMessage());
        }
    }

    /**
     * Upstream {@code SetUpDevice} and {@code stageVolumeForBlock}: {@code NodeStageVolume} at the staging directory
     * when the driver stages; a stage that surely failed leaves none of the volume's files behind.
     */
    @Override
    public void setUpDevice() throws VolumeException {
        Map<String, String> publishContext = publishContext("SetupDevice");
        CsiNodeClient csi = client("SetUpDevice");
        boolean stage;
        try {
            stage = csi.nodeSupportsStageUnstage();
        } catch (VolumeException e) {
            throw new VolumeException(PREFIX + "blockMapper.stageVolumeForBlock failed to check STAGE_UNSTAGE_VOLUME "
                    + "capability: " + e.getMessage());
        }
        if (!stage) {
            log.info("{}blockMapper.stageVolumeForBlock STAGE_UNSTAGE_VOLUME capability not set. Skipping MountDevice...",
                    PREFIX);
            return;
        }
        Map<String, String> secrets = Map.of();
        if (src.nodeStageSecretRef() != null) {
            try {
                secrets = plugin.policies().credentials(src.nodeStageSecretRef());
            } catch (VolumeException e) {
                throw new VolumeException("failed to get NodeStageSecretRef " + src.nodeStageSecretRef().getNamespace()
                        + "/" + src.nodeStageSecretRef().getName() + ": " + e.getMessage());
            }
        }
        Path stagingPath = stagingPath();
        try {
            CsiMountDirs.mkdirs(stagingPath);
        } catch (IOException e) {
            throw new VolumeException(PREFIX + "blockMapper.stageVolumeForBlock failed to create dir " + stagingPath
                    + ": " + e);
        }
        try {
            csi.nodeStageVolume(new CsiDriverClient.NodeStageRequest(src.volumeHandle(), publishContext,
                    stagingPath.toString(), CsiDriverClient.MountCapability.block(src.accessMode()), secrets,
                    src.volumeAttributes()));
        } catch (VolumeException e) {
            if (VolumeException.isOperationFinished(e)) {
                cleanupOrphanDeviceFiles();
            }
            throw e;
        }
    }

    /**
     * Upstream {@code MapPodDevice} and {@code publishVolumeForBlock}: {@code NodePublishVolume} at the publish path,
     * whose directory the kubelet makes and whose file the driver makes; from the staging path, which upstream gives
     * whether the driver stages or not.
     */
    @Override
    public Path mapPodDevice() throws VolumeException {
        Map<String, String> publishContext = publishContext("MapPodDevice");
        CsiNodeClient csi = client("MapPodDevice");
        Map<String, String> secrets = Map.of();
        if (src.nodePublishSecretRef() != null) {
            try {
                secrets = plugin.policies().credentials(src.nodePublishSecretRef());
            } catch (VolumeException e) {
                throw new VolumeException(PREFIX + "blockMapper.publishVolumeForBlock failed to get NodePublishSecretRef "
                        + src.nodePublishSecretRef().getNamespace() + "/" + src.nodePublishSecretRef().getName() + ": "
                        + e.getMessage());
            }
        }
        Path publishPath = publishPath();
        try {
            CsiMountDirs.mkdirs(publishPath.getParent());
        } catch (IOException e) {
            throw new VolumeException(PREFIX + "blockMapper.publishVolumeForBlock failed to create dir "
                    + publishPath.getParent() + ":  " + e);
        }
        csi.nodePublishVolume(new CsiDriverClient.NodePublishRequest(src.volumeHandle(), publishContext,
                stagingPath().toString(), publishPath.toString(), CsiDriverClient.MountCapability.block(src.accessMode()),
                src.readOnly(), secrets, src.volumeAttributes()));
        return publishPath;
    }

    /** Upstream {@code UnmapPodDevice}: {@code NodeUnpublishVolume} of the publish path; the driver removes the file. */
    @Override
    public void unmapPodDevice() throws VolumeException {
        CsiNodeClient csi = client("UnmapPodDevice");
        try {
            csi.nodeUnpublishVolume(src.volumeHandle(), publishPath().toString());
        } catch (VolumeException e) {
            throw new VolumeException(PREFIX + "blockMapper.unpublishVolumeForBlock failed: " + e.getMessage());
        }
    }

    /**
     * Upstream {@code TearDownDevice}: {@code NodeUnstageVolume} when the staging path is there and the driver stages,
     * then the volume's files go.
     */
    @Override
    public void tearDownDevice(Path globalMapPath) throws VolumeException {
        CsiNodeClient csi = client("TearDownDevice");
        Path stagingPath = stagingPath();
        if (Files.exists(stagingPath)) {
            boolean stage;
            try {
                stage = csi.nodeSupportsStageUnstage();
            } catch (VolumeException e) {
                throw new VolumeException(PREFIX + "blockMapper.unstageVolumeForBlock failed to check "
                        + "STAGE_UNSTAGE_VOLUME capability: " + e.getMessage());
            }
            if (stage) {
                try {
                    csi.nodeUnstageVolume(src.volumeHandle(), stagingPath.toString());
                } catch (VolumeException e) {
                    throw new VolumeException(PREFIX + "blockMapper.unstageVolumeForBlock failed: " + e.getMessage());
                }
                try {
                    RemoveAll.oneFilesystem(stagingPath);
                } catch (IOException e) {
                    throw new VolumeException(PREFIX + "blockMapper.unstageVolumeForBlock failed to remove staging path "
                            + "after NodeUnstageVolume() error [" + stagingPath + "]: " + e);
                }
            }
        }
        cleanupOrphanDeviceFiles();
    }

    /**
     * Upstream {@code cleanupOrphanDeviceFiles}: once no pod has the volume, its empty publish and staging directories
     * and its {@code <spec name>} directory (the {@code vol_data.json} and the empty global map path) go; what cannot
     * be removed is only logged.
     */
    private void cleanupOrphanDeviceFiles() {
        try {
            Files.deleteIfExists(publishDir());
            Files.deleteIfExists(stagingPath());
            RemoveAll.oneFilesystem(volumeDevicesDir(plugin).resolve(specName));
        } catch (IOException e) {
            log.debug("Failed to clean up block volume directory {}", e.toString());
        }
    }
}
