package io.jkubelet.core.volume.csi;

import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumeMetrics;

import java.time.Duration;
import java.util.Set;

/**
 * One registered driver's Node service (upstream's {@code csiClientGetter} and {@code csiDriverClient}): found by name
 * among the drivers the plugin watcher registered, each call within upstream's {@code csiTimeout} (2 min). A driver's
 * error is the call's, as grpc-go prints it. Thread-safe.
 */
final class CsiNodeClient {
    /** Upstream {@code csiTimeout}. */
    static final Duration CSI_TIMEOUT = CsiRegistrationHandler.CSI_TIMEOUT;

    private final String endpoint;
    private final CsiDriverClient client;

    private CsiNodeClient(String endpoint, CsiDriverClient client) {
        this.endpoint = endpoint;
        this.client = client;
    }

    /**
     * Upstream {@code newCsiDriverClient}.
     *
     * @throws VolumeException {@code driver name <name> not found in the list of registered CSI drivers}
     */
    static CsiNodeClient of(CsiDrivers drivers, CsiDriverClient client, String driverName) throws VolumeException {
        var driver = drivers.get(driverName);
        if (driver.isEmpty()) {
            throw new VolumeException("driver name " + driverName + " not found in the list of registered CSI drivers");
        }
        return new CsiNodeClient(driver.get().endpoint(), client);
    }

    /** Upstream {@code NodeSupportsStageUnstage}. */
    boolean nodeSupportsStageUnstage() throws VolumeException {
        return nodeSupports(CsiDriverClient.NodeCapability.STAGE_UNSTAGE_VOLUME);
    }

    /** Upstream {@code NodeSupportsVolumeStats}. */
    boolean nodeSupportsVolumeStats() throws VolumeException {
        return nodeSupports(CsiDriverClient.NodeCapability.GET_VOLUME_STATS);
    }

    /** Upstream {@code NodeSupportsVolumeMountGroup}. */
    boolean nodeSupportsVolumeMountGroup() throws VolumeException {
        return nodeSupports(CsiDriverClient.NodeCapability.VOLUME_MOUNT_GROUP);
    }

    /** Upstream {@code nodeSupportsCapability}: one {@code NodeGetCapabilities} per question, as upstream asks. */
    private boolean nodeSupports(CsiDriverClient.NodeCapability capability) throws VolumeException {
        Set<CsiDriverClient.NodeCapability> caps = call(() -> client.nodeGetCapabilities(endpoint, CSI_TIMEOUT));
        return caps.contains(capability);
    }

    VolumeMetrics.Metrics nodeGetVolumeStats(String volumeId, String targetPath) throws VolumeException {
        return call(() -> client.nodeGetVolumeStats(endpoint, CSI_TIMEOUT, volumeId, targetPath));
    }

    void nodeStageVolume(CsiDriverClient.NodeStageRequest request) throws VolumeException {
        call(() -> {
            client.nodeStageVolume(endpoint, CSI_TIMEOUT, request);
            return null;
        });
    }

    void nodeUnstageVolume(String volumeId, String stagingTargetPath) throws VolumeException {
        call(() -> {
            client.nodeUnstageVolume(endpoint, CSI_TIMEOUT, volumeId, stagingTargetPath);
            return null;
        });
    }

    void nodePublishVolume(CsiDriverClient.NodePublishRequest request) throws VolumeException {
        call(() -> {
            client.nodePublishVolume(endpoint, CSI_TIMEOUT, request);
            return null;
        });
    }

    void nodeUnpublishVolume(String volumeId, String targetPath) throws VolumeException {
        call(() -> {
            client.nodeUnpublishVolume(endpoint, CSI_TIMEOUT, volumeId, targetPath);
            return null;
        });
    }

    private interface Call<T> {
        T run() throws Exception;
    }

    private static <T> T call(Call<T> call) throws VolumeException {
        try {
            return call.run();
        } catch (VolumeException e) {
            throw e;
        } catch (Exception e) {
            throw new VolumeException(e.getMessage());
        }
    }
}
