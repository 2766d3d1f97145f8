package io.jkubelet.core.apis.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The kubelet's feature gates: the v1.30 defaults of the gates upstream knows ({@link KnownFeatureGates}),
 * overridden by a configuration's {@code featureGates} (to which {@code --feature-gates} has been merged).
 * {@link #check} applies upstream's {@code SetFromMap} rules, and jkubelet's own: a gate it does not implement
 * takes only its default. Immutable.
 */
public final class FeatureGates {

    public static final String CUSTOM_CPU_CFS_QUOTA_PERIOD = "CustomCPUCFSQuotaPeriod";
    public static final String IMAGE_MAXIMUM_GC_AGE = "ImageMaximumGCAge";
    public static final String ROTATE_KUBELET_SERVER_CERTIFICATE = "RotateKubeletServerCertificate";
    public static final String GRACEFUL_NODE_SHUTDOWN = "GracefulNodeShutdown";
    public static final String GRACEFUL_NODE_SHUTDOWN_BASED_ON_POD_PRIORITY = "GracefulNodeShutdownBasedOnPodPriority";
    public static final String NODE_SWAP = "NodeSwap";
    public static final String MEMORY_QOS = "MemoryQoS";
    public static final String MEMORY_MANAGER = "MemoryManager";
    public static final String NODE_LOG_QUERY = "NodeLogQuery";
    public static final String KUBELET_TRACING = "KubeletTracing";
    /** Not a v1.30 gate (v1.32): always off, so its field cannot be set. */
    public static final String KUBELET_CRASH_LOOP_BACK_OFF_MAX = "KubeletCrashLoopBackOffMax";
    /** Not a v1.30 gate (v1.33): always off, so its fields cannot be set. */
    public static final String KUBELET_ENSURE_SECRET_PULLED_IMAGES = "KubeletEnsureSecretPulledImages";
    public static final String SIDECAR_CONTAINERS = "SidecarContainers";
    /** component-base's gate of the split-stream logging options. */
    public static final String LOGGING_ALPHA_OPTIONS = "LoggingAlphaOptions";
    /** component-base's gate of the JSON log format. */
    public static final String LOGGING_BETA_OPTIONS = "LoggingBetaOptions";

    private final Map<String, Boolean> overrides;

    private FeatureGates(Map<String, Boolean> overrides) {
        Map<String, Boolean> copy = new HashMap<>();
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

    /** The gates a v1.30 kubelet knows, by name, with what jkubelet does with each. */
    public static Map<String, FeatureGateSpec> known() {
        return KnownFeatureGates.all();
    }

    /** Whether {@code gate} is on: its setting, else its default (an unknown gate is off). */
    public boolean enabled(String gate) {
        Boolean set = overrides.get(gate);
        if (set != null) {
            return set;
        }
        FeatureGateSpec spec = KnownFeatureGates.all().get(gate);
        return spec != null && spec.defaultValue();
    }

    /**
     * Checks {@code gates} (a configuration's {@code featureGates}) in name order as upstream's {@code SetFromMap}
     * does, and as jkubelet must.
     *
     * @return upstream's warning for each GA or deprecated gate that is set
     * @throws IllegalArgumentException for the first gate that cannot be set: an unknown one ({@code unrecognized
     *     feature gate: X}), one locked to its default, or one jkubelet does not implement set to its other value
     */
    public static List<String> check(Map<String, Boolean> gates) {
        List<String> warnings = new ArrayList<>();
        if (gates == null) {
            return warnings;
        }
        for (Map.Entry<String, Boolean> gate : new TreeMap<>(gates).entrySet()) {
            String name = gate.getKey();
            boolean value = Boolean.TRUE.equals(gate.getValue());
            FeatureGateSpec spec = KnownFeatureGates.all().get(name);
            if (spec == null) {
                throw new IllegalArgumentException("unrecognized feature gate: " + name);
            }
            if (spec.locked() && spec.defaultValue() != value) {
                throw new IllegalArgumentException("cannot set feature gate " + name + " to " + value
                        + ", feature is locked to " + spec.defaultValue());
            }
            if (spec.support() == FeatureGateSpec.Support.DEFAULT_ONLY && spec.defaultValue() != value) {
                throw new IllegalArgumentException("cannot set feature gate " + name + " to " + value
                        + ": jkubelet does not implement it (" + spec.effect() + "); only its default, "
                        + spec.defaultValue() + ", is accepted");
            }
            if (spec.stage() == FeatureGateSpec.Stage.DEPRECATED) {
                warnings.add("Setting deprecated feature gate " + name + "=" + value
                        + ". It will be removed in a future release.");
            } else if (spec.stage() == FeatureGateSpec.Stage.GA) {
                warnings.add("Setting GA feature gate " + name + "=" + value + ". It will be removed in a future release.");
            }
        }
        return warnings;
    }
}
