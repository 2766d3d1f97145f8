package io.jkubelet.core.apis.config;

import java.util.Map;

/**
 * The few kubelet feature gates that configuration defaulting and validation consult, with their
 * v1.30 defaults, overridden by a configuration's {@code featureGates}. Gates not listed here are
 * accepted and kept but have no effect in jkubelet; an unknown name is therefore not an error (a
 * v1.30 kubelet rejects names it does not know). Immutable.
 */
public final class FeatureGates {

    public static final String CUSTOM_CPU_CFS_QUOTA_PERIOD = "CustomCPUCFSQuotaPeriod";
    public static final String IMAGE_MAXIMUM_GC_AGE = "ImageMaximumGCAge";
    public static final String ROTATE_KUBELET_SERVER_CERTIFICATE = "RotateKubeletServerCertificate";
    public static final String GRACEFUL_NODE_SHUTDOWN = "GracefulNodeShutdown";
    public static final String GRACEFUL_NODE_SHUTDOWN_BASED_ON_POD_PRIORITY = "GracefulNodeShutdownBasedOnPodPriority";
    public static final String NODE_SWAP = "NodeSwap";
    public static final String MEMORY_QOS = "MemoryQoS";
    public static final String NODE_LOG_QUERY = "NodeLogQuery";
    public static final String KUBELET_TRACING = "KubeletTracing";
    public static final String KUBELET_CRASH_LOOP_BACK_OFF_MAX = "KubeletCrashLoopBackOffMax";
    public static final String KUBELET_ENSURE_SECRET_PULLED_IMAGES = "KubeletEnsureSecretPulledImages";
    public static final String SIDECAR_CONTAINERS = "SidecarContainers";
    /** component-base's gate of the split-stream logging options. */
    public static final String LOGGING_ALPHA_OPTIONS = "LoggingAlphaOptions";
    /** component-base's gate of the JSON log format. */
    public static final String LOGGING_BETA_OPTIONS = "LoggingBetaOptions";

    /** Defaults in v1.30 (pkg/features/kube_features.go of that release). */
    private static final Map<String, Boolean> V1_30_DEFAULTS = Map.ofEntries(
            Map.entry(CUSTOM_CPU_CFS_QUOTA_PERIOD, false),
            Map.entry(IMAGE_MAXIMUM_GC_AGE, true),
            Map.entry(ROTATE_KUBELET_SERVER_CERTIFICATE, true),
            Map.entry(GRACEFUL_NODE_SHUTDOWN, true),
            Map.entry(GRACEFUL_NODE_SHUTDOWN_BASED_ON_POD_PRIORITY, true),
            Map.entry(NODE_SWAP, true),
            Map.entry(MEMORY_QOS, false),
            Map.entry(NODE_LOG_QUERY, false),
            Map.entry(KUBELET_TRACING, true),
            Map.entry(KUBELET_CRASH_LOOP_BACK_OFF_MAX, false),
            Map.entry(KUBELET_ENSURE_SECRET_PULLED_IMAGES, false),
            Map.entry(SIDECAR_CONTAINERS, true),
            Map.entry(LOGGING_ALPHA_OPTIONS, false),
            Map.entry(LOGGING_BETA_OPTIONS, true));

    private final Map<String, Boolean> overrides;

    private FeatureGates(Map<String, Boolean> overrides) {
        Map<String, Boolean> copy = new java.util.HashMap<>();
        if (overrides != null) {
            // A null value decodes to Go's false.
            overrides.forEach((name, value) -> copy.put(name, Boolean.TRUE.equals(value)));
        }
        this.overrides = Map.copyOf(copy);
    }

    /** The gates of a configuration: v1.30 defaults overridden by its {@code featureGates}. */
    public static FeatureGates of(KubeletConfiguration config) {
        return new FeatureGates(config.featureGates());
    }

    public static FeatureGates of(Map<String, Boolean> overrides) {
        return new FeatureGates(overrides);
    }

    public boolean enabled(String gate) {
        Boolean set = overrides.get(gate);
        return set != null ? set : V1_30_DEFAULTS.getOrDefault(gate, false);
    }
}
