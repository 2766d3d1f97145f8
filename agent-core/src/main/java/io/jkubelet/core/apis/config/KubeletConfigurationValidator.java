package io.jkubelet.core.apis.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The rules of upstream {@code ValidateKubeletConfiguration} (v1.30), with upstream's messages, plus a
 * few jkubelet rules for values that would otherwise break a loop at run time (non-positive periods,
 * unknown authorization mode, unparsable log size). Every error is collected, not just the first.
 * Run it on a configuration whose defaults have been applied. Stateless and thread-safe.
 */
public final class KubeletConfigurationValidator {

    /** The previous minor version of the kubelet we mirror (v1.30): the only one showHiddenMetricsForVersion takes. */
    static final String PREVIOUS_MINOR_VERSION = "1.29";

    private KubeletConfigurationValidator() {
    }

    /** Every rule the configuration breaks, in a fixed order; empty when it is valid. */
    public static List<String> validate(KubeletConfiguration kc) {
        FeatureGates gates = FeatureGates.of(kc);
        List<String> errors = new ArrayList<>();
        ConfigRules r = new ConfigRules(errors);

        r.check(kc.nodeLeaseDurationSeconds() <= 0, "nodeLeaseDurationSeconds must be greater than 0");
        r.check(!kc.systemCgroups().isEmpty() && kc.cgroupRoot().isEmpty(),
                "systemCgroups (--system-cgroups) was specified and cgroupRoot (--cgroup-root) was not specified");
        r.check(kc.eventBurst() < 0, "eventBurst (--event-burst) %d must not be a negative number", kc.eventBurst());
        r.check(value(kc.eventRecordQPS()) < 0,
                "eventRecordQPS (--event-qps) %d must not be a negative number", value(kc.eventRecordQPS()));
        int healthzPort = value(kc.healthzPort());
        r.check(healthzPort != 0 && !isValidPort(healthzPort),
                "healthzPort (--healthz-port) %d must be between 1 and 65535, inclusive", healthzPort);
        Duration cfsPeriod = kc.cpuCFSQuotaPeriod() == null ? Duration.ZERO : kc.cpuCFSQuotaPeriod();
        if (!gates.enabled(FeatureGates.CUSTOM_CPU_CFS_QUOTA_PERIOD)) {
            r.check(!cfsPeriod.equals(Duration.ofMillis(100)),
                    "cpuCFSQuotaPeriod (--cpu-cfs-quota-period) %s requires feature gate CustomCPUCFSQuotaPeriod",
                    GoDuration.format(cfsPeriod));
        } else {
            r.check(cfsPeriod.compareTo(Duration.ofMillis(1)) < 0 || cfsPeriod.compareTo(Duration.ofSeconds(1)) > 0,
                    "cpuCFSQuotaPeriod (--cpu-cfs-quota-period) %s must be between 1ms and 1sec, inclusive",
                    GoDuration.format(cfsPeriod));
        }
        int high = value(kc.imageGCHighThresholdPercent());
        int low = value(kc.imageGCLowThresholdPercent());
        r.check(high < 0 || high > 100,
                "imageGCHighThresholdPercent (--image-gc-high-threshold) %d must be between 0 and 100, inclusive", high);
        r.check(low < 0 || low > 100,
                "imageGCLowThresholdPercent (--image-gc-low-threshold) %d must be between 0 and 100, inclusive", low);
        r.check(low >= high,
                "imageGCLowThresholdPercent (--image-gc-low-threshold) %d must be less than "
                        + "imageGCHighThresholdPercent (--image-gc-high-threshold) %d", low, high);
        Duration minAge = kc.imageMinimumGCAge();
        Duration maxAge = kc.imageMaximumGCAge();
        r.check(!maxAge.isZero() && !gates.enabled(FeatureGates.IMAGE_MAXIMUM_GC_AGE),
                "ImageMaximumGCAge feature gate is required for Kubelet configuration option imageMaximumGCAge");
        r.check(minAge.isNegative(), "imageMinimumGCAge %s must not be negative", GoDuration.format(minAge));
        r.check(maxAge.isNegative(), "imageMaximumGCAge %s must not be negative", GoDuration.format(maxAge));
        r.check(maxAge.compareTo(Duration.ZERO) > 0 && maxAge.compareTo(minAge) <= 0,
                "imageMaximumGCAge %s must be greater than imageMinimumGCAge %s",
                GoDuration.format(maxAge), GoDuration.format(minAge));
        r.check(kc.draManagerReconcilePeriod() != null && !isPositive(kc.draManagerReconcilePeriod()),
                "draManagerReconcilePeriod %s must be greater than zero",
                kc.draManagerReconcilePeriod() == null ? "" : GoDuration.format(kc.draManagerReconcilePeriod()));
        int dropBit = value(kc.iptablesDropBit());
        int masqueradeBit = value(kc.iptablesMasqueradeBit());
        r.check(dropBit < 0 || dropBit > 31,
                "iptablesDropBit (--iptables-drop-bit) %d must be between 0 and 31, inclusive", dropBit);
        r.check(masqueradeBit < 0 || masqueradeBit > 31,
                "iptablesMasqueradeBit (--iptables-masquerade-bit) %d must be between 0 and 31, inclusive",
                masqueradeBit);
        r.check(kc.kubeAPIBurst() < 0,
                "kubeAPIBurst (--kube-api-burst) %d must not be a negative number", kc.kubeAPIBurst());
        r.check(value(kc.kubeAPIQPS()) < 0,
                "kubeAPIQPS (--kube-api-qps) %d must not be a negative number", value(kc.kubeAPIQPS()));
        r.check(value(kc.nodeStatusMaxImages()) < -1,
                "nodeStatusMaxImages (--node-status-max-images) %d must be -1 or greater",
                value(kc.nodeStatusMaxImages()));
        r.check(kc.maxOpenFiles() < 0,
                "maxOpenFiles (--max-open-files) %d must not be a negative number", kc.maxOpenFiles());
        r.check(kc.maxPods() < 0, "maxPods (--max-pods) %d must not be a negative number", kc.maxPods());
        int oomScoreAdj = value(kc.oomScoreAdj());
        r.check(oomScoreAdj < -1000 || oomScoreAdj > 1000,
                "oomScoreAdj (--oom-score-adj) %d must be between -1000 and 1000, inclusive", oomScoreAdj);
        r.check(kc.podsPerCore() < 0,
                "podsPerCore (--pods-per-core) %d must not be a negative number", kc.podsPerCore());
        r.check(!isValidPort(kc.port()), "port (--port) %d must be between 1 and 65535, inclusive", kc.port());
        r.check(kc.readOnlyPort() != 0 && !isValidPort(kc.readOnlyPort()),
                "readOnlyPort (--read-only-port) %d must be between 0 and 65535, inclusive", kc.readOnlyPort());
        r.check(kc.registryBurst() < 0,
                "registryBurst (--registry-burst) %d must not be a negative number", kc.registryBurst());
        r.check(value(kc.registryPullQPS()) < 0,
                "registryPullQPS (--registry-qps) %d must not be a negative number", value(kc.registryPullQPS()));
        Integer parallelPulls = kc.maxParallelImagePulls();
        r.check(parallelPulls != null && parallelPulls < 1,
                "maxParallelImagePulls %d must be a positive number", parallelPulls == null ? 0 : parallelPulls);
        r.check(Boolean.TRUE.equals(kc.serializeImagePulls()) && parallelPulls != null && parallelPulls > 1,
                "maxParallelImagePulls cannot be larger than 1 unless SerializeImagePulls "
                        + "(--serialize-image-pulls) is set to false");
        r.check(kc.serverTLSBootstrap() && !gates.enabled(FeatureGates.ROTATE_KUBELET_SERVER_CERTIFICATE),
                "serverTLSBootstrap true requires feature gate RotateKubeletServerCertificate");
        r.check(kc.runOnce(), "runOnce (--runOnce) true, Runonce mode has been deprecated and should not be set");

        TaintValidation.validateRegisterWithTaints(kc, errors);
        validateManagers(kc, r);
        validateShutdown(kc, gates, r);
        if (gates.enabled(FeatureGates.NODE_SWAP)) {
            String swap = kc.memorySwap().swapBehavior();
            r.check(!Set.of("", "NoSwap", "LimitedSwap").contains(swap),
                    "memorySwap.swapBehavior \"%s\" must be one of: \"\", \"LimitedSwap\" or \"NoSwap\"", swap);
        } else {
            r.check(!kc.memorySwap().swapBehavior().isEmpty(),
                    "memorySwap.swapBehavior cannot be set when NodeSwap feature flag is disabled");
        }
        validateCrashLoopBackOff(kc, gates, r);
        NodeAllocatableValidation.validateEnforceNodeAllocatable(kc, r);
        r.check(!Set.of("none", "hairpin-veth", "promiscuous-bridge").contains(kc.hairpinMode()),
                "option \"%s\" specified for hairpinMode (--hairpin-mode). Valid options are \"none\", "
                        + "\"hairpin-veth\" or \"promiscuous-bridge\"", kc.hairpinMode());
        validateImagePullCredentials(kc, gates, r);
        if (!kc.reservedSystemCPUs().isEmpty()) {
            r.check(!kc.systemReservedCgroup().isEmpty() || !kc.kubeReservedCgroup().isEmpty(),
                    "can't use reservedSystemCPUs (--reserved-cpus) with systemReservedCgroup "
                            + "(--system-reserved-cgroup) or kubeReservedCgroup (--kube-reserved-cgroup)");
            String cpusetError = NodeAllocatableValidation.cpusetError(kc.reservedSystemCPUs());
            r.check(cpusetError != null, "unable to parse reservedSystemCPUs (--reserved-cpus) %s, error: %s",
                    kc.reservedSystemCPUs(), cpusetError);
        }
        NodeAllocatableValidation.validateReservedMemory(kc, r);
        validateShowHiddenMetrics(kc, errors);
        ComponentConfigValidator.validateLogging(kc.logging(), gates, errors);
        ComponentConfigValidator.validateTracing(kc.tracing(), gates, errors);
        r.check(gates.enabled(FeatureGates.MEMORY_QOS) && kc.memoryThrottlingFactor() == null,
                "memoryThrottlingFactor is required when MemoryQoS feature flag is enabled");
        Double factor = kc.memoryThrottlingFactor();
        r.check(factor != null && (factor <= 0 || factor > 1.0),
                "memoryThrottlingFactor %s must be greater than 0 and less than or equal to 1.0", goFloat(factor));
        if (!kc.memoryReservationPolicy().isEmpty()) {
            r.check(!Set.of("None", "TieredReservation").contains(kc.memoryReservationPolicy()),
                    "option \"%s\" specified for memoryReservationPolicy. Valid options are \"None\" or "
                            + "\"TieredReservation\"", kc.memoryReservationPolicy());
            r.check("TieredReservation".equals(kc.memoryReservationPolicy()) && !gates.enabled(FeatureGates.MEMORY_QOS),
                    "memoryReservationPolicy \"TieredReservation\" requires MemoryQoS feature gate to be enabled");
        }
        r.check(kc.containerRuntimeEndpoint().isEmpty(), "the containerRuntimeEndpoint was not specified or empty");
        boolean logQuery = Boolean.TRUE.equals(kc.enableSystemLogQuery());
        r.check(logQuery && !gates.enabled(FeatureGates.NODE_LOG_QUERY),
                "NodeLogQuery feature gate is required for enableSystemLogQuery");
        r.check(logQuery && !Boolean.TRUE.equals(kc.enableSystemLogHandler()),
                "enableSystemLogHandler is required for enableSystemLogQuery");
        r.check(value(kc.containerLogMaxWorkers()) < 1, "containerLogMaxWorkers must be greater than or equal to 1");
        Duration monitorInterval = kc.containerLogMonitorInterval() == null ? Duration.ZERO
                : kc.containerLogMonitorInterval();
        r.check(monitorInterval.compareTo(Duration.ofSeconds(3)) < 0,
                "containerLogMonitorInterval must be a positive time duration greater than or equal to 3s");
        r.check(value(kc.containerLogMaxFiles()) <= 1, "containerLogMaxFiles must be greater than 1");
        validatePodLogsDir(kc.podLogsDir(), r);

        validateJkubeletRules(kc, r);
        return errors;
    }

