package io.jkubelet.core.apis.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The v1beta1 defaults of a v1.30 kubelet ({@code SetDefaults_KubeletConfiguration}): a field that is
 * not set (null pointer, zero value, zero duration) gets its default; a field that is set is kept.
 *
 * <p>One deliberate difference: {@code containerRuntimeEndpoint} defaults to Docker's socket,
 * {@value #DEFAULT_CONTAINER_RUNTIME_ENDPOINT}, because jkubelet drives Docker, not containerd.
 * Fields added to v1beta1 after v1.30 are left unset, as a v1.30 kubelet leaves them.
 */
public final class KubeletConfigurationDefaults {

    /** jkubelet's runtime is Docker (upstream defaults to containerd's socket). */
    public static final String DEFAULT_CONTAINER_RUNTIME_ENDPOINT = "unix:///var/run/docker.sock";
    public static final String DEFAULT_POD_LOGS_DIR = "/var/log/pods";
    public static final String DEFAULT_VOLUME_PLUGIN_DIR = "/usr/libexec/kubernetes/kubelet-plugins/volume/exec/";
    public static final String DEFAULT_RESOLV_CONF = "/etc/resolv.conf";
    /** ports.KubeletPort. */
    public static final int KUBELET_PORT = 10250;
    /** ports.KubeletReadOnlyPort: the read-only port's flag default when no --config is given. */
    public static final int KUBELET_READ_ONLY_PORT = 10255;
    /** ports.KubeletHealthzPort. */
    public static final int KUBELET_HEALTHZ_PORT = 10248;
    /** qos.KubeletOOMScoreAdj. */
    public static final int KUBELET_OOM_SCORE_ADJ = -999;
    /** Linux hard eviction thresholds (pkg/kubelet/eviction/defaults_linux.go). */
    public static final Map<String, String> DEFAULT_EVICTION_HARD = Map.of(
            "memory.available", "100Mi",
            "nodefs.available", "10%",
            "nodefs.inodesFree", "5%",
            "imagefs.available", "15%");
    public static final List<String> DEFAULT_NODE_ALLOCATABLE_ENFORCEMENT = List.of("pods");
    /** component-base logs: LogFlushFreqDefault. */
    public static final Duration DEFAULT_LOG_FLUSH_FREQUENCY = Duration.ofSeconds(5);
    public static final double DEFAULT_MEMORY_THROTTLING_FACTOR = 0.9;

    private KubeletConfigurationDefaults() {
    }

    /** A configuration holding every default, as a file with only kind and apiVersion yields. */
    public static KubeletConfiguration newDefaulted() {
        KubeletConfiguration config = new KubeletConfiguration();
        apply(config);
        return config;
    }

    /** Fills every unset field of {@code c} with its default. Idempotent. */
    public static void apply(KubeletConfiguration c) {
        if (c.enableServer() == null) {
            c.enableServer(true);
        }
        c.syncFrequency(orDefault(c.syncFrequency(), Duration.ofMinutes(1)));
        c.fileCheckFrequency(orDefault(c.fileCheckFrequency(), Duration.ofSeconds(20)));
        c.httpCheckFrequency(orDefault(c.httpCheckFrequency(), Duration.ofSeconds(20)));
        if (c.address().isEmpty()) {
            c.address("0.0.0.0");
        }
        if (c.port() == 0) {
            c.port(KUBELET_PORT);
        }
        KubeletAuthentication authn = c.authentication();
        if (authn.anonymous().enabled() == null) {
            authn.anonymous().enabled(false);
        }
        if (authn.webhook().enabled() == null) {
            authn.webhook().enabled(true);
        }
        authn.webhook().cacheTTL(orDefault(authn.webhook().cacheTTL(), Duration.ofMinutes(2)));
        KubeletAuthorization authz = c.authorization();
        if (authz.mode().isEmpty()) {
            authz.mode(KubeletAuthorization.MODE_WEBHOOK);
        }
        authz.webhook().cacheAuthorizedTTL(orDefault(authz.webhook().cacheAuthorizedTTL(), Duration.ofMinutes(5)));
        authz.webhook().cacheUnauthorizedTTL(
                orDefault(authz.webhook().cacheUnauthorizedTTL(), Duration.ofSeconds(30)));
        if (c.registryPullQPS() == null) {
            c.registryPullQPS(5);
        }
        if (c.registryBurst() == 0) {
            c.registryBurst(10);
        }
        if (c.eventRecordQPS() == null) {
            c.eventRecordQPS(50);
        }
        if (c.eventBurst() == 0) {
            c.eventBurst(100);
        }
        if (c.enableDebuggingHandlers() == null) {
            c.enableDebuggingHandlers(true);
        }
        if (c.healthzPort() == null) {
            c.healthzPort(KUBELET_HEALTHZ_PORT);
        }
        if (c.healthzBindAddress().isEmpty()) {
            c.healthzBindAddress("127.0.0.1");
        }
        if (c.oomScoreAdj() == null) {
            c.oomScoreAdj(KUBELET_OOM_SCORE_ADJ);
        }
        c.streamingConnectionIdleTimeout(orDefault(c.streamingConnectionIdleTimeout(), Duration.ofHours(4)));
        if (c.nodeStatusReportFrequency().isZero()) {
            // Backward compatibility: an explicitly set update frequency is also the report frequency.
            c.nodeStatusReportFrequency(c.nodeStatusUpdateFrequency().isZero()
                    ? Duration.ofMinutes(5) : c.nodeStatusUpdateFrequency());
        }
        c.nodeStatusUpdateFrequency(orDefault(c.nodeStatusUpdateFrequency(), Duration.ofSeconds(10)));
        if (c.nodeLeaseDurationSeconds() == 0) {
            c.nodeLeaseDurationSeconds(40);
        }
        c.imageMinimumGCAge(orDefault(c.imageMinimumGCAge(), Duration.ofMinutes(2)));
        if (c.imageGCHighThresholdPercent() == null) {
            c.imageGCHighThresholdPercent(85); // below Docker's dm.min_free_space of 90%
        }
        if (c.imageGCLowThresholdPercent() == null) {
            c.imageGCLowThresholdPercent(80);
        }
        c.volumeStatsAggPeriod(orDefault(c.volumeStatsAggPeriod(), Duration.ofMinutes(1)));
        if (c.cgroupsPerQOS() == null) {
            c.cgroupsPerQOS(true);
        }
        if (c.cgroupDriver().isEmpty()) {
            c.cgroupDriver("cgroupfs");
        }
        if (c.cpuManagerPolicy().isEmpty()) {
            c.cpuManagerPolicy("none");
        }
        c.cpuManagerReconcilePeriod(orDefault(c.cpuManagerReconcilePeriod(), Duration.ofSeconds(10)));
        if (c.memoryManagerPolicy().isEmpty()) {
            c.memoryManagerPolicy("None");
        }
        if (c.topologyManagerPolicy().isEmpty()) {
            c.topologyManagerPolicy("none");
        }
        if (c.topologyManagerScope().isEmpty()) {
            c.topologyManagerScope("container");
        }
        c.runtimeRequestTimeout(orDefault(c.runtimeRequestTimeout(), Duration.ofMinutes(2)));
        if (c.hairpinMode().isEmpty()) {
            c.hairpinMode("promiscuous-bridge");
        }
        if (c.maxPods() == 0) {
            c.maxPods(110);
        }
        if (c.podPidsLimit() == null || c.podPidsLimit() < 0) {
            c.podPidsLimit(-1L); // -1 means the node allocatable PID limit
        }
        if (c.resolvConf() == null) {
            c.resolvConf(DEFAULT_RESOLV_CONF);
        }
        if (c.cpuCFSQuota() == null) {
            c.cpuCFSQuota(true);
        }
        if (c.cpuCFSQuotaPeriod() == null) {
            c.cpuCFSQuotaPeriod(Duration.ofMillis(100));
        }
        if (c.nodeStatusMaxImages() == null) {
            c.nodeStatusMaxImages(50);
        }
        if (c.maxOpenFiles() == 0) {
            c.maxOpenFiles(1_000_000L);
        }
        if (c.contentType().isEmpty()) {
            c.contentType("application/vnd.kubernetes.protobuf");
        }
        if (c.kubeAPIQPS() == null) {
            c.kubeAPIQPS(50);
        }
        if (c.kubeAPIBurst() == 0) {
            c.kubeAPIBurst(100);
        }
        if (c.serializeImagePulls() == null) {
            // Asking for parallel pulls implies not serializing them.
            c.serializeImagePulls(c.maxParallelImagePulls() == null || c.maxParallelImagePulls() < 2);
        }
        if (c.evictionHard() == null) {
            c.evictionHard(DEFAULT_EVICTION_HARD);
        }
        c.evictionPressureTransitionPeriod(
                orDefault(c.evictionPressureTransitionPeriod(), Duration.ofMinutes(5)));
        if (c.enableControllerAttachDetach() == null) {
            c.enableControllerAttachDetach(true);
        }
        if (c.makeIPTablesUtilChains() == null) {
            c.makeIPTablesUtilChains(true);
        }
        if (c.iptablesMasqueradeBit() == null) {
            c.iptablesMasqueradeBit(14);
        }
        if (c.iptablesDropBit() == null) {
            c.iptablesDropBit(15);
        }
        if (c.failSwapOn() == null) {
            c.failSwapOn(true);
        }
        if (c.containerLogMaxSize().isEmpty()) {
            c.containerLogMaxSize("10Mi");
        }
        if (c.containerLogMaxFiles() == null) {
            c.containerLogMaxFiles(5);
        }
        if (c.containerLogMaxWorkers() == null) {
            c.containerLogMaxWorkers(1);
        }
        if (c.containerLogMonitorInterval() == null) {
            c.containerLogMonitorInterval(Duration.ofSeconds(10));
        }
        if (c.configMapAndSecretChangeDetectionStrategy().isEmpty()) {
            c.configMapAndSecretChangeDetectionStrategy("Watch");
        }
        if (c.enforceNodeAllocatable() == null) {
            c.enforceNodeAllocatable(DEFAULT_NODE_ALLOCATABLE_ENFORCEMENT);
        }
        if (c.volumePluginDir().isEmpty()) {
            c.volumePluginDir(DEFAULT_VOLUME_PLUGIN_DIR);
        }
        applyRecommendedLogging(c.logging());
        if (c.enableSystemLogHandler() == null) {
            c.enableSystemLogHandler(true);
        }
        if (c.enableProfilingHandler() == null) {
            c.enableProfilingHandler(true);
        }
        if (c.enableDebugFlagsHandler() == null) {
            c.enableDebugFlagsHandler(true);
        }
        if (c.seccompDefault() == null) {
            c.seccompDefault(false);
        }
        if (c.memoryThrottlingFactor() == null) {
            c.memoryThrottlingFactor(DEFAULT_MEMORY_THROTTLING_FACTOR);
        }
        if (c.registerNode() == null) {
            c.registerNode(true);
        }
        if (c.localStorageCapacityIsolation() == null) {
            c.localStorageCapacityIsolation(true);
        }
        if (c.containerRuntimeEndpoint().isEmpty()) {
            c.containerRuntimeEndpoint(DEFAULT_CONTAINER_RUNTIME_ENDPOINT);
        }
        if (c.podLogsDir().isEmpty()) {
            c.podLogsDir(DEFAULT_POD_LOGS_DIR);
        }
    }

    /** component-base {@code SetRecommendedLoggingConfiguration}. */
    private static void applyRecommendedLogging(LoggingConfiguration logging) {
        if (logging.format().isEmpty()) {
            logging.format(LoggingConfiguration.FORMAT_TEXT);
        }
        if (logging.flushFrequency().duration().isZero()) {
            logging.flushFrequency(new TimeOrMetaDuration(DEFAULT_LOG_FLUSH_FREQUENCY, true));
        }
        // infoBufferSize of both formats already starts at "0", Go's recommended value.
    }

    private static Duration orDefault(Duration value, Duration fallback) {
        return value == null || value.isZero() ? fallback : value;
    }
}
