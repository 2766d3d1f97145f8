package io.jkubelet.core.volume;

/**
 * How a volume's usage is measured (upstream's metrics providers): its own files walked ({@code MetricsDu}: emptyDir,
 * configMap, secret, downwardAPI, projected), its file system's figures ({@code MetricsStatFS}: local, nfs), or not at
 * all ({@code MetricsNil}: hostPath, whose directory is the host's).
 */
public enum VolumeMetrics {
    DU, STATFS, NONE
}