    /**
     * Validates and throws one exception listing every error.
     *
     * @throws InvalidKubeletConfigurationException when any rule is broken
     */
    public static void validateOrThrow(KubeletConfiguration config) throws InvalidKubeletConfigurationException {
        List<String> errors = validate(config);
        if (!errors.isEmpty()) {
            throw new InvalidKubeletConfigurationException(errors);
        }
    }

    private static void validateManagers(KubeletConfiguration kc, ConfigRules r) {
        r.check(!Set.of("none", "best-effort", "restricted", "single-numa-node").contains(kc.topologyManagerPolicy()),
                "topologyManagerPolicy (--topology-manager-policy) \"%s\" must be one of: "
                        + "[\"none\" \"best-effort\" \"restricted\" \"single-numa-node\"]", kc.topologyManagerPolicy());
        r.check(!Set.of("container", "pod").contains(kc.topologyManagerScope()),
                "topologyManagerScope (--topology-manager-scope) \"%s\" must be one of: \"container\", or \"pod\"",
                kc.topologyManagerScope());
    }

    private static void validateShutdown(KubeletConfiguration kc, FeatureGates gates, ConfigRules r) {
        Duration period = kc.shutdownGracePeriod();
        Duration critical = kc.shutdownGracePeriodCriticalPods();
        boolean byPriority = kc.shutdownGracePeriodByPodPriority() != null
                && !kc.shutdownGracePeriodByPodPriority().isEmpty();
        if (gates.enabled(FeatureGates.GRACEFUL_NODE_SHUTDOWN)) {
            r.check(critical.compareTo(period) > 0,
                    "shutdownGracePeriodCriticalPods %s must be <= shutdownGracePeriod %s",
                    GoDuration.format(critical), GoDuration.format(period));
            r.check(period.isNegative() || (isPositive(period) && period.compareTo(Duration.ofSeconds(1)) < 0),
                    "shutdownGracePeriod %s must be either zero or otherwise >= 1 sec", GoDuration.format(period));
            r.check(critical.isNegative() || (isPositive(critical) && critical.compareTo(Duration.ofSeconds(1)) < 0),
                    "shutdownGracePeriodCriticalPods %s must be either zero or otherwise >= 1 sec",
                    GoDuration.format(critical));
        } else {
            r.check(isPositive(period) || isPositive(critical),
                    "specifying shutdownGracePeriod or shutdownGracePeriodCriticalPods requires feature gate "
                            + "GracefulNodeShutdown");
        }
        if (gates.enabled(FeatureGates.GRACEFUL_NODE_SHUTDOWN_BASED_ON_POD_PRIORITY)) {
            r.check(byPriority && (isPositive(period) || isPositive(critical)),
                    "Cannot specify both shutdownGracePeriodByPodPriority and shutdownGracePeriod at the same time");
        } else {
            r.check(byPriority, "Specifying shutdownGracePeriodByPodPriority requires feature gate "
                    + "GracefulNodeShutdownBasedOnPodPriority");
        }
    }

