package io.jkubelet.core.volume;

/**
 * How a volume's usage is measured (upstream's metrics providers). The kubelet measures most volumes itself
 * ({@link Local}): their own files walked ({@code MetricsDu}: emptyDir, configMap, secret, downwardAPI, projected),
 * their file system's figures ({@code MetricsStatFS}: local, nfs), or not at all ({@code MetricsNil}: hostPath, whose
 * directory is the host's). A plugin whose volumes someone else measures gives a {@link Provider} (upstream's
 * {@code metricsCsi}: the volume's CSI driver answers {@code NodeGetVolumeStats}).
 */
public sealed interface VolumeMetrics {
    VolumeMetrics DU = Local.DU;
    VolumeMetrics STATFS = Local.STATFS;
    VolumeMetrics NONE = Local.NONE;

    /** What the kubelet measures itself. */
    enum Local implements VolumeMetrics { DU, STATFS, NONE }

    /**
     * A volume's own provider (upstream {@code MetricsProvider.GetMetrics}), asked on the stats collector's thread at
     * each of the volume's measurements. A volume whose provider fails is left out of that round's stats.
     */
    @FunctionalInterface
    non-sealed interface Provider extends VolumeMetrics {
        /**
         * @throws NotSupportedException when the volume cannot be measured (upstream's {@code ErrCodeNotSupported}:
         *     expected, nothing logged)
         * @throws VolumeException when the measurement failed
         */
        Metrics getMetrics() throws VolumeException;
    }

    /**
     * A measurement (upstream {@code volume.Metrics}), in bytes and inodes; -1 where a figure is unknown.
     *
     * @param usedBytes what the volume's files take
     * @param inodesUsed the inodes they take
     */
    record Metrics(long capacityBytes, long availableBytes, long usedBytes, long inodes, long inodesFree, long inodesUsed) {}

    /** Upstream {@code NewNotSupportedErrorWithDriverName}: {@code metrics are not supported for <driver> volumes}. */
    final class NotSupportedException extends VolumeException {
        public NotSupportedException(String driverName) {
            super("metrics are not supported for " + driverName + " volumes");
        }
    }
}
