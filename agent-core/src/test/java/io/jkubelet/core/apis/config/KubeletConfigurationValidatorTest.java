package io.jkubelet.core.apis.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class KubeletConfigurationValidatorTest {

    static List<Arguments> invalid() {
        return List.of(
                bad("port too high", c -> c.port(70000),
                        "invalid configuration: port (--port) 70000 must be between 1 and 65535, inclusive"),
                bad("port zero", c -> c.port(0),
                        "invalid configuration: port (--port) 0 must be between 1 and 65535, inclusive"),
                bad("readOnlyPort", c -> c.readOnlyPort(65536),
                        "invalid configuration: readOnlyPort (--read-only-port) 65536 must be between 0 and 65535, "
                                + "inclusive"),
                bad("healthzPort", c -> c.healthzPort(-1),
                        "invalid configuration: healthzPort (--healthz-port) -1 must be between 1 and 65535, "
                                + "inclusive"),
                bad("oomScoreAdj", c -> c.oomScoreAdj(-1001),
                        "invalid configuration: oomScoreAdj (--oom-score-adj) -1001 must be between -1000 and 1000, "
                                + "inclusive"),
                bad("maxPods", c -> c.maxPods(-1),
                        "invalid configuration: maxPods (--max-pods) -1 must not be a negative number"),
                bad("image GC high", c -> c.imageGCHighThresholdPercent(101),
                        "invalid configuration: imageGCHighThresholdPercent (--image-gc-high-threshold) 101 must be "
                                + "between 0 and 100, inclusive"),
                bad("image GC low >= high", c -> c.imageGCLowThresholdPercent(85),
                        "invalid configuration: imageGCLowThresholdPercent (--image-gc-low-threshold) 85 must be less "
                                + "than imageGCHighThresholdPercent (--image-gc-high-threshold) 85"),
                bad("eventRecordQPS", c -> c.eventRecordQPS(-1),
                        "invalid configuration: eventRecordQPS (--event-qps) -1 must not be a negative number"),
                bad("eventBurst", c -> c.eventBurst(-1),
                        "invalid configuration: eventBurst (--event-burst) -1 must not be a negative number"),
                bad("kubeAPIQPS", c -> c.kubeAPIQPS(-1),
                        "invalid configuration: kubeAPIQPS (--kube-api-qps) -1 must not be a negative number"),
                bad("kubeAPIBurst", c -> c.kubeAPIBurst(-1),
                        "invalid configuration: kubeAPIBurst (--kube-api-burst) -1 must not be a negative number"),
                bad("registryPullQPS", c -> c.registryPullQPS(-1),
                        "invalid configuration: registryPullQPS (--registry-qps) -1 must not be a negative number"),
                bad("nodeLeaseDurationSeconds", c -> c.nodeLeaseDurationSeconds(-1),
                        "invalid configuration: nodeLeaseDurationSeconds must be greater than 0"),
                bad("containerLogMaxFiles", c -> c.containerLogMaxFiles(1),
                        "invalid configuration: containerLogMaxFiles must be greater than 1"),
                bad("containerLogMaxWorkers", c -> c.containerLogMaxWorkers(0),
                        "invalid configuration: containerLogMaxWorkers must be greater than or equal to 1"),
                bad("containerLogMonitorInterval", c -> c.containerLogMonitorInterval(Duration.ofSeconds(2)),
                        "invalid configuration: containerLogMonitorInterval must be a positive time duration greater "
                                + "than or equal to 3s"),
                bad("nodeStatusMaxImages", c -> c.nodeStatusMaxImages(-2),
                        "invalid configuration: nodeStatusMaxImages (--node-status-max-images) -2 must be -1 or "
                                + "greater"),
                bad("systemCgroups without cgroupRoot", c -> c.systemCgroups("/system"),
                        "invalid configuration: systemCgroups (--system-cgroups) was specified and cgroupRoot "
                                + "(--cgroup-root) was not specified"),
                bad("cpuCFSQuotaPeriod needs its gate", c -> c.cpuCFSQuotaPeriod(Duration.ofMillis(50)),
                        "invalid configuration: cpuCFSQuotaPeriod (--cpu-cfs-quota-period) 50ms requires feature gate "
                                + "CustomCPUCFSQuotaPeriod"),
                bad("cpuCFSQuotaPeriod range with the gate", c -> c.featureGates(Map.of("CustomCPUCFSQuotaPeriod",
                                true)).cpuCFSQuotaPeriod(Duration.ofSeconds(2)),
                        "invalid configuration: cpuCFSQuotaPeriod (--cpu-cfs-quota-period) 2s must be between 1ms and "
                                + "1sec, inclusive"),
                bad("imageMaximumGCAge <= minimum", c -> c.imageMaximumGCAge(Duration.ofMinutes(1)),
                        "invalid configuration: imageMaximumGCAge 1m0s must be greater than imageMinimumGCAge 2m0s"),
                bad("imageMaximumGCAge gate off", c -> c.featureGates(Map.of("ImageMaximumGCAge", false))
                                .imageMaximumGCAge(Duration.ofHours(1)),
                        "invalid configuration: ImageMaximumGCAge feature gate is required for Kubelet configuration "
                                + "option imageMaximumGCAge"),
                bad("maxParallelImagePulls with serialized pulls", c -> c.maxParallelImagePulls(2)
                                .serializeImagePulls(true),
                        "invalid configuration: maxParallelImagePulls cannot be larger than 1 unless "
                                + "SerializeImagePulls (--serialize-image-pulls) is set to false"),
                bad("maxParallelImagePulls zero", c -> c.maxParallelImagePulls(0),
                        "invalid configuration: maxParallelImagePulls 0 must be a positive number"),
                bad("runOnce", c -> c.runOnce(true), "invalid configuration: runOnce (--runOnce) true, Runonce mode "
                        + "has been deprecated and should not be set"),
                bad("hairpinMode", c -> c.hairpinMode("bridge"), "invalid configuration: option \"bridge\" specified "
                        + "for hairpinMode (--hairpin-mode). Valid options are \"none\", \"hairpin-veth\" or "
                        + "\"promiscuous-bridge\""),
                bad("topologyManagerScope", c -> c.topologyManagerScope("node"), "invalid configuration: "
                        + "topologyManagerScope (--topology-manager-scope) \"node\" must be one of: \"container\", "
                        + "or \"pod\""),
                bad("enforceNodeAllocatable unknown", c -> c.enforceNodeAllocatable(List.of("pods", "all")),
                        "invalid configuration: option \"all\" specified for enforceNodeAllocatable "
                                + "(--enforce-node-allocatable). Valid options are \"pods\", \"system-reserved\", "
                                + "\"kube-reserved\", or \"none\""),
                bad("enforceNodeAllocatable without cgroupsPerQOS", c -> c.cgroupsPerQOS(false),
                        "invalid configuration: cgroupsPerQOS (--cgroups-per-qos) must be set to true when \"pods\" "
                                + "contained in enforceNodeAllocatable (--enforce-node-allocatable)"),
                bad("system-reserved without its cgroup", c -> c.enforceNodeAllocatable(List.of("system-reserved")),
                        "invalid configuration: systemReservedCgroup (--system-reserved-cgroup) must be specified "
                                + "when \"system-reserved\" contained in enforceNodeAllocatable "
                                + "(--enforce-node-allocatable)"),
                bad("none with others", c -> c.enforceNodeAllocatable(List.of("none", "pods")),
                        "invalid configuration: enforceNodeAllocatable (--enforce-node-allocatable) may not contain "
                                + "additional enforcements when \"none\" is specified"),
                bad("swapBehavior", c -> c.memorySwapBuilder().swapBehavior("UnlimitedSwap"),
                        "invalid configuration: memorySwap.swapBehavior \"UnlimitedSwap\" must be one of: \"\", "
                                + "\"LimitedSwap\" or \"NoSwap\""),
                bad("shutdown critical > total", c -> c.shutdownGracePeriod(Duration.ofSeconds(10))
                                .shutdownGracePeriodCriticalPods(Duration.ofSeconds(20)),
                        "invalid configuration: shutdownGracePeriodCriticalPods 20s must be <= shutdownGracePeriod "
                                + "10s"),
                bad("shutdown below a second", c -> c.shutdownGracePeriod(Duration.ofMillis(500)),
                        "invalid configuration: shutdownGracePeriod 500ms must be either zero or otherwise >= 1 sec"),
                bad("reservedSystemCPUs", c -> c.reservedSystemCPUs("0-x"),
                        "invalid configuration: unable to parse reservedSystemCPUs (--reserved-cpus) 0-x, error: "
                                + "strconv.Atoi: parsing \"0-x\": invalid syntax"),
                bad("memoryThrottlingFactor", c -> c.memoryThrottlingFactor(1.5),
                        "invalid configuration: memoryThrottlingFactor 1.5 must be greater than 0 and less than or "
                                + "equal to 1.0"),
                bad("containerRuntimeEndpoint", c -> c.containerRuntimeEndpoint(""),
                        "invalid configuration: the containerRuntimeEndpoint was not specified or empty"),
                bad("enableSystemLogQuery without its gate", c -> c.enableSystemLogQuery(true),
                        "invalid configuration: NodeLogQuery feature gate is required for enableSystemLogQuery"),
                bad("podLogsDir relative", c -> c.podLogsDir("var/log/pods"),
                        "invalid configuration: pod logs path \"var/log/pods\" must be absolute path"),
                bad("podLogsDir not clean", c -> c.podLogsDir("/var/log/../pods"),
                        "invalid configuration: pod logs path \"/var/log/../pods\" must be normalized"),
                bad("showHiddenMetricsForVersion", c -> c.showHiddenMetricsForVersion("1.20"),
                        "--show-hidden-metrics-for-version must be omitted or have the value '1.29'. Only the previous "
                                + "minor version is allowed"),
                bad("logging format", c -> c.loggingBuilder().format("xml"),
                        "logging.format: Invalid value: \"xml\": Unsupported log format"),
                bad("json format with its gate off", c -> c.featureGates(Map.of("LoggingBetaOptions", false))
                                .loggingBuilder().format("json"),
                        "logging.format: Forbidden: Log format json is disabled, see LoggingBetaOptions feature"),
                bad("logging verbosity over int32", c -> c.loggingBuilder().verbosity(2147483648L),
                        "logging.verbosity: Invalid value: 2147483648: Must be <= 2147483647"),
                bad("vmodule with json", c -> c.loggingBuilder().format("json")
                                .vmodule(List.of(new LoggingConfiguration.VModuleItem("pleg", 4))),
                        "logging.vmodule: Forbidden: Only supported for text log format"),
                bad("vmodule empty pattern", c -> c.loggingBuilder()
                                .vmodule(List.of(new LoggingConfiguration.VModuleItem("", 4))),
                        "logging.vmodule[0]: Required value: File pattern must not be empty"),
                bad("vmodule pattern with '='", c -> c.loggingBuilder()
                                .vmodule(List.of(new LoggingConfiguration.VModuleItem("a=b", 4))),
                        "logging.vmodule[0]: Invalid value: \"a=b\": File pattern must not contain equal sign or comma"),
                bad("split stream without LoggingAlphaOptions", c -> c.loggingBuilder().options(
                                new LoggingConfiguration.FormatOptions(new LoggingConfiguration.OutputRoutingOptions(),
                                        new LoggingConfiguration.OutputRoutingOptions(true, "0"))),
                        "logging.options.json.splitStream: Forbidden: Feature LoggingAlphaOptions is disabled"),
                bad("info buffer without LoggingAlphaOptions", c -> c.loggingBuilder().options(
                                new LoggingConfiguration.FormatOptions(new LoggingConfiguration.OutputRoutingOptions(false, "1Mi"),
                                        new LoggingConfiguration.OutputRoutingOptions())),
                        "logging.options.text.infoBufferSize: Forbidden: Feature LoggingAlphaOptions is disabled"),
                bad("info buffer not a quantity", c -> c.featureGates(Map.of("LoggingAlphaOptions", true))
                                .loggingBuilder().options(new LoggingConfiguration.FormatOptions(
                                        new LoggingConfiguration.OutputRoutingOptions(),
                                        new LoggingConfiguration.OutputRoutingOptions(true, "lots"))),
                        "logging.options.json.infoBufferSize: Invalid value: \"lots\": quantities must match the "
                                + "regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
                bad("taint effect", c -> c.registerWithTaints(List.of(new Taint("a", "b", "Never"))),
                        "invalid taint: a=b:Never (invalid taint effect: Never, unsupported taint effect, supported "
                                + "values are NoSchedule, PreferNoSchedule, NoExecute)"),
                bad("taint key", c -> c.registerWithTaints(List.of(new Taint("-a", "", "NoSchedule"))),
                        "invalid taint: -a:NoSchedule (invalid taint key: name part must consist of alphanumeric "
                                + "characters, '-', '_' or '.', and must start and end with an alphanumeric "
                                + "character, at most 63 characters)"),
                bad("crashLoopBackOff needs a gate newer than v1.30", c -> c.crashLoopBackOffBuilder()
                                .maxContainerRestartPeriod(Duration.ofSeconds(10)),
                        "invalid configuration: FeatureGate KubeletCrashLoopBackOffMax not enabled, "
                        + "CrashLoopBackOff.MaxContainerRestartPeriod must not be set"),
                // jkubelet rules
                bad("syncFrequency zero", c -> c.syncFrequency(Duration.ZERO),
                        "invalid configuration: syncFrequency (--sync-frequency) 0s must be greater than 0"),
                bad("fileCheckFrequency negative", c -> c.fileCheckFrequency(Duration.ofSeconds(-1)),
                        "invalid configuration: fileCheckFrequency (--file-check-frequency) -1s must be greater "
                                + "than 0"),
                bad("httpCheckFrequency", c -> c.httpCheckFrequency(Duration.ZERO),
                        "invalid configuration: httpCheckFrequency (--http-check-frequency) 0s must be greater than 0"),
                bad("nodeStatusUpdateFrequency", c -> c.nodeStatusUpdateFrequency(Duration.ZERO),
                        "invalid configuration: nodeStatusUpdateFrequency (--node-status-update-frequency) 0s must "
                                + "be greater than 0"),
                bad("runtimeRequestTimeout", c -> c.runtimeRequestTimeout(Duration.ZERO),
                        "invalid configuration: runtimeRequestTimeout (--runtime-request-timeout) 0s must be greater "
                                + "than 0"),
                bad("authorization mode", c -> c.authorizationBuilder().mode("RBAC"),
                        "invalid configuration: authorization.mode (--authorization-mode) \"RBAC\" must be one of "
                                + "\"AlwaysAllow\" or \"Webhook\""),
                bad("cgroupDriver", c -> c.cgroupDriver("cgroupv2"),
                        "invalid configuration: cgroupDriver (--cgroup-driver) \"cgroupv2\" must be \"cgroupfs\" or "
                                + "\"systemd\""),
                bad("containerLogMaxSize", c -> c.containerLogMaxSize("ten"),
                        "invalid configuration: containerLogMaxSize (--container-log-max-size) \"ten\" is not a "
                                + "valid quantity"));
    }

    private static Arguments bad(String name, Consumer<KubeletConfiguration.Builder> change, String message) {
        return Arguments.of(name, change, message);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void eachBrokenRuleIsReportedNamingItsField(String name, Consumer<KubeletConfiguration.Builder> change,
            String message) {
        KubeletConfiguration.Builder config = defaulted();
        change.accept(config);

        assertThat(KubeletConfigurationValidator.validate(config.build())).containsExactly(message);
    }

    @Test
    void theDefaultsAreValid() {
        assertThat(KubeletConfigurationValidator.validate(KubeletConfigurationDefaults.newDefaulted())).isEmpty();
    }

    @Test
    void disabledPortsAndBoundaryValuesAreValid() {
        KubeletConfiguration config = defaulted()
                .readOnlyPort(0).healthzPort(0).port(65535).oomScoreAdj(1000).maxPods(0)
                .imageGCHighThresholdPercent(100).imageGCLowThresholdPercent(0).eventRecordQPS(0).kubeAPIQPS(0)
                .containerLogMaxFiles(2).enforceNodeAllocatable(List.of("none")).reservedSystemCPUs("0-3,5")
                .volumeStatsAggPeriod(Duration.ofSeconds(-1))
                .build();

        assertThat(KubeletConfigurationValidator.validate(config)).isEmpty();
    }

    @Test
    void everyErrorIsCollectedAndTheExceptionAggregatesThem() {
        KubeletConfiguration config = defaulted().port(70000).maxPods(-1).build();

        assertThatThrownBy(() -> KubeletConfigurationValidator.validateOrThrow(config))
                .isInstanceOfSatisfying(InvalidKubeletConfigurationException.class, e -> assertThat(e.errors())
                        .hasSize(2))
                .hasMessage("[invalid configuration: maxPods (--max-pods) -1 must not be a negative number, "
                        + "invalid configuration: port (--port) 70000 must be between 1 and 65535, inclusive]");
    }

    private static KubeletConfiguration.Builder defaulted() {
        return KubeletConfiguration.builder().from(KubeletConfigurationDefaults.newDefaulted());
    }
}