    private static void validateCrashLoopBackOff(KubeletConfiguration kc, FeatureGates gates, ConfigRules r) {
        Duration max = kc.crashLoopBackOff() == null ? null : kc.crashLoopBackOff().maxContainerRestartPeriod();
        if (gates.enabled(FeatureGates.KUBELET_CRASH_LOOP_BACK_OFF_MAX)) {
            r.check(max == null, "FeatureGate KubeletCrashLoopBackOffMax is enabled, "
                    + "CrashLoopBackOff.MaxContainerRestartPeriod must be set");
            r.check(max != null && (max.toMillis() < 1000 || max.toMillis() > 300_000),
                    "CrashLoopBackOff.MaxContainerRestartPeriod (got: %s seconds) must be set between 1s and 300s",
                    max == null ? "" : goFloat(max.toNanos() / 1e9));
        } else {
            r.check(max != null, "FeatureGate KubeletCrashLoopBackOffMax not enabled, "
                    + "CrashLoopBackOff.MaxContainerRestartPeriod must not be set");
        }
    }

    private static void validateImagePullCredentials(KubeletConfiguration kc, FeatureGates gates, ConfigRules r) {
        String policy = kc.imagePullCredentialsVerificationPolicy();
        boolean allowlist = kc.preloadedImagesVerificationAllowlist() != null
                && !kc.preloadedImagesVerificationAllowlist().isEmpty();
        if (gates.enabled(FeatureGates.KUBELET_ENSURE_SECRET_PULLED_IMAGES)) {
            r.check(!Set.of("NeverVerify", "NeverVerifyPreloadedImages", "NeverVerifyAllowlistedImages",
                            "AlwaysVerify").contains(policy),
                    "option \"%s\" specified for imagePullCredentialsVerificationPolicy. Valid options are "
                            + "\"NeverVerify\", \"NeverVerifyPreloadedImages\", \"NeverVerifyAllowlistedImages\" or "
                            + "\"AlwaysVerify\"", policy);
            r.check(allowlist && !"NeverVerifyAllowlistedImages".equals(policy),
                    "can't set `preloadedImagesVerificationAllowlist` if `imagePullCredentialsVertificationPolicy` "
                            + "is not \"NeverVerifyAllowlistedImages\"");
        } else {
            r.check(!policy.isEmpty(), "`imagePullCredentialsVerificationPolicy` must not be set if "
                    + "KubeletEnsureSecretPulledImages feature gate is not enabled");
            r.check(allowlist, "`preloadedImagesVerificationAllowlist` must not be set if "
                    + "KubeletEnsureSecretPulledImages feature gate is not enabled");
        }
    }

