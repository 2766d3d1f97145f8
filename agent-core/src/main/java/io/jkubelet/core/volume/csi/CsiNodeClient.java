package io.jkubelet.core.volume.csi;

import io.jkubelet.core.volume.FailedPreconditionException;
import io.jkubelet.core.volume.UncertainProgressException;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumeMetrics;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

/**
 * One registered driver's Node service for one operation (upstream's {@code csiClientGetter} and {@code csiDriverClient}
 * with the operation's context): found by name among the drivers the plugin watcher registered, every call of the
 * operation within one deadline, {@code csiTimeout} (2 min) from its start, as upstream's {@code SetUpAt},
 * {@code MountDevice}, {@code TearDownAt}, {@code UnmountDevice} and {@code metricsCsi} share one context between their
 * calls. A driver's error is the call's, as grpc-go prints it; a stage or publish that failed without a final answer
 * (upstream's {@code isFinalError}) is uncertain. Thread-safe.
 */
final class CsiNodeClient {
    /**
     * The gRPC codes after which the call may still be under way in the driver (upstream {@code isFinalError}):
     * cancelled, timed out, the connection broken or the server shutting down, out of resources, or the CSI spec's
     * "an operation is pending for the volume".
     */
    private static final Set<String> NOT_FINAL = Set.of("Canceled", "DeadlineExceeded", "Unavailable",
            "ResourceExhausted", "Aborted");
    /** The codes of a connection that ended mid-call, after which the driver's socket is looked at. */
    private static final Set<String> CONNECTION_ENDED = Set.of("Canceled", "Unavailable");

    private final String driverName;
    private final String endpoint;
    private final CsiDriverClient client;
    /** On the monotonic clock gRPC's deadlines run on: the calls' time is real time, whatever the kubelet's clock. */
    private final long deadlineNanos;

    private CsiNodeClient(String driverName, String endpoint, CsiDriverClient client, Duration timeout) {
        this.driverName = driverName;
        this.endpoint = endpoint;
        this.client = client;
        this.deadlineNanos = System.nanoTime() + timeout.toNanos();
    }

    /**
     * Upstream {@code newCsiDriverClient}, with the operation's context of {@code timeout}.
     *
     * @throws VolumeException {@code driver name <name> not found in the list of registered CSI drivers}
     */
    static CsiNodeClient of(CsiDrivers drivers, CsiDriverClient client, String driverName, Duration timeout)
            throws VolumeException {
        var driver = drivers.get(driverName);
        if (driver.isEmpty()) {
            throw new VolumeException("driver name " + driverName + " not found in the list of registered CSI drivers");
        }
        return new CsiNodeClient(driverName, driver.get().endpoint(), client, timeout);
    }

    /** Upstream {@code NodeSupportsStageUnstage}. */
    boolean nodeSupportsStageUnstage() throws VolumeException {
        return nodeSupports(CsiDriverClient.NodeCapability.STAGE_UNSTAGE_VOLUME);
    }

    /** Upstream {@code NodeSupportsVolumeStats}. */
    boolean nodeSupportsVolumeStats() throws VolumeException {
        return nodeSupports(CsiDriverClient.NodeCapability.GET_VOLUME_STATS);
    }

    /** Upstream {@code NodeSupportsNodeExpand}. */
    boolean nodeSupportsNodeExpand() throws VolumeException {
        return nodeSupports(CsiDriverClient.NodeCapability.EXPAND_VOLUME);
    }

    /** Upstream {@code NodeSupportsVolumeMountGroup}. */
    boolean nodeSupportsVolumeMountGroup() throws VolumeException {
        return nodeSupports(CsiDriverClient.NodeCapability.VOLUME_MOUNT_GROUP);
    }

    /** Upstream {@code nodeSupportsCapability}: one {@code NodeGetCapabilities} per question, as upstream asks. */
    private boolean nodeSupports(CsiDriverClient.NodeCapability capability) throws VolumeException {
        Set<CsiDriverClient.NodeCapability> caps = call(false, () -> client.nodeGetCapabilities(endpoint, left()));
        return caps.contains(capability);
    }

    VolumeMetrics.Metrics nodeGetVolumeStats(String volumeId, String targetPath) throws VolumeException {
        return call(false, () -> client.nodeGetVolumeStats(endpoint, left(), volumeId, targetPath));
    }

    /** @throws UncertainProgressException the driver gave no final answer: the volume may be staged */
    void nodeStageVolume(CsiDriverClient.NodeStageRequest request) throws VolumeException {
        call(true, () -> {
            client.nodeStageVolume(endpoint, left(), request);
            return null;
        });
    }

    void nodeUnstageVolume(String volumeId, String stagingTargetPath) throws VolumeException {
        call(false, () -> {
            client.nodeUnstageVolume(endpoint, left(), volumeId, stagingTargetPath);
            return null;
        });
    }

    /** @throws UncertainProgressException the driver gave no final answer: the volume may be published */
    void nodePublishVolume(CsiDriverClient.NodePublishRequest request) throws VolumeException {
        call(true, () -> {
            client.nodePublishVolume(endpoint, left(), request);
            return null;
        });
    }

    void nodeUnpublishVolume(String volumeId, String targetPath) throws VolumeException {
        call(false, () -> {
            client.nodeUnpublishVolume(endpoint, left(), volumeId, targetPath);
            return null;
        });
    }

    /**
     * Upstream {@code NodeExpandVolume}: the capacity the driver answered.
     *
     * @throws FailedPreconditionException the driver answered {@code FailedPrecondition} (upstream's {@code inUseError}):
     *     it cannot expand the volume while it is in use
     */
    long nodeExpandVolume(CsiDriverClient.NodeExpandRequest request) throws VolumeException {
        return call(false, () -> {
            try {
                return client.nodeExpandVolume(endpoint, left(), request);
            } catch (CsiDriverClient.RpcException e) {
                if ("FailedPrecondition".equals(e.code())) {
                    throw new FailedPreconditionException(e.getMessage());
                }
                throw e;
            }
        });
    }

    /** What is left of the operation's deadline: none once it passed, so that the next call fails at once. */
    private Duration left() {
        return Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime()));
    }

    private interface Call<T> {
        T run() throws Exception;
    }

    /**
     * @param mayBeUnderWay the call changes the node (stage, publish): a failure without a final answer is uncertain,
     *     as upstream's {@code NewUncertainProgressError}
     */
    private <T> T call(boolean mayBeUnderWay, Call<T> call) throws VolumeException {
        try {
            return call.run();
        } catch (VolumeException e) {
            throw e;
        } catch (CsiDriverClient.RpcException e) {
            String message = socketGone(e) ? "CSI driver " + driverName + ": its socket " + endpoint + " is gone: "
                    + e.getMessage() : e.getMessage();
            if (mayBeUnderWay && NOT_FINAL.contains(e.code())) {
                throw new UncertainProgressException(message);
            }
            throw new VolumeException(message);
        } catch (Exception e) {
            throw new VolumeException(e.getMessage());
        }
    }

    /**
     * Whether the connection ended because the driver's socket went (the driver stopped, or its directory was cleaned):
     * the error then names the driver and the socket, which grpc-go's words for a broken connection do not.
     */
    private boolean socketGone(CsiDriverClient.RpcException e) {
        return CONNECTION_ENDED.contains(e.code()) && !Files.exists(Path.of(endpoint));
    }
}
