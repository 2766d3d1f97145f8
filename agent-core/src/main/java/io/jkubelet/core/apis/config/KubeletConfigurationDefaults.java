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
        return apply(KubeletConfiguration.builder().build()).build();
    }

    /**
     * A builder holding {@code c} with each field that {@code c} leaves unset given its default; the
     * fields it sets are kept. Every default is decided on {@code c}, before any is applied, which is what
     * upstream's order amounts to: the two defaults that read another field (nodeStatusReportFrequency,
     * serializeImagePulls) read it before it is defaulted. Applied to its own result, it changes nothing.
     */
    public static KubeletConfiguration.Builder apply(KubeletConfiguration c) {
        KubeletConfiguration.Builder d = KubeletConfiguration.builder().from(c);
        if (c.enableServer() == null) {
            d.enableServer(true);
        }
        d.syncFrequency(orDefault(c.syncFrequency(), Duration.ofMinutes(1)));
        d.fileCheckFrequency(orDefault(c.fileCheckFrequency(), Duration.ofSeconds(20)));
        d.httpCheckFrequency(orDefault(c.httpCheckFrequency(), Duration.ofSeconds(20)));
        if (c.address().isEmpty()) {
            d.address("0.0.0.0");
        }
        if (c.port() == 0) {
            d.port(KUBELET_PORT);
        }
        KubeletAuthentication authn = c.authentication();
        if (authn.anonymous().enabled() == null) {
            d.authenticationBuilder().anonymousBuilder().enabled(false);
        }
        if (authn.webhook().enabled() == null) {
            d.authenticationBuilder().webhookBuilder().enabled(true);
        }
        d.authenticationBuilder().webhookBuilder()
                .cacheTTL(orDefault(authn.webhook().cacheTTL(), Duration.ofMinutes(2)));
        KubeletAuthorization authz = c.authorization();
        if (authz.mode().isEmpty()) {
            d.authorizationBuilder().mode(KubeletAuthorization.MODE_WEBHOOK);
        }
        d.authorizationBuilder().webhookBuilder()
                .cacheAuthorizedTTL(orDefault(authz.webhook().cacheAuthorizedTTL(), Duration.ofMinutes(5)))
                .cacheUnauthorizedTTL(orDefault(authz.webhook().cacheUnauthorizedTTL(), Duration.ofSeconds(30)));
        if (c.registryPullQPS() == null) {
            d.registryPullQPS(5);
        }
        if (c.registryBurst() == 0) {
            d.registryBurst(10);
        }
        if (c.eventRecordQPS() == null) {
            d.eventRecordQPS(50);
        }
        if (c.eventBurst() == 0) {
            d.eventBurst(100);
        }
        if (c.enableDebuggingHandlers() == null) {
            d.enableDebuggingHandlers(true);
        }
        if (c.healthzPort() == null) {
            d.healthzPort(KUBELET_HEALTHZ_PORT);
        }
        if (c.healthzBindAddress().isEmpty()) {
            d.healthzBindAddress("127.0.0.1");
        }
        if (c.oomScoreAdj() == null) {
            d.oomScoreAdj(KUBELET_OOM_SCORE_ADJ);
        }
        d.streamingConnectionIdleTimeout(orDefault(c.streamingConnectionIdleTimeout(), Duration.ofHours(4)));
        if (c.nodeStatusReportFrequency().isZero()) {
            // Backward compatibility: an explicitly set update frequency is also the report frequency.
            d.nodeStatusReportFrequency(c.nodeStatusUpdateFrequency().isZero()
                    ? Duration.ofMinutes(5) : c.nodeStatusUpdateFrequency());
        }
        d.nodeStatusUpdateFrequency(orDefault(c.nodeStatusUpdateFrequency(), Duration.ofSeconds(10)));
        if (c.nodeLeaseDurationSeconds() == 0) {
            d.nodeLeaseDurationSeconds(40);
        }
        d.imageMinimumGCAge(orDefault(c.imageMinimumGCAge(), Duration.ofMinutes(2)));
        if (c.imageGCHighThresholdPercent() == null) {
            d.imageGCHighThresholdPercent(85); // below Docker's dm.min_free_space of 90%
        }
        if (c.imageGCLowThresholdPercent() == null) {
            d.imageGCLowThresholdPercent(80);
        }
        d.volumeStatsAggPeriod(orDefault(c.volumeStatsAggPeriod(), Duration.ofMinutes(1)));
        if (c.cgroupsPerQOS() == null) {
            d.cgroupsPerQOS(true);
        }
        if (c.cgroupDriver().isEmpty()) {
            d.cgroupDriver("cgroupfs");
        }
        if (c.cpuManagerPolicy().isEmpty()) {
            d.cpuManagerPolicy("none");
        }
        d.cpuManagerReconcilePeriod(orDefault(c.cpuManagerReconcilePeriod(), Duration.ofSeconds(10)));
        if (c.memoryManagerPolicy().isEmpty()) {
            d.memoryManagerPolicy("None");
        }
        if (c.topologyManagerPolicy().isEmpty()) {
            d.topologyManagerPolicy("none");
        }
        if (c.topologyManagerScope().isEmpty()) {
            d.topologyManagerScope("container");
        }
        d.runtimeRequestTimeout(orDefault(c.runtimeRequestTimeout(), Duration.ofMinutes(2)));
        if (c.hairpinMode().isEmpty()) {
            d.hairpinMode("promiscuous-bridge");
        }
        if (c.maxPods() == 0) {
            d.maxPods(110);
        }
        if (c.podPidsLimit() == null || c.podPidsLimit() < 0) {
            d.podPidsLimit(-1L); // -1 means the node allocatable PID limit
        }
        if (c.resolvConf() == null) {
            d.resolvConf(DEFAULT_RESOLV_CONF);
        }
        if (c.cpuCFSQuota() == null) {
            d.cpuCFSQuota(true);
        }
        if (c.cpuCFSQuotaPeriod() == null) {
            d.cpuCFSQuotaPeriod(Duration.ofMillis(100));
        }
        if (c.nodeStatusMaxImages() == null) {
            d.nodeStatusMaxImages(50);
        }
        if (c.maxOpenFiles() == 0) {
            d.maxOpenFiles(1_000_000L);
        }
        if (c.contentType().isEmpty()) {
            d.contentType("application/vnd.kubernetes.protobuf");
        }
        if (c.kubeAPIQPS() == null) {
            d.kubeAPIQPS(50);
        }
        if (c.kubeAPIBurst() == 0) {
            d.kubeAPIBurst(100);
        }
        if (c.serializeImagePulls() == null) {
            // Asking for parallel pulls implies not serializing them.
            d.serializeImagePulls(c.maxParallelImagePulls() == null || c.maxParallelImagePulls() < 2);
        }
        if (c.evictionHard() == null) {
            d.evictionHard(DEFAULT_EVICTION_HARD);
        }
        d.evictionPressureTransitionPeriod(
                orDefault(c.evictionPressureTransitionPeriod(), Duration.ofMinutes(5)));
        if (c.enableControllerAttachDetach() == null) {
            d.enableControllerAttachDetach(true);
        }
        if (c.makeIPTablesUtilChains() == null) {
            d.makeIPTablesUtilChains(true);
        }
        if (c.iptablesMasqueradeBit() == null) {
            d.iptablesMasqueradeBit(14);
        }
        if (c.iptablesDropBit() == null) {
            d.iptablesDropBit(15);
        }
        if (c.failSwapOn() == null) {
            d.failSwapOn(true);
        }
        if (c.containerLogMaxSize().isEmpty()) {
            d.containerLogMaxSize("10Mi");
        }
        if (c.containerLogMaxFiles() == null) {
            d.containerLogMaxFiles(5);
        }
        if (c.containerLogMaxWorkers() == null) {
            d.containerLogMaxWorkers(1);
        }
        if (c.containerLogMonitorInterval() == null) {
            d.containerLogMonitorInterval(Duration.ofSeconds(10));
        }
        if (c.configMapAndSecretChangeDetectionStrategy().isEmpty()) {
            d.configMapAndSecretChangeDetectionStrategy("Watch");
        }
        if (c.enforceNodeAllocatable() == null) {
            d.enforceNodeAllocatable(DEFAULT_NODE_ALLOCATABLE_ENFORCEMENT);
        }
        if (c.volumePluginDir().isEmpty()) {
            d.volumePluginDir(DEFAULT_VOLUME_PLUGIN_DIR);
        }
        applyRecommendedLogging(c.logging(), d.loggingBuilder());
        if (c.enableSystemLogHandler() == null) {
            d.enableSystemLogHandler(true);
        }
        if (c.enableProfilingHandler() == null) {
            d.enableProfilingHandler(true);
        }
        if (c.enableDebugFlagsHandler() == null) {
            d.enableDebugFlagsHandler(true);
        }
        if (c.seccompDefault() == null) {
            d.seccompDefault(false);
        }
        if (c.memoryThrottlingFactor() == null) {
            d.memoryThrottlingFactor(DEFAULT_MEMORY_THROTTLING_FACTOR);
        }
        if (c.registerNode() == null) {
            d.registerNode(true);
        }
        if (c.localStorageCapacityIsolation() == null) {
            d.localStorageCapacityIsolation(true);
        }
        if (c.containerRuntimeEndpoint().isEmpty()) {
            d.containerRuntimeEndpoint(DEFAULT_CONTAINER_RUNTIME_ENDPOINT);
        }
        if (c.podLogsDir().isEmpty()) {
            d.podLogsDir(DEFAULT_POD_LOGS_DIR);
        }
        return d;
    }

    /** component-base {@code SetRecommendedLoggingConfiguration}. */
    private static void applyRecommendedLogging(LoggingConfiguration logging, LoggingConfiguration.Builder defaulted) {
        if (logging.format().isEmpty()) {
            defaulted.format(LoggingConfiguration.FORMAT_TEXT);
        }
        if (logging.flushFrequency().duration().isZero()) {
            defaulted.flushFrequency(new TimeOrMetaDuration(DEFAULT_LOG_FLUSH_FREQUENCY, true));
        }
        // infoBufferSize of both formats already starts at "0", Go's recommended value.
    }

    private static Duration orDefault(Duration value, Duration fallback) {
        return value == null || value.isZero() ? fallback : value;
    }
}
