package io.jkubelet.core.volume.csi;

import io.jkubelet.core.podutil.Resources;
import io.jkubelet.core.volume.FailedPreconditionException;
import io.jkubelet.core.volume.NodeExpandable;
import io.jkubelet.core.volume.NodeResizeOptions;
import io.jkubelet.core.volume.OperationNotSupportedException;
import io.jkubelet.core.volume.TransientOperationException;
import io.jkubelet.core.volume.VolumeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Upstream csi's {@code expander.go}: a CSI PersistentVolume grown on the node with the driver's
 * {@code NodeExpandVolume} at its publish path, its global mount path as the staging path (upstream sends it for every
 * CSI PersistentVolume, whether or not the driver stages), the new size as {@code capacity_range.required_bytes}, all
 * within one {@code csiTimeout}. A driver without {@code EXPAND_VOLUME} is not called. CSI spec v1.2.0 has no
 * {@code secrets} in the request: a PersistentVolume's {@code nodeExpandSecretRef} is not sent, which one warning per
 * driver says. Thread-safe.
 */
final class CsiExpander implements NodeExpandable {
    private static final Logger log = LoggerFactory.getLogger(CsiExpander.class);
    private static final String PREFIX = CsiRegistrationHandler.CSI_PLUGIN_NAME + ": ";

    private final CsiDrivers drivers;
    private final CsiDriverClient client;
    private final Duration csiTimeout;
    private final Set<String> secretNotSentWarned = ConcurrentHashMap.newKeySet();

    CsiExpander(CsiDrivers drivers, CsiDriverClient client, Duration csiTimeout) {
        this.drivers = drivers;
        this.client = client;
        this.csiTimeout = csiTimeout;
    }

    /** Upstream's: every CSI volume may need it; a driver that cannot is found out at {@link #nodeExpand}. */
    @Override
    public boolean requiresFsResize() {
        return true;
    }

    /**
     * Upstream {@code NodeExpand}.
     *
     * @throws TransientOperationException the driver is not registered (upstream issue 120268)
     * @throws OperationNotSupportedException {@code NodeExpand is not supported by the CSI driver <driver>}
     * @throws FailedPreconditionException {@code Expander.NodeExpand failed to expand the volume : rpc error: code =
     *     FailedPrecondition desc = ...}
     */
    @Override
    public void nodeExpand(NodeResizeOptions options) throws VolumeException {
        log.debug("{}Expander.NodeExpand({})", PREFIX, options.deviceMountPath());
        if (options.spec().persistentVolume() == null) {
            throw new VolumeException(PREFIX + "Expander.NodeExpand failed to get CSI persistent source: "
                    + "CSIPersistentVolumeSource not defined in spec");
        }
        CsiSource src = CsiSource.of(options.spec(), "", "");
        CsiNodeClient csi;
        try {
            csi = CsiNodeClient.of(drivers, client, src.driver(), csiTimeout);
        } catch (VolumeException e) {
            throw new TransientOperationException(e.getMessage());
        }
        boolean nodeExpandSet;
        try {
            nodeExpandSet = csi.nodeSupportsNodeExpand();
        } catch (VolumeException e) {
            throw new VolumeException("Expander.NodeExpand failed to check if node supports expansion : " + e.getMessage());
        }
        if (!nodeExpandSet) {
            throw new OperationNotSupportedException("NodeExpand is not supported by the CSI driver " + src.driver());
        }
        warnIfSecretNotSent(src.driver(), options);
        var request = new CsiDriverClient.NodeExpandRequest(src.volumeHandle(), options.deviceMountPath().toString(),
                Resources.bytes(options.newSize()),
                options.deviceStagePath() == null ? "" : options.deviceStagePath().toString(),
                new CsiDriverClient.MountCapability(src.fsType(), src.mountOptions(), src.accessMode()));
        try {
            csi.nodeExpandVolume(request);
        } catch (FailedPreconditionException e) {
            throw new FailedPreconditionException("Expander.NodeExpand failed to expand the volume : " + e.getMessage());
        } catch (VolumeException e) {
            throw new VolumeException("Expander.NodeExpand failed to expand the volume : " + e.getMessage());
        }
    }

    /**
     * Upstream reads the {@code nodeExpandSecretRef}'s Secret and sends it in the request's {@code secrets}, a field of
     * CSI spec 1.5 that v1.2.0, which this kubelet speaks, lacks: the volume is expanded without it, as for a volume
     * without a secret, and the driver is named once.
     */
    private void warnIfSecretNotSent(String driver, NodeResizeOptions options) {
        var ref = options.spec().persistentVolume().getSpec().getCsi().getNodeExpandSecretRef();
        if (ref != null && secretNotSentWarned.add(driver)) {
            log.warn("{}PersistentVolume {} of driver {} has nodeExpandSecretRef {}/{}, but this kubelet speaks CSI spec "
                    + "v1.2.0, whose NodeExpandVolumeRequest has no secrets: its volumes are expanded without them",
                    PREFIX, options.spec().name(), driver, ref.getNamespace(), ref.getName());
        }
    }
}
