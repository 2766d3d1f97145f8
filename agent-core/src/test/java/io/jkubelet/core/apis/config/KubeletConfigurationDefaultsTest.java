package io.jkubelet.core.apis.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class KubeletConfigurationDefaultsTest {

    static List<Arguments> defaults() {
        return List.of(
                row("enableServer", KubeletConfiguration::enableServer, true),
                row("syncFrequency", KubeletConfiguration::syncFrequency, Duration.ofMinutes(1)),
                row("fileCheckFrequency", KubeletConfiguration::fileCheckFrequency, Duration.ofSeconds(20)),
                row("httpCheckFrequency", KubeletConfiguration::httpCheckFrequency, Duration.ofSeconds(20)),
                row("address", KubeletConfiguration::address, "0.0.0.0"),
                row("port", KubeletConfiguration::port, 10250),
                row("readOnlyPort", KubeletConfiguration::readOnlyPort, 0),
                row("anonymous", c -> c.authentication().anonymous().enabled(), false),
                row("webhook authn", c -> c.authentication().webhook().enabled(), true),
                row("authn cacheTTL", c -> c.authentication().webhook().cacheTTL(), Duration.ofMinutes(2)),
                row("authorization mode", c -> c.authorization().mode(), "Webhook"),
                row("cacheAuthorizedTTL", c -> c.authorization().webhook().cacheAuthorizedTTL(), Duration.ofMinutes(5)),
                row("cacheUnauthorizedTTL", c -> c.authorization().webhook().cacheUnauthorizedTTL(),
                        Duration.ofSeconds(30)),
                row("registryPullQPS", KubeletConfiguration::registryPullQPS, 5),
                row("registryBurst", KubeletConfiguration::registryBurst, 10),
                row("eventRecordQPS", KubeletConfiguration::eventRecordQPS, 50),
                row("eventBurst", KubeletConfiguration::eventBurst, 100),
                row("enableDebuggingHandlers", KubeletConfiguration::enableDebuggingHandlers, true),
                row("healthzPort", KubeletConfiguration::healthzPort, 10248),
                row("healthzBindAddress", KubeletConfiguration::healthzBindAddress, "127.0.0.1"),
                row("oomScoreAdj", KubeletConfiguration::oomScoreAdj, -999),
                row("streamingConnectionIdleTimeout", KubeletConfiguration::streamingConnectionIdleTimeout,
                        Duration.ofHours(4)),
                row("nodeStatusUpdateFrequency", KubeletConfiguration::nodeStatusUpdateFrequency,
                        Duration.ofSeconds(10)),
                row("nodeStatusReportFrequency", KubeletConfiguration::nodeStatusReportFrequency,
                        Duration.ofMinutes(5)),
                row("nodeLeaseDurationSeconds", KubeletConfiguration::nodeLeaseDurationSeconds, 40),
                row("imageMinimumGCAge", KubeletConfiguration::imageMinimumGCAge, Duration.ofMinutes(2)),
                row("imageMaximumGCAge", KubeletConfiguration::imageMaximumGCAge, Duration.ZERO),
                row("imageGCHighThresholdPercent", KubeletConfiguration::imageGCHighThresholdPercent, 85),
                row("imageGCLowThresholdPercent", KubeletConfiguration::imageGCLowThresholdPercent, 80),
                row("volumeStatsAggPeriod", KubeletConfiguration::volumeStatsAggPeriod, Duration.ofMinutes(1)),
                row("cgroupsPerQOS", KubeletConfiguration::cgroupsPerQOS, true),
                row("cgroupDriver", KubeletConfiguration::cgroupDriver, "cgroupfs"),
                row("cpuManagerPolicy", KubeletConfiguration::cpuManagerPolicy, "none"),
                row("cpuManagerReconcilePeriod", KubeletConfiguration::cpuManagerReconcilePeriod,
                        Duration.ofSeconds(10)),
                row("memoryManagerPolicy", KubeletConfiguration::memoryManagerPolicy, "None"),
                row("topologyManagerPolicy", KubeletConfiguration::topologyManagerPolicy, "none"),
                row("topologyManagerScope", KubeletConfiguration::topologyManagerScope, "container"),
                row("runtimeRequestTimeout", KubeletConfiguration::runtimeRequestTimeout, Duration.ofMinutes(2)),
                row("hairpinMode", KubeletConfiguration::hairpinMode, "promiscuous-bridge"),
                row("maxPods", KubeletConfiguration::maxPods, 110),
                row("podPidsLimit", KubeletConfiguration::podPidsLimit, -1L),
                row("resolvConf", KubeletConfiguration::resolvConf, "/etc/resolv.conf"),
                row("cpuCFSQuota", KubeletConfiguration::cpuCFSQuota, true),
                row("cpuCFSQuotaPeriod", KubeletConfiguration::cpuCFSQuotaPeriod, Duration.ofMillis(100)),
                row("nodeStatusMaxImages", KubeletConfiguration::nodeStatusMaxImages, 50),
                row("maxOpenFiles", KubeletConfiguration::maxOpenFiles, 1_000_000L),
                row("contentType", KubeletConfiguration::contentType, "application/vnd.kubernetes.protobuf"),
                row("kubeAPIQPS", KubeletConfiguration::kubeAPIQPS, 50),
                row("kubeAPIBurst", KubeletConfiguration::kubeAPIBurst, 100),
                row("serializeImagePulls", KubeletConfiguration::serializeImagePulls, true),
                row("evictionHard", KubeletConfiguration::evictionHard, Map.of("memory.available", "100Mi",
                        "nodefs.available", "10%", "nodefs.inodesFree", "5%", "imagefs.available", "15%")),
                row("evictionPressureTransitionPeriod", KubeletConfiguration::evictionPressureTransitionPeriod,
                        Duration.ofMinutes(5)),
                row("enableControllerAttachDetach", KubeletConfiguration::enableControllerAttachDetach, true),
                row("makeIPTablesUtilChains", KubeletConfiguration::makeIPTablesUtilChains, true),
                row("iptablesMasqueradeBit", KubeletConfiguration::iptablesMasqueradeBit, 14),
                row("iptablesDropBit", KubeletConfiguration::iptablesDropBit, 15),
                row("failSwapOn", KubeletConfiguration::failSwapOn, true),
                row("containerLogMaxSize", KubeletConfiguration::containerLogMaxSize, "10Mi"),
                row("containerLogMaxFiles", KubeletConfiguration::containerLogMaxFiles, 5),
                row("containerLogMaxWorkers", KubeletConfiguration::containerLogMaxWorkers, 1),
                row("containerLogMonitorInterval", KubeletConfiguration::containerLogMonitorInterval,
                        Duration.ofSeconds(10)),
                row("configMapAndSecretChangeDetectionStrategy",
                        KubeletConfiguration::configMapAndSecretChangeDetectionStrategy, "Watch"),
                row("enforceNodeAllocatable", KubeletConfiguration::enforceNodeAllocatable, List.of("pods")),
                row("volumePluginDir", KubeletConfiguration::volumePluginDir,
                        "/usr/libexec/kubernetes/kubelet-plugins/volume/exec/"),
                row("logging format", c -> c.logging().format(), "text"),
                row("logging flushFrequency", c -> c.logging().flushFrequency(),
                        new TimeOrMetaDuration(Duration.ofSeconds(5), true)),
                row("enableSystemLogHandler", KubeletConfiguration::enableSystemLogHandler, true),
                row("enableProfilingHandler", KubeletConfiguration::enableProfilingHandler, true),
                row("enableDebugFlagsHandler", KubeletConfiguration::enableDebugFlagsHandler, true),
                row("seccompDefault", KubeletConfiguration::seccompDefault, false),
                row("memoryThrottlingFactor", KubeletConfiguration::memoryThrottlingFactor, 0.9),
                row("registerNode", KubeletConfiguration::registerNode, true),
                row("localStorageCapacityIsolation", KubeletConfiguration::localStorageCapacityIsolation, true),
                row("containerRuntimeEndpoint (jkubelet: Docker)", KubeletConfiguration::containerRuntimeEndpoint,
                        "unix:///var/run/docker.sock"),
                row("podLogsDir", KubeletConfiguration::podLogsDir, "/var/log/pods"),
                row("staticPodPath", KubeletConfiguration::staticPodPath, ""),
                row("clusterDNS", KubeletConfiguration::clusterDNS, null),
                row("maxParallelImagePulls", KubeletConfiguration::maxParallelImagePulls, null),
                row("failCgroupV1 (newer than v1.30: unset)", KubeletConfiguration::failCgroupV1, null),
                row("mergeDefaultEvictionSettings (newer than v1.30: unset)",
                        KubeletConfiguration::mergeDefaultEvictionSettings, null));
    }

    private static Arguments row(String name, Function<KubeletConfiguration, Object> field, Object expected) {
        return Arguments.of(name, field, expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("defaults")
    void defaultsAreUpstreams(String name, Function<KubeletConfiguration, Object> field, Object expected) {
        assertThat(field.apply(KubeletConfigurationDefaults.newDefaulted())).isEqualTo(expected);
    }

    @Test
    void theDefaultedConfigurationPrintsLikeAV130KubeletsConfigz() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        try (InputStream golden = getClass().getResourceAsStream("defaulted-v1.30.json")) {
            // Byte for byte, in the golden file's field order (Go's), once the golden file is compacted.
            assertThat(KubeletConfigCodec.toJson(KubeletConfigurationDefaults.newDefaulted()))
                    .isEqualTo(mapper.writeValueAsString(mapper.readTree(golden)));
        }
    }

    static List<Arguments> setValuesAreKept() {
        return List.of(
                kept("port", c -> c.port(11250), c -> c.port(), 11250),
                kept("healthzPort 0 (disabled) is a set value", c -> c.healthzPort(0), c -> c.healthzPort(), 0),
                kept("registryPullQPS 0 (no limit)", c -> c.registryPullQPS(0), c -> c.registryPullQPS(), 0),
                kept("anonymous true", c -> c.authenticationBuilder().anonymousBuilder().enabled(true),
                        c -> c.authentication().anonymous().enabled(), true),
                kept("authorization mode", c -> c.authorizationBuilder().mode("AlwaysAllow"),
                        c -> c.authorization().mode(), "AlwaysAllow"),
                kept("empty resolvConf disables DNS", c -> c.resolvConf(""), c -> c.resolvConf(), ""),
                kept("empty evictionHard disables the default thresholds", c -> c.evictionHard(Map.of()),
                        c -> c.evictionHard(), Map.of()),
                kept("empty enforceNodeAllocatable", c -> c.enforceNodeAllocatable(List.of()),
                        c -> c.enforceNodeAllocatable(), List.of()),
                kept("negative podPidsLimit becomes -1", c -> c.podPidsLimit(-5L), c -> c.podPidsLimit(), -1L),
                kept("report frequency follows an explicit update frequency",
                        c -> c.nodeStatusUpdateFrequency(Duration.ofSeconds(4)),
                        c -> c.nodeStatusReportFrequency(), Duration.ofSeconds(4)),
                kept("parallel pulls imply not serializing", c -> c.maxParallelImagePulls(3),
                        c -> c.serializeImagePulls(), false),
                kept("one parallel pull keeps serializing", c -> c.maxParallelImagePulls(1),
                        c -> c.serializeImagePulls(), true),
                kept("containerRuntimeEndpoint", c -> c.containerRuntimeEndpoint("unix:///run/other.sock"),
                        c -> c.containerRuntimeEndpoint(), "unix:///run/other.sock"));
    }

    private static Arguments kept(String name, Consumer<KubeletConfiguration.Builder> set,
            Function<KubeletConfiguration, Object> get, Object expected) {
        return Arguments.of(name, set, get, expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("setValuesAreKept")
    void setValuesAreKeptOrDerivedAsUpstream(String name, Consumer<KubeletConfiguration.Builder> set,
            Function<KubeletConfiguration, Object> get, Object expected) {
        KubeletConfiguration.Builder builder = KubeletConfiguration.builder();
        set.accept(builder);

        KubeletConfiguration config = KubeletConfigurationDefaults.apply(builder.build()).build();

        assertThat(get.apply(config)).isEqualTo(expected);
    }

    @Test
    void applyingDefaultsTwiceChangesNothing() {
        KubeletConfiguration once = KubeletConfigurationDefaults.newDefaulted();
        KubeletConfiguration twice = KubeletConfigurationDefaults.apply(once).build();

        assertThat(KubeletConfigCodec.toJson(twice)).isEqualTo(KubeletConfigCodec.toJson(once));
    }
}
