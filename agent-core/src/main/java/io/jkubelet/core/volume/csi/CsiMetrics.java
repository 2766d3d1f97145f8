package io.jkubelet.core.volume.csi;

import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumeMetrics;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Upstream {@code metricsCsi}: a CSI volume's usage as its driver measures it, {@code NodeGetVolumeStats} on the
 * volume's publish path, when the driver announces {@code GET_VOLUME_STATS}; without it the volume's metrics are not
 * supported and the volume is left out of the stats, as upstream's. The driver's volume condition is not read: upstream
 * reads it only with the {@code CSIVolumeHealth} gate (alpha, off in v1.30), and spec v1.2.0 has none. Each measurement
 * asks the driver twice (capabilities, then stats), as upstream's, both within one {@code csiTimeout}: a driver that
 * hangs holds the measurement that long, on the measuring thread of its own volume only (the stats'
 * {@code PodVolumeUsage}). Thread-safe.
 */
final class CsiMetrics implements VolumeMetrics.Provider {
    private final CsiDrivers drivers;
    private final CsiDriverClient client;
    private final String driverName;
    private final String volumeId;
    private final Path targetPath;
    private final Duration csiTimeout;

    CsiMetrics(CsiDrivers drivers, CsiDriverClient client, String driverName, String volumeId, Path targetPath,
               Duration csiTimeout) {
        this.drivers = drivers;
        this.client = client;
        this.driverName = driverName;
        this.volumeId = volumeId;
        this.targetPath = targetPath;
        this.csiTimeout = csiTimeout;
    }

    /**
     * @throws VolumeMetrics.NotSupportedException {@code metrics are not supported for <driver> volumes}
     * @throws VolumeException the driver is not registered, or its answer is an error
     */
    @Override
    public VolumeMetrics.Metrics getMetrics() throws VolumeException {
        CsiNodeClient csi = CsiNodeClient.of(drivers, client, driverName, csiTimeout);
        if (!csi.nodeSupportsVolumeStats()) {
            throw new VolumeMetrics.NotSupportedException(driverName);
        }
        return csi.nodeGetVolumeStats(volumeId, targetPath.toString());
    }
}
