package io.jkubelet.core.apis.config;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kubelet's configuration: every field of upstream {@code kubelet.config.k8s.io/v1beta1}
 * {@code KubeletConfiguration}, with the same JSON names, so that a real kubelet configuration file
 * loads, including fields jkubelet does not act on yet (they are kept and shown back by {@code /configz}).
 *
 * <p>Fields follow Go's shapes so that the file's meaning and the printed form are upstream's:
 * a Go pointer field ({@code *bool}, {@code *int32}) is a nullable boxed value, null meaning "not set";
 * a plain Go scalar is a Java primitive or an empty string, its zero value meaning "not set"; a Go
 * {@code metav1.Duration} is a {@link Duration} that is {@link Duration#ZERO} when not set. After
 * {@link KubeletConfigurationDefaults#apply} every field that upstream defaults is set (non-null).
 * Fields added to v1beta1 after v1.30 are accepted and kept, but neither defaulted nor printed
 * unless set, so that the printed configuration is a v1.30 kubelet's.
 *
 * <p>Not thread-safe: it is built and mutated by one thread during start-up (file, defaults, flags)
 * and must be treated as read-only once handed to the running kubelet. {@link KubeletConfigCodec#copy}
 * makes an independent deep copy.
 */
// kind and apiVersion (Go's TypeMeta) are checked by KubeletConfigFile before binding.
@JsonIgnoreProperties({"kind", "apiVersion"})
public final class KubeletConfiguration {

    /** The only {@code apiVersion} accepted in a configuration file. */
    public static final String API_VERSION = "kubelet.config.k8s.io/v1beta1";
    /** The only {@code kind} accepted in a configuration file. */
    public static final String KIND = "KubeletConfiguration";

    /** Serve the secure (authenticated) API. Default true. */
    @JsonProperty("enableServer")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Boolean enableServer;

    /** Directory of static pod manifests, or a single manifest file. Default "". */
    @JsonProperty("staticPodPath")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String staticPodPath = "";

    /** Root of the pod log directories. Default /var/log/pods. */
    @JsonProperty("podLogsDir")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String podLogsDir = "";

    /** Max period between synchronizing running containers and config. Default 1m. */
    @JsonProperty("syncFrequency")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private Duration syncFrequency = Duration.ZERO;

    /** Period between checks of the static pod path. Default 20s. */
    @JsonProperty("fileCheckFrequency")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private Duration fileCheckFrequency = Duration.ZERO;

    /** Period between fetches of the static pod URL. Default 20s. */
    @JsonProperty("httpCheckFrequency")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private Duration httpCheckFrequency = Duration.ZERO;

    /** URL serving static pods. Default "". */
    @JsonProperty("staticPodURL")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String staticPodURL = "";

    /** HTTP headers sent to staticPodURL; every value is sent. */
    @JsonProperty("staticPodURLHeader")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private Map<String, List<String>> staticPodURLHeader;

    /** IP address the servers bind to. Default 0.0.0.0. */
    @JsonProperty("address")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String address = "";

    /** Port of the secure server. Default 10250. */
    @JsonProperty("port")
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    private int port;

    /** Port of the unauthenticated read-only server; 0 disables it. Default 0. */
    @JsonProperty("readOnlyPort")
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    private int readOnlyPort;

    /** Serving certificate (x509 PEM, CA chain appended). */
    @JsonProperty("tlsCertFile")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String tlsCertFile = "";

    /** Key of tlsCertFile. */
    @JsonProperty("tlsPrivateKeyFile")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String tlsPrivateKeyFile = "";

    /** Allowed TLS cipher suites (Go names). */
    @JsonProperty("tlsCipherSuites")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private List<String> tlsCipherSuites;

    /** Allowed key exchange curves (Go CurveID numbers). */
    @JsonProperty("tlsCurvePreferences")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private List<Integer> tlsCurvePreferences;

    /** Minimum TLS version (VersionTLS12, VersionTLS13). */
    @JsonProperty("tlsMinVersion")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String tlsMinVersion = "";

    /** Rotate the client certificate through the certificates API. Default false. */
    @JsonProperty("rotateCertificates")
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    private boolean rotateCertificates;

    /** Request the serving certificate through a CSR. Default false. */
    @JsonProperty("serverTLSBootstrap")
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    private boolean serverTLSBootstrap;

    /** How requests to the secure server are authenticated. */
    @JsonProperty("authentication")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private KubeletAuthentication authentication = new KubeletAuthentication();

    /** How requests to the secure server are authorized. */
    @JsonProperty("authorization")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private KubeletAuthorization authorization = new KubeletAuthorization();

    /** Image pulls per second; 0 means no limit. Default 5. */
    @JsonProperty("registryPullQPS")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Integer registryPullQPS;

    /** Burst of image pulls. Default 10. */
    @JsonProperty("registryBurst")
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    private int registryBurst;

    /** Newer than v1.30 (gate KubeletEnsureSecretPulledImages). */
    @JsonProperty("imagePullCredentialsVerificationPolicy")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String imagePullCredentialsVerificationPolicy = "";

    /** Newer than v1.30 (gate KubeletEnsureSecretPulledImages). */
    @JsonProperty("preloadedImagesVerificationAllowlist")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private List<String> preloadedImagesVerificationAllowlist;

    /** Events created per second; 0 means no limit. Default 50. */
    @JsonProperty("eventRecordQPS")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Integer eventRecordQPS;

    /** Burst of event creations. Default 100. */
    @JsonProperty("eventBurst")
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    private int eventBurst;

    /** Serve logs, exec, attach, port-forward and run. Default true. */
    @JsonProperty("enableDebuggingHandlers")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Boolean enableDebuggingHandlers;

    /** Block profiling when debugging handlers are on. Default false. */
    @JsonProperty("enableContentionProfiling")
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    private boolean enableContentionProfiling;

    /** Port of the localhost healthz server; 0 disables it. Default 10248. */
    @JsonProperty("healthzPort")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Integer healthzPort;

    /** IP address of the healthz server. Default 127.0.0.1. */
    @JsonProperty("healthzBindAddress")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String healthzBindAddress = "";

    /** oom_score_adj of the kubelet process, in [-1000, 1000]. Default -999. */
    @JsonProperty("oomScoreAdj")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Integer oomScoreAdj;

    /** Cluster DNS domain added to container search paths. Default "". */
    @JsonProperty("clusterDomain")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String clusterDomain = "";

    /** Cluster DNS server IPs given to containers. Default none. */
    @JsonProperty("clusterDNS")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private List<String> clusterDNS;

    /** Deprecated, no effect. Default 4h. */
    @JsonProperty("streamingConnectionIdleTimeout")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private Duration streamingConnectionIdleTimeout = Duration.ZERO;

    /** Period of node status computation. Default 10s. */
    @JsonProperty("nodeStatusUpdateFrequency")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private Duration nodeStatusUpdateFrequency = Duration.ZERO;

    /** Period of unchanged node status posts. Default 5m, or nodeStatusUpdateFrequency when only that is set. */
    @JsonProperty("nodeStatusReportFrequency")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private Duration nodeStatusReportFrequency = Duration.ZERO;

    /** Duration of the node Lease. Default 40. */
    @JsonProperty("nodeLeaseDurationSeconds")
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    private int nodeLeaseDurationSeconds;

    /** Minimum age of an unused image before GC. Default 2m. */
    @JsonProperty("imageMinimumGCAge")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private Duration imageMinimumGCAge = Duration.ZERO;

    /** Maximum unused age before GC; 0s disables. Default 0s. */
    @JsonProperty("imageMaximumGCAge")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private Duration imageMaximumGCAge = Duration.ZERO;

    /** Disk usage percent that triggers image GC. Default 85. */
    @JsonProperty("imageGCHighThresholdPercent")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Integer imageGCHighThresholdPercent;

    /** Disk usage percent image GC frees down to. Default 80. */
    @JsonProperty("imageGCLowThresholdPercent")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Integer imageGCLowThresholdPercent;

    /** Period of volume disk usage calculation. Default 1m. */
    @JsonProperty("volumeStatsAggPeriod")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private Duration volumeStatsAggPeriod = Duration.ZERO;

    /** Cgroup to isolate the kubelet in. */
    @JsonProperty("kubeletCgroups")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String kubeletCgroups = "";

    /** Cgroup for non-kernel processes not in a container. */
    @JsonProperty("systemCgroups")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String systemCgroups = "";

    /** Root cgroup for pods. */
    @JsonProperty("cgroupRoot")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String cgroupRoot = "";

    /** QoS cgroup hierarchy. Default true. */
    @JsonProperty("cgroupsPerQOS")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Boolean cgroupsPerQOS;

    /** cgroupfs or systemd. Default cgroupfs. */
    @JsonProperty("cgroupDriver")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String cgroupDriver = "";

    /** CPU manager policy. Default none. */
    @JsonProperty("cpuManagerPolicy")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String cpuManagerPolicy = "";

    /** Newer than v1.30: do not set memory.oom.group. */
    @JsonProperty("singleProcessOOMKill")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Boolean singleProcessOOMKill;

    /** CPU manager policy options. */
    @JsonProperty("cpuManagerPolicyOptions")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private Map<String, String> cpuManagerPolicyOptions;

    /** CPU manager reconcile period. Default 10s. */
    @JsonProperty("cpuManagerReconcilePeriod")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private Duration cpuManagerReconcilePeriod = Duration.ZERO;

    /** Newer than v1.30: DRA manager reconcile period. */
    @JsonProperty("draManagerReconcilePeriod")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Duration draManagerReconcilePeriod;

    /** Memory manager policy. Default None. */
    @JsonProperty("memoryManagerPolicy")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String memoryManagerPolicy = "";

    /** Topology manager policy. Default none. */
    @JsonProperty("topologyManagerPolicy")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String topologyManagerPolicy = "";

    /** Topology manager scope. Default container. */
    @JsonProperty("topologyManagerScope")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String topologyManagerScope = "";

    /** Topology manager policy options. */
    @JsonProperty("topologyManagerPolicyOptions")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private Map<String, String> topologyManagerPolicyOptions;

    /** Percentage of resources reserved for Guaranteed pods. */
    @JsonProperty("qosReserved")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private Map<String, String> qosReserved;

    /** Timeout of runtime requests other than pull, logs, exec, attach. Default 2m. */
    @JsonProperty("runtimeRequestTimeout")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private Duration runtimeRequestTimeout = Duration.ZERO;

    /** promiscuous-bridge, hairpin-veth or none. Default promiscuous-bridge. */
    @JsonProperty("hairpinMode")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String hairpinMode = "";

    /** Maximum number of pods on this node. Default 110. */
    @JsonProperty("maxPods")
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    private int maxPods;

    /** Pod CIDR in standalone mode. */
    @JsonProperty("podCIDR")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String podCIDR = "";

    /** Maximum PIDs per pod; -1 means node allocatable. Default -1. */
    @JsonProperty("podPidsLimit")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Long podPidsLimit;

    /** Resolver configuration base for container DNS; "" disables. Default /etc/resolv.conf. */
    @JsonProperty("resolvConf")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private String resolvConf;

    /** Deprecated run-once mode; must not be set. */
    @JsonProperty("runOnce")
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    private boolean runOnce;

    /** Enforce CPU limits with CFS quota. Default true. */
    @JsonProperty("cpuCFSQuota")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Boolean cpuCFSQuota;

    /** CFS quota period. Default 100ms. */
    @JsonProperty("cpuCFSQuotaPeriod")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Duration cpuCFSQuotaPeriod;

    /** Images reported in node status; -1 means no cap. Default 50. */
    @JsonProperty("nodeStatusMaxImages")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Integer nodeStatusMaxImages;

    /** Files the kubelet process can open. Default 1000000. */
    @JsonProperty("maxOpenFiles")
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    private long maxOpenFiles;

    /** Content type of requests to the apiserver. Default application/vnd.kubernetes.protobuf. */
    @JsonProperty("contentType")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String contentType = "";

    /** QPS towards the apiserver. Default 50. */
    @JsonProperty("kubeAPIQPS")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Integer kubeAPIQPS;

    /** Burst towards the apiserver. Default 100. */
    @JsonProperty("kubeAPIBurst")
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    private int kubeAPIBurst;

    /** Pull one image at a time. Default true unless maxParallelImagePulls >= 2. */
    @JsonProperty("serializeImagePulls")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Boolean serializeImagePulls;

    /** Maximum parallel image pulls; null means no limit. */
    @JsonProperty("maxParallelImagePulls")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Integer maxParallelImagePulls;

    /** Hard eviction thresholds, signal to quantity. Default memory.available 100Mi, nodefs.available 10%, nodefs.inodesFree 5%, imagefs.available 15%. */
    @JsonProperty("evictionHard")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private Map<String, String> evictionHard;

    /** Soft eviction thresholds. */
    @JsonProperty("evictionSoft")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private Map<String, String> evictionSoft;

    /** Grace periods of the soft thresholds. */
    @JsonProperty("evictionSoftGracePeriod")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private Map<String, String> evictionSoftGracePeriod;

    /** Wait before leaving a pressure condition. Default 5m. */
    @JsonProperty("evictionPressureTransitionPeriod")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private Duration evictionPressureTransitionPeriod = Duration.ZERO;

    /** Grace cap for soft evictions, seconds. Default 0. */
    @JsonProperty("evictionMaxPodGracePeriod")
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    private int evictionMaxPodGracePeriod;

    /** Minimum amounts reclaimed per signal. */
    @JsonProperty("evictionMinimumReclaim")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private Map<String, String> evictionMinimumReclaim;

    /** Newer than v1.30: merge default eviction thresholds. */
    @JsonProperty("mergeDefaultEvictionSettings")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Boolean mergeDefaultEvictionSettings;

    /** Maximum pods per core; 0 means no limit. Default 0. */
    @JsonProperty("podsPerCore")
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    private int podsPerCore;

    /** Let the attach/detach controller manage volumes. Default true. */
    @JsonProperty("enableControllerAttachDetach")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Boolean enableControllerAttachDetach;

    /** Fail when kernel flags differ from expectations. Default false. */
    @JsonProperty("protectKernelDefaults")
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    private boolean protectKernelDefaults;

    /** Create the KUBE-IPTABLES-HINT chain. Default true. */
    @JsonProperty("makeIPTablesUtilChains")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Boolean makeIPTablesUtilChains;

    /** Deprecated, no effect. Default 14. */
    @JsonProperty("iptablesMasqueradeBit")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Integer iptablesMasqueradeBit;

    /** Deprecated, no effect. Default 15. */
    @JsonProperty("iptablesDropBit")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Integer iptablesDropBit;

    /** Feature gate overrides. */
    @JsonProperty("featureGates")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private Map<String, Boolean> featureGates;

    /** Refuse to start when swap is on. Default true. */
    @JsonProperty("failSwapOn")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Boolean failSwapOn;

    /** Swap available to workloads. */
    @JsonProperty("memorySwap")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private MemorySwapConfiguration memorySwap = new MemorySwapConfiguration();

    /** Size at which a container log is rotated. Default 10Mi. */
    @JsonProperty("containerLogMaxSize")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String containerLogMaxSize = "";

    /** Log files kept per container, at least 2. Default 5. */
    @JsonProperty("containerLogMaxFiles")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Integer containerLogMaxFiles;

    /** Concurrent log rotation workers. Default 1. */
    @JsonProperty("containerLogMaxWorkers")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Integer containerLogMaxWorkers;

    /** Period of log rotation checks. Default 10s. */
    @JsonProperty("containerLogMonitorInterval")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Duration containerLogMonitorInterval;

    /** Get, Cache or Watch. Default Watch. */
    @JsonProperty("configMapAndSecretChangeDetectionStrategy")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String configMapAndSecretChangeDetectionStrategy = "";

    /** Resources reserved for non-kubernetes components. */
    @JsonProperty("systemReserved")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private Map<String, String> systemReserved;

    /** Resources reserved for kubernetes components. */
    @JsonProperty("kubeReserved")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private Map<String, String> kubeReserved;

    /** CPU list reserved for system and kubernetes threads. */
    @JsonProperty("reservedSystemCPUs")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String reservedSystemCPUs = "";

    /** Previous minor version whose hidden metrics are shown. */
    @JsonProperty("showHiddenMetricsForVersion")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String showHiddenMetricsForVersion = "";

    /** Cgroup enforcing systemReserved. */
    @JsonProperty("systemReservedCgroup")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String systemReservedCgroup = "";

    /** Cgroup enforcing kubeReserved. */
    @JsonProperty("kubeReservedCgroup")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String kubeReservedCgroup = "";

    /** Node allocatable enforcements. Default [pods]. */
    @JsonProperty("enforceNodeAllocatable")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private List<String> enforceNodeAllocatable;

    /** Unsafe sysctls (patterns) pods may set. */
    @JsonProperty("allowedUnsafeSysctls")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private List<String> allowedUnsafeSysctls;

    /** Third-party volume plugin directory. Default /usr/libexec/kubernetes/kubelet-plugins/volume/exec/. */
    @JsonProperty("volumePluginDir")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String volumePluginDir = "";

    /** Provider ID of the node. */
    @JsonProperty("providerID")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String providerID = "";

    /** Use memcg notifications for memory eviction. Default false. */
    @JsonProperty("kernelMemcgNotification")
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    private boolean kernelMemcgNotification;

    /** Logging options. */
    @JsonProperty("logging")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private LoggingConfiguration logging = new LoggingConfiguration();

    /** Serve /logs/. Default true. */
    @JsonProperty("enableSystemLogHandler")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Boolean enableSystemLogHandler;

    /** Node log query on /logs. Default false. */
    @JsonProperty("enableSystemLogQuery")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Boolean enableSystemLogQuery;

    /** Node shutdown delay for pod termination. Default 0s. */
    @JsonProperty("shutdownGracePeriod")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private Duration shutdownGracePeriod = Duration.ZERO;

    /** Part of shutdownGracePeriod kept for critical pods. Default 0s. */
    @JsonProperty("shutdownGracePeriodCriticalPods")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private Duration shutdownGracePeriodCriticalPods = Duration.ZERO;

    /** Shutdown grace periods by pod priority. */
    @JsonProperty("shutdownGracePeriodByPodPriority")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private List<ShutdownGracePeriodByPodPriority> shutdownGracePeriodByPodPriority;

    /** Newer than v1.30 (gate KubeletCrashLoopBackOffMax). */
    @JsonProperty("crashLoopBackOff")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private CrashLoopBackOffConfig crashLoopBackOff;

    /** Memory reserved per NUMA node for the memory manager. */
    @JsonProperty("reservedMemory")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private List<MemoryReservation> reservedMemory;

    /** Serve /debug/pprof/. Default true. */
    @JsonProperty("enableProfilingHandler")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Boolean enableProfilingHandler;

    /** Serve /debug/flags/v. Default true. */
    @JsonProperty("enableDebugFlagsHandler")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Boolean enableDebugFlagsHandler;

    /** RuntimeDefault seccomp profile for all workloads. Default false. */
    @JsonProperty("seccompDefault")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Boolean seccompDefault;

    /** memory.high factor for MemoryQoS. Default 0.9. */
    @JsonProperty("memoryThrottlingFactor")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Double memoryThrottlingFactor;

    /** Newer than v1.30: cgroup v2 memory protection policy. */
    @JsonProperty("memoryReservationPolicy")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String memoryReservationPolicy = "";

    /** Taints added when the node registers. */
    @JsonProperty("registerWithTaints")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private List<Taint> registerWithTaints;

    /** Register the node with the apiserver. Default true. */
    @JsonProperty("registerNode")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Boolean registerNode;

    /** OpenTelemetry tracing; null when off. */
    @JsonProperty("tracing")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private TracingConfiguration tracing;

    /** Ephemeral storage isolation. Default true. */
    @JsonProperty("localStorageCapacityIsolation")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Boolean localStorageCapacityIsolation;

    /** Container runtime endpoint. jkubelet default unix:///var/run/docker.sock. */
    @JsonProperty("containerRuntimeEndpoint")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private String containerRuntimeEndpoint = "";

    /** Image service endpoint; empty means containerRuntimeEndpoint. */
    @JsonProperty("imageServiceEndpoint")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private String imageServiceEndpoint = "";

    /** Newer than v1.30: refuse to start on cgroup v1. */
    @JsonProperty("failCgroupV1")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Boolean failCgroupV1;

    /** User namespace settings. */
    @JsonProperty("userNamespaces")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private UserNamespaces userNamespaces;

    /** Newer than v1.30: pod housekeeping period. */
    @JsonProperty("podHousekeepingPeriod")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Duration podHousekeepingPeriod;


    public Boolean enableServer() {
        return enableServer;
    }

    public KubeletConfiguration enableServer(Boolean value) {
        this.enableServer = value;
        return this;
    }

    public String staticPodPath() {
        return staticPodPath;
    }

    public KubeletConfiguration staticPodPath(String value) {
        this.staticPodPath = value;
        return this;
    }

    public String podLogsDir() {
        return podLogsDir;
    }

    public KubeletConfiguration podLogsDir(String value) {
        this.podLogsDir = value;
        return this;
    }

    public Duration syncFrequency() {
        return syncFrequency;
    }

    public KubeletConfiguration syncFrequency(Duration value) {
        this.syncFrequency = value;
        return this;
    }

    public Duration fileCheckFrequency() {
        return fileCheckFrequency;
    }

    public KubeletConfiguration fileCheckFrequency(Duration value) {
        this.fileCheckFrequency = value;
        return this;
    }

    public Duration httpCheckFrequency() {
        return httpCheckFrequency;
    }

    public KubeletConfiguration httpCheckFrequency(Duration value) {
        this.httpCheckFrequency = value;
        return this;
    }

    public String staticPodURL() {
        return staticPodURL;
    }

    public KubeletConfiguration staticPodURL(String value) {
        this.staticPodURL = value;
        return this;
    }

    public Map<String, List<String>> staticPodURLHeader() {
        return staticPodURLHeader;
    }

    public KubeletConfiguration staticPodURLHeader(Map<String, List<String>> value) {
        this.staticPodURLHeader = value == null ? null : new LinkedHashMap<>(value);
        return this;
    }

    public String address() {
        return address;
    }

    public KubeletConfiguration address(String value) {
        this.address = value;
        return this;
    }

    public int port() {
        return port;
    }

    public KubeletConfiguration port(int value) {
        this.port = value;
        return this;
    }

    public int readOnlyPort() {
        return readOnlyPort;
    }

    public KubeletConfiguration readOnlyPort(int value) {
        this.readOnlyPort = value;
        return this;
    }

    public String tlsCertFile() {
        return tlsCertFile;
    }

    public KubeletConfiguration tlsCertFile(String value) {
        this.tlsCertFile = value;
        return this;
    }

    public String tlsPrivateKeyFile() {
        return tlsPrivateKeyFile;
    }

    public KubeletConfiguration tlsPrivateKeyFile(String value) {
        this.tlsPrivateKeyFile = value;
        return this;
    }

    public List<String> tlsCipherSuites() {
        return tlsCipherSuites;
    }

    public KubeletConfiguration tlsCipherSuites(List<String> value) {
        this.tlsCipherSuites = value == null ? null : new ArrayList<>(value);
        return this;
    }

    public List<Integer> tlsCurvePreferences() {
        return tlsCurvePreferences;
    }

    public KubeletConfiguration tlsCurvePreferences(List<Integer> value) {
        this.tlsCurvePreferences = value == null ? null : new ArrayList<>(value);
        return this;
    }

    public String tlsMinVersion() {
        return tlsMinVersion;
    }

    public KubeletConfiguration tlsMinVersion(String value) {
        this.tlsMinVersion = value;
        return this;
    }

    public boolean rotateCertificates() {
        return rotateCertificates;
    }

    public KubeletConfiguration rotateCertificates(boolean value) {
        this.rotateCertificates = value;
        return this;
    }

    public boolean serverTLSBootstrap() {
        return serverTLSBootstrap;
    }

    public KubeletConfiguration serverTLSBootstrap(boolean value) {
        this.serverTLSBootstrap = value;
        return this;
    }

    public KubeletAuthentication authentication() {
        return authentication;
    }

    public KubeletAuthorization authorization() {
        return authorization;
    }

    public Integer registryPullQPS() {
        return registryPullQPS;
    }

    public KubeletConfiguration registryPullQPS(Integer value) {
        this.registryPullQPS = value;
        return this;
    }

    public int registryBurst() {
        return registryBurst;
    }

    public KubeletConfiguration registryBurst(int value) {
        this.registryBurst = value;
        return this;
    }

    public String imagePullCredentialsVerificationPolicy() {
        return imagePullCredentialsVerificationPolicy;
    }

    public KubeletConfiguration imagePullCredentialsVerificationPolicy(String value) {
        this.imagePullCredentialsVerificationPolicy = value;
        return this;
    }

    public List<String> preloadedImagesVerificationAllowlist() {
        return preloadedImagesVerificationAllowlist;
    }

    public KubeletConfiguration preloadedImagesVerificationAllowlist(List<String> value) {
        this.preloadedImagesVerificationAllowlist = value == null ? null : new ArrayList<>(value);
        return this;
    }

    public Integer eventRecordQPS() {
        return eventRecordQPS;
    }

    public KubeletConfiguration eventRecordQPS(Integer value) {
        this.eventRecordQPS = value;
        return this;
    }

    public int eventBurst() {
        return eventBurst;
    }

    public KubeletConfiguration eventBurst(int value) {
        this.eventBurst = value;
        return this;
    }

    public Boolean enableDebuggingHandlers() {
        return enableDebuggingHandlers;
    }

    public KubeletConfiguration enableDebuggingHandlers(Boolean value) {
        this.enableDebuggingHandlers = value;
        return this;
    }

    public boolean enableContentionProfiling() {
        return enableContentionProfiling;
    }

    public KubeletConfiguration enableContentionProfiling(boolean value) {
        this.enableContentionProfiling = value;
        return this;
    }

    public Integer healthzPort() {
        return healthzPort;
    }

    public KubeletConfiguration healthzPort(Integer value) {
        this.healthzPort = value;
        return this;
    }

    public String healthzBindAddress() {
        return healthzBindAddress;
    }

    public KubeletConfiguration healthzBindAddress(String value) {
        this.healthzBindAddress = value;
        return this;
    }

    public Integer oomScoreAdj() {
        return oomScoreAdj;
    }

    public KubeletConfiguration oomScoreAdj(Integer value) {
        this.oomScoreAdj = value;
        return this;
    }

    public String clusterDomain() {
        return clusterDomain;
    }

    public KubeletConfiguration clusterDomain(String value) {
        this.clusterDomain = value;
        return this;
    }

    public List<String> clusterDNS() {
        return clusterDNS;
    }

    public KubeletConfiguration clusterDNS(List<String> value) {
        this.clusterDNS = value == null ? null : new ArrayList<>(value);
        return this;
    }

    public Duration streamingConnectionIdleTimeout() {
        return streamingConnectionIdleTimeout;
    }

    public KubeletConfiguration streamingConnectionIdleTimeout(Duration value) {
        this.streamingConnectionIdleTimeout = value;
        return this;
    }

    public Duration nodeStatusUpdateFrequency() {
        return nodeStatusUpdateFrequency;
    }

    public KubeletConfiguration nodeStatusUpdateFrequency(Duration value) {
        this.nodeStatusUpdateFrequency = value;
        return this;
    }

    public Duration nodeStatusReportFrequency() {
        return nodeStatusReportFrequency;
    }

    public KubeletConfiguration nodeStatusReportFrequency(Duration value) {
        this.nodeStatusReportFrequency = value;
        return this;
    }

    public int nodeLeaseDurationSeconds() {
        return nodeLeaseDurationSeconds;
    }

    public KubeletConfiguration nodeLeaseDurationSeconds(int value) {
        this.nodeLeaseDurationSeconds = value;
        return this;
    }

    public Duration imageMinimumGCAge() {
        return imageMinimumGCAge;
    }

    public KubeletConfiguration imageMinimumGCAge(Duration value) {
        this.imageMinimumGCAge = value;
        return this;
    }

    public Duration imageMaximumGCAge() {
        return imageMaximumGCAge;
    }

    public KubeletConfiguration imageMaximumGCAge(Duration value) {
        this.imageMaximumGCAge = value;
        return this;
    }

    public Integer imageGCHighThresholdPercent() {
        return imageGCHighThresholdPercent;
    }

    public KubeletConfiguration imageGCHighThresholdPercent(Integer value) {
        this.imageGCHighThresholdPercent = value;
        return this;
    }

    public Integer imageGCLowThresholdPercent() {
        return imageGCLowThresholdPercent;
    }

    public KubeletConfiguration imageGCLowThresholdPercent(Integer value) {
        this.imageGCLowThresholdPercent = value;
        return this;
    }

    public Duration volumeStatsAggPeriod() {
        return volumeStatsAggPeriod;
    }

    public KubeletConfiguration volumeStatsAggPeriod(Duration value) {
        this.volumeStatsAggPeriod = value;
        return this;
    }

    public String kubeletCgroups() {
        return kubeletCgroups;
    }

    public KubeletConfiguration kubeletCgroups(String value) {
        this.kubeletCgroups = value;
        return this;
    }

    public String systemCgroups() {
        return systemCgroups;
    }

    public KubeletConfiguration systemCgroups(String value) {
        this.systemCgroups = value;
        return this;
    }

    public String cgroupRoot() {
        return cgroupRoot;
    }

    public KubeletConfiguration cgroupRoot(String value) {
        this.cgroupRoot = value;
        return this;
    }

    public Boolean cgroupsPerQOS() {
        return cgroupsPerQOS;
    }

    public KubeletConfiguration cgroupsPerQOS(Boolean value) {
        this.cgroupsPerQOS = value;
        return this;
    }

    public String cgroupDriver() {
        return cgroupDriver;
    }

    public KubeletConfiguration cgroupDriver(String value) {
        this.cgroupDriver = value;
        return this;
    }

    public String cpuManagerPolicy() {
        return cpuManagerPolicy;
    }

    public KubeletConfiguration cpuManagerPolicy(String value) {
        this.cpuManagerPolicy = value;
        return this;
    }

    public Boolean singleProcessOOMKill() {
        return singleProcessOOMKill;
    }

    public KubeletConfiguration singleProcessOOMKill(Boolean value) {
        this.singleProcessOOMKill = value;
        return this;
    }

    public Map<String, String> cpuManagerPolicyOptions() {
        return cpuManagerPolicyOptions;
    }

    public KubeletConfiguration cpuManagerPolicyOptions(Map<String, String> value) {
        this.cpuManagerPolicyOptions = value == null ? null : new LinkedHashMap<>(value);
        return this;
    }

    public Duration cpuManagerReconcilePeriod() {
        return cpuManagerReconcilePeriod;
    }

    public KubeletConfiguration cpuManagerReconcilePeriod(Duration value) {
        this.cpuManagerReconcilePeriod = value;
        return this;
    }

    public Duration draManagerReconcilePeriod() {
        return draManagerReconcilePeriod;
    }

    public KubeletConfiguration draManagerReconcilePeriod(Duration value) {
        this.draManagerReconcilePeriod = value;
        return this;
    }

    public String memoryManagerPolicy() {
        return memoryManagerPolicy;
    }

    public KubeletConfiguration memoryManagerPolicy(String value) {
        this.memoryManagerPolicy = value;
        return this;
    }

    public String topologyManagerPolicy() {
        return topologyManagerPolicy;
    }

    public KubeletConfiguration topologyManagerPolicy(String value) {
        this.topologyManagerPolicy = value;
        return this;
    }

    public String topologyManagerScope() {
        return topologyManagerScope;
    }

    public KubeletConfiguration topologyManagerScope(String value) {
        this.topologyManagerScope = value;
        return this;
    }

    public Map<String, String> topologyManagerPolicyOptions() {
        return topologyManagerPolicyOptions;
    }

    public KubeletConfiguration topologyManagerPolicyOptions(Map<String, String> value) {
        this.topologyManagerPolicyOptions = value == null ? null : new LinkedHashMap<>(value);
        return this;
    }

    public Map<String, String> qosReserved() {
        return qosReserved;
    }

    public KubeletConfiguration qosReserved(Map<String, String> value) {
        this.qosReserved = value == null ? null : new LinkedHashMap<>(value);
        return this;
    }

    public Duration runtimeRequestTimeout() {
        return runtimeRequestTimeout;
    }

    public KubeletConfiguration runtimeRequestTimeout(Duration value) {
        this.runtimeRequestTimeout = value;
        return this;
    }

    public String hairpinMode() {
        return hairpinMode;
    }

    public KubeletConfiguration hairpinMode(String value) {
        this.hairpinMode = value;
        return this;
    }

    public int maxPods() {
        return maxPods;
    }

    public KubeletConfiguration maxPods(int value) {
        this.maxPods = value;
        return this;
    }

    public String podCIDR() {
        return podCIDR;
    }

    public KubeletConfiguration podCIDR(String value) {
        this.podCIDR = value;
        return this;
    }

    public Long podPidsLimit() {
        return podPidsLimit;
    }

    public KubeletConfiguration podPidsLimit(Long value) {
        this.podPidsLimit = value;
        return this;
    }

    public String resolvConf() {
        return resolvConf;
    }

    public KubeletConfiguration resolvConf(String value) {
        this.resolvConf = value;
        return this;
    }

    public boolean runOnce() {
        return runOnce;
    }

    public KubeletConfiguration runOnce(boolean value) {
        this.runOnce = value;
        return this;
    }

    public Boolean cpuCFSQuota() {
        return cpuCFSQuota;
    }

    public KubeletConfiguration cpuCFSQuota(Boolean value) {
        this.cpuCFSQuota = value;
        return this;
    }

    public Duration cpuCFSQuotaPeriod() {
        return cpuCFSQuotaPeriod;
    }

    public KubeletConfiguration cpuCFSQuotaPeriod(Duration value) {
        this.cpuCFSQuotaPeriod = value;
        return this;
    }

    public Integer nodeStatusMaxImages() {
        return nodeStatusMaxImages;
    }

    public KubeletConfiguration nodeStatusMaxImages(Integer value) {
        this.nodeStatusMaxImages = value;
        return this;
    }

    public long maxOpenFiles() {
        return maxOpenFiles;
    }

    public KubeletConfiguration maxOpenFiles(long value) {
        this.maxOpenFiles = value;
        return this;
    }

    public String contentType() {
        return contentType;
    }

    public KubeletConfiguration contentType(String value) {
        this.contentType = value;
        return this;
    }

    public Integer kubeAPIQPS() {
        return kubeAPIQPS;
    }

    public KubeletConfiguration kubeAPIQPS(Integer value) {
        this.kubeAPIQPS = value;
        return this;
    }

    public int kubeAPIBurst() {
        return kubeAPIBurst;
    }

    public KubeletConfiguration kubeAPIBurst(int value) {
        this.kubeAPIBurst = value;
        return this;
    }

    public Boolean serializeImagePulls() {
        return serializeImagePulls;
    }

    public KubeletConfiguration serializeImagePulls(Boolean value) {
        this.serializeImagePulls = value;
        return this;
    }

    public Integer maxParallelImagePulls() {
        return maxParallelImagePulls;
    }

    public KubeletConfiguration maxParallelImagePulls(Integer value) {
        this.maxParallelImagePulls = value;
        return this;
    }

    public Map<String, String> evictionHard() {
        return evictionHard;
    }

    public KubeletConfiguration evictionHard(Map<String, String> value) {
        this.evictionHard = value == null ? null : new LinkedHashMap<>(value);
        return this;
    }

    public Map<String, String> evictionSoft() {
        return evictionSoft;
    }

    public KubeletConfiguration evictionSoft(Map<String, String> value) {
        this.evictionSoft = value == null ? null : new LinkedHashMap<>(value);
        return this;
    }

    public Map<String, String> evictionSoftGracePeriod() {
        return evictionSoftGracePeriod;
    }

    public KubeletConfiguration evictionSoftGracePeriod(Map<String, String> value) {
        this.evictionSoftGracePeriod = value == null ? null : new LinkedHashMap<>(value);
        return this;
    }

    public Duration evictionPressureTransitionPeriod() {
        return evictionPressureTransitionPeriod;
    }

    public KubeletConfiguration evictionPressureTransitionPeriod(Duration value) {
        this.evictionPressureTransitionPeriod = value;
        return this;
    }

    public int evictionMaxPodGracePeriod() {
        return evictionMaxPodGracePeriod;
    }

    public KubeletConfiguration evictionMaxPodGracePeriod(int value) {
        this.evictionMaxPodGracePeriod = value;
        return this;
    }

    public Map<String, String> evictionMinimumReclaim() {
        return evictionMinimumReclaim;
    }

    public KubeletConfiguration evictionMinimumReclaim(Map<String, String> value) {
        this.evictionMinimumReclaim = value == null ? null : new LinkedHashMap<>(value);
        return this;
    }

    public Boolean mergeDefaultEvictionSettings() {
        return mergeDefaultEvictionSettings;
    }

    public KubeletConfiguration mergeDefaultEvictionSettings(Boolean value) {
        this.mergeDefaultEvictionSettings = value;
        return this;
    }

    public int podsPerCore() {
        return podsPerCore;
    }

    public KubeletConfiguration podsPerCore(int value) {
        this.podsPerCore = value;
        return this;
    }

    public Boolean enableControllerAttachDetach() {
        return enableControllerAttachDetach;
    }

    public KubeletConfiguration enableControllerAttachDetach(Boolean value) {
        this.enableControllerAttachDetach = value;
        return this;
    }

    public boolean protectKernelDefaults() {
        return protectKernelDefaults;
    }

    public KubeletConfiguration protectKernelDefaults(boolean value) {
        this.protectKernelDefaults = value;
        return this;
    }

    public Boolean makeIPTablesUtilChains() {
        return makeIPTablesUtilChains;
    }

    public KubeletConfiguration makeIPTablesUtilChains(Boolean value) {
        this.makeIPTablesUtilChains = value;
        return this;
    }

    public Integer iptablesMasqueradeBit() {
        return iptablesMasqueradeBit;
    }

    public KubeletConfiguration iptablesMasqueradeBit(Integer value) {
        this.iptablesMasqueradeBit = value;
        return this;
    }

    public Integer iptablesDropBit() {
        return iptablesDropBit;
    }

    public KubeletConfiguration iptablesDropBit(Integer value) {
        this.iptablesDropBit = value;
        return this;
    }

    public Map<String, Boolean> featureGates() {
        return featureGates;
    }

    public KubeletConfiguration featureGates(Map<String, Boolean> value) {
        this.featureGates = value == null ? null : new LinkedHashMap<>(value);
        return this;
    }

    public Boolean failSwapOn() {
        return failSwapOn;
    }

    public KubeletConfiguration failSwapOn(Boolean value) {
        this.failSwapOn = value;
        return this;
    }

    public MemorySwapConfiguration memorySwap() {
        return memorySwap;
    }

    public String containerLogMaxSize() {
        return containerLogMaxSize;
    }

    public KubeletConfiguration containerLogMaxSize(String value) {
        this.containerLogMaxSize = value;
        return this;
    }

    public Integer containerLogMaxFiles() {
        return containerLogMaxFiles;
    }

    public KubeletConfiguration containerLogMaxFiles(Integer value) {
        this.containerLogMaxFiles = value;
        return this;
    }

    public Integer containerLogMaxWorkers() {
        return containerLogMaxWorkers;
    }

    public KubeletConfiguration containerLogMaxWorkers(Integer value) {
        this.containerLogMaxWorkers = value;
        return this;
    }

    public Duration containerLogMonitorInterval() {
        return containerLogMonitorInterval;
    }

    public KubeletConfiguration containerLogMonitorInterval(Duration value) {
        this.containerLogMonitorInterval = value;
        return this;
    }

    public String configMapAndSecretChangeDetectionStrategy() {
        return configMapAndSecretChangeDetectionStrategy;
    }

    public KubeletConfiguration configMapAndSecretChangeDetectionStrategy(String value) {
        this.configMapAndSecretChangeDetectionStrategy = value;
        return this;
    }

    public Map<String, String> systemReserved() {
        return systemReserved;
    }

    public KubeletConfiguration systemReserved(Map<String, String> value) {
        this.systemReserved = value == null ? null : new LinkedHashMap<>(value);
        return this;
    }

    public Map<String, String> kubeReserved() {
        return kubeReserved;
    }

    public KubeletConfiguration kubeReserved(Map<String, String> value) {
        this.kubeReserved = value == null ? null : new LinkedHashMap<>(value);
        return this;
    }

    public String reservedSystemCPUs() {
        return reservedSystemCPUs;
    }

    public KubeletConfiguration reservedSystemCPUs(String value) {
        this.reservedSystemCPUs = value;
        return this;
    }

    public String showHiddenMetricsForVersion() {
        return showHiddenMetricsForVersion;
    }

    public KubeletConfiguration showHiddenMetricsForVersion(String value) {
        this.showHiddenMetricsForVersion = value;
        return this;
    }

    public String systemReservedCgroup() {
        return systemReservedCgroup;
    }

    public KubeletConfiguration systemReservedCgroup(String value) {
        this.systemReservedCgroup = value;
        return this;
    }

    public String kubeReservedCgroup() {
        return kubeReservedCgroup;
    }

    public KubeletConfiguration kubeReservedCgroup(String value) {
        this.kubeReservedCgroup = value;
        return this;
    }

    public List<String> enforceNodeAllocatable() {
        return enforceNodeAllocatable;
    }

    public KubeletConfiguration enforceNodeAllocatable(List<String> value) {
        this.enforceNodeAllocatable = value == null ? null : new ArrayList<>(value);
        return this;
    }

    public List<String> allowedUnsafeSysctls() {
        return allowedUnsafeSysctls;
    }

    public KubeletConfiguration allowedUnsafeSysctls(List<String> value) {
        this.allowedUnsafeSysctls = value == null ? null : new ArrayList<>(value);
        return this;
    }

    public String volumePluginDir() {
        return volumePluginDir;
    }

    public KubeletConfiguration volumePluginDir(String value) {
        this.volumePluginDir = value;
        return this;
    }

    public String providerID() {
        return providerID;
    }

    public KubeletConfiguration providerID(String value) {
        this.providerID = value;
        return this;
    }

    public boolean kernelMemcgNotification() {
        return kernelMemcgNotification;
    }

    public KubeletConfiguration kernelMemcgNotification(boolean value) {
        this.kernelMemcgNotification = value;
        return this;
    }

    public LoggingConfiguration logging() {
        return logging;
    }

    public Boolean enableSystemLogHandler() {
        return enableSystemLogHandler;
    }

    public KubeletConfiguration enableSystemLogHandler(Boolean value) {
        this.enableSystemLogHandler = value;
        return this;
    }

    public Boolean enableSystemLogQuery() {
        return enableSystemLogQuery;
    }

    public KubeletConfiguration enableSystemLogQuery(Boolean value) {
        this.enableSystemLogQuery = value;
        return this;
    }

    public Duration shutdownGracePeriod() {
        return shutdownGracePeriod;
    }

    public KubeletConfiguration shutdownGracePeriod(Duration value) {
        this.shutdownGracePeriod = value;
        return this;
    }

    public Duration shutdownGracePeriodCriticalPods() {
        return shutdownGracePeriodCriticalPods;
    }

    public KubeletConfiguration shutdownGracePeriodCriticalPods(Duration value) {
        this.shutdownGracePeriodCriticalPods = value;
        return this;
    }

    public List<ShutdownGracePeriodByPodPriority> shutdownGracePeriodByPodPriority() {
        return shutdownGracePeriodByPodPriority;
    }

    public KubeletConfiguration shutdownGracePeriodByPodPriority(List<ShutdownGracePeriodByPodPriority> value) {
        this.shutdownGracePeriodByPodPriority = value == null ? null : new ArrayList<>(value);
        return this;
    }

    public CrashLoopBackOffConfig crashLoopBackOff() {
        return crashLoopBackOff;
    }

    public KubeletConfiguration crashLoopBackOff(CrashLoopBackOffConfig value) {
        this.crashLoopBackOff = value;
        return this;
    }

    public List<MemoryReservation> reservedMemory() {
        return reservedMemory;
    }

    public KubeletConfiguration reservedMemory(List<MemoryReservation> value) {
        this.reservedMemory = value == null ? null : new ArrayList<>(value);
        return this;
    }

    public Boolean enableProfilingHandler() {
        return enableProfilingHandler;
    }

    public KubeletConfiguration enableProfilingHandler(Boolean value) {
        this.enableProfilingHandler = value;
        return this;
    }

    public Boolean enableDebugFlagsHandler() {
        return enableDebugFlagsHandler;
    }

    public KubeletConfiguration enableDebugFlagsHandler(Boolean value) {
        this.enableDebugFlagsHandler = value;
        return this;
    }

    public Boolean seccompDefault() {
        return seccompDefault;
    }

    public KubeletConfiguration seccompDefault(Boolean value) {
        this.seccompDefault = value;
        return this;
    }

    public Double memoryThrottlingFactor() {
        return memoryThrottlingFactor;
    }

    public KubeletConfiguration memoryThrottlingFactor(Double value) {
        this.memoryThrottlingFactor = value;
        return this;
    }

    public String memoryReservationPolicy() {
        return memoryReservationPolicy;
    }

    public KubeletConfiguration memoryReservationPolicy(String value) {
        this.memoryReservationPolicy = value;
        return this;
    }

    public List<Taint> registerWithTaints() {
        return registerWithTaints;
    }

    public KubeletConfiguration registerWithTaints(List<Taint> value) {
        this.registerWithTaints = value == null ? null : new ArrayList<>(value);
        return this;
    }

    public Boolean registerNode() {
        return registerNode;
    }

    public KubeletConfiguration registerNode(Boolean value) {
        this.registerNode = value;
        return this;
    }

    public TracingConfiguration tracing() {
        return tracing;
    }

    public KubeletConfiguration tracing(TracingConfiguration value) {
        this.tracing = value;
        return this;
    }

    public Boolean localStorageCapacityIsolation() {
        return localStorageCapacityIsolation;
    }

    public KubeletConfiguration localStorageCapacityIsolation(Boolean value) {
        this.localStorageCapacityIsolation = value;
        return this;
    }

    public String containerRuntimeEndpoint() {
        return containerRuntimeEndpoint;
    }

    public KubeletConfiguration containerRuntimeEndpoint(String value) {
        this.containerRuntimeEndpoint = value;
        return this;
    }

    public String imageServiceEndpoint() {
        return imageServiceEndpoint;
    }

    public KubeletConfiguration imageServiceEndpoint(String value) {
        this.imageServiceEndpoint = value;
        return this;
    }

    public Boolean failCgroupV1() {
        return failCgroupV1;
    }

    public KubeletConfiguration failCgroupV1(Boolean value) {
        this.failCgroupV1 = value;
        return this;
    }

    public UserNamespaces userNamespaces() {
        return userNamespaces;
    }

    public KubeletConfiguration userNamespaces(UserNamespaces value) {
        this.userNamespaces = value;
        return this;
    }

    public Duration podHousekeepingPeriod() {
        return podHousekeepingPeriod;
    }

    public KubeletConfiguration podHousekeepingPeriod(Duration value) {
        this.podHousekeepingPeriod = value;
        return this;
    }


    @Override
    public String toString() {
        return KubeletConfigCodec.toJson(this);
    }
}