    private static void validateShowHiddenMetrics(KubeletConfiguration kc, List<String> errors) {
        String version = kc.showHiddenMetricsForVersion();
        if (!version.isEmpty() && !version.equals(PREVIOUS_MINOR_VERSION)) {
            errors.add("--show-hidden-metrics-for-version must be omitted or have the value '"
                    + PREVIOUS_MINOR_VERSION + "'. Only the previous minor version is allowed");
        }
    }

    private static void validatePodLogsDir(String dir, ConfigRules r) {
        r.check(dir.isEmpty(), "podLogsDir was not specified");
        r.check(!dir.startsWith("/"), "pod logs path \"%s\" must be absolute path", dir);
        r.check(!dir.isEmpty() && !isCleanPath(dir), "pod logs path \"%s\" must be normalized", dir);
        r.check(dir.chars().anyMatch(c -> c > 127), "pod logs path \"%s\" mut contains ASCII characters only", dir);
    }

    /** Rules jkubelet adds: values upstream accepts here but that break the running agent later. */
    private static void validateJkubeletRules(KubeletConfiguration kc, ConfigRules r) {
        positive(r, "syncFrequency", "--sync-frequency", kc.syncFrequency());
        positive(r, "fileCheckFrequency", "--file-check-frequency", kc.fileCheckFrequency());
        positive(r, "httpCheckFrequency", "--http-check-frequency", kc.httpCheckFrequency());
        positive(r, "nodeStatusUpdateFrequency", "--node-status-update-frequency", kc.nodeStatusUpdateFrequency());
        positive(r, "nodeStatusReportFrequency", null, kc.nodeStatusReportFrequency());
        positive(r, "runtimeRequestTimeout", "--runtime-request-timeout", kc.runtimeRequestTimeout());
        positive(r, "evictionPressureTransitionPeriod", "--eviction-pressure-transition-period",
                kc.evictionPressureTransitionPeriod());
        notNegative(r, "authentication.webhook.cacheTTL", kc.authentication().webhook().cacheTTL());
        notNegative(r, "authorization.webhook.cacheAuthorizedTTL", kc.authorization().webhook().cacheAuthorizedTTL());
        notNegative(r, "authorization.webhook.cacheUnauthorizedTTL",
                kc.authorization().webhook().cacheUnauthorizedTTL());
        String mode = kc.authorization().mode();
        r.check(!mode.equals(KubeletAuthorization.MODE_ALWAYS_ALLOW) && !mode.equals(KubeletAuthorization.MODE_WEBHOOK),
                "authorization.mode (--authorization-mode) \"%s\" must be one of \"AlwaysAllow\" or \"Webhook\"", mode);
        r.check(!kc.cgroupDriver().equals("cgroupfs") && !kc.cgroupDriver().equals("systemd"),
                "cgroupDriver (--cgroup-driver) \"%s\" must be \"cgroupfs\" or \"systemd\"", kc.cgroupDriver());
        String maxSize = kc.containerLogMaxSize();
        r.check(NodeAllocatableValidation.parseQuantity(maxSize) == null,
                "containerLogMaxSize (--container-log-max-size) \"%s\" is not a valid quantity", maxSize);
        r.check(kc.staticPodURLHeader() != null && kc.staticPodURLHeader().keySet().stream()
                        .anyMatch(k -> k == null || k.isBlank()),
                "staticPodURLHeader (--manifest-url-header) must not have an empty header name");
    }

    private static void positive(ConfigRules r, String field, String flag, Duration value) {
        r.check(!isPositive(value), "%s%s %s must be greater than 0",
                field, flag == null ? "" : " (" + flag + ")", GoDuration.format(value));
    }

    private static void notNegative(ConfigRules r, String field, Duration value) {
        r.check(value.isNegative(), "%s %s must not be negative", field, GoDuration.format(value));
    }

    private static boolean isPositive(Duration d) {
        return d.compareTo(Duration.ZERO) > 0;
    }

    private static boolean isValidPort(int port) {
        return port >= 1 && port <= 65535;
    }

    private static int value(Integer boxed) {
        return boxed == null ? 0 : boxed;
    }

    /** Go's %v of a float64: no trailing ".0" for whole numbers. */
    private static String goFloat(Double value) {
        if (value == null) {
            return "<nil>";
        }
        if (value == Math.rint(value) && !Double.isInfinite(value)) {
            return Long.toString(value.longValue());
        }
        return Double.toString(value);
    }

    private static boolean isCleanPath(String path) {
        String normalized = Path.of(path).normalize().toString();
        return normalized.equals(path);
    }
}
