package io.jkubelet.core.apis.config;

import io.jkubelet.core.apis.config.FeatureGateSpec.Stage;
import io.jkubelet.core.apis.config.FeatureGateSpec.Support;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The feature gates a v1.30 kubelet knows (upstream {@code pkg/features/kube_features.go}, the generic apiserver's,
 * client-go's and component-base's logging gates, {@code AllAlpha} and {@code AllBeta}, all registered in one
 * {@code DefaultFeatureGate}), with their v1.30 defaults, stages and locks, and what jkubelet does with each.
 * A name not listed here is refused as upstream refuses it.
 */
final class KnownFeatureGates {

    private static final Map<String, FeatureGateSpec> GATES = new TreeMap<>();

    static {
        // Either value acts in jkubelet as upstream.
        implemented("SidecarContainers", true, Stage.BETA, "false: an init container's restartPolicy (Always) is "
                + "dropped as pods arrive, as an apiserver with the gate off drops it, so a sidecar runs as an ordinary "
                + "init container that must complete before the next one starts");
        implemented(FeatureGates.CUSTOM_CPU_CFS_QUOTA_PERIOD, false, Stage.ALPHA, "true: cpuCFSQuotaPeriod "
                + "(--cpu-cfs-quota-period) may differ from 100ms (1ms to 1s), and containers' CFS period is that value");
        implemented(FeatureGates.IMAGE_MAXIMUM_GC_AGE, true, Stage.BETA, "false: imageMaximumGCAge is refused, so "
                + "no image is removed for its age alone");
        implemented(FeatureGates.GRACEFUL_NODE_SHUTDOWN, true, Stage.BETA, "false: shutdownGracePeriod and "
                + "shutdownGracePeriodCriticalPods are refused");
        implemented(FeatureGates.GRACEFUL_NODE_SHUTDOWN_BASED_ON_POD_PRIORITY, true, Stage.BETA, "false: "
                + "shutdownGracePeriodByPodPriority is refused");
        implemented(FeatureGates.LOGGING_ALPHA_OPTIONS, false, Stage.ALPHA, "true: the split-stream and info-buffer "
                + "options of the text and JSON log formats are accepted");
        implemented(FeatureGates.LOGGING_BETA_OPTIONS, true, Stage.BETA, "false: logging.format json is refused");
        implemented(FeatureGates.NODE_SWAP, true, Stage.BETA, "false: memorySwap.swapBehavior is refused");
        implemented(FeatureGates.KUBELET_TRACING, true, Stage.BETA, "false: the tracing field is refused");
        implemented(FeatureGates.ROTATE_KUBELET_SERVER_CERTIFICATE, true, Stage.BETA, "false: serverTLSBootstrap "
                + "is refused");
        implemented(FeatureGates.MEMORY_MANAGER, true, Stage.BETA, "false: no memory manager runs, as upstream's "
                + "container manager makes none: no memory_manager_state, no NUMA hints for memory, no memory in the pod "
                + "resources API; memoryManagerPolicy and reservedMemory are then unused (named in one warning when set)");
        implemented("KubeletPodResourcesGet", false, Stage.ALPHA, "true: the pod resources API's Get answers with one "
                + "pod's resources; false: it answers \"PodResources API Get method disabled\"");

        // Kubelet gates whose other value jkubelet does not implement: only the default is accepted.
        defaultOnly("AllAlpha", false, Stage.ALPHA, "true turns on every alpha gate not set explicitly");
        defaultOnly("AllBeta", false, Stage.BETA, "true turns on every beta gate not set explicitly");
        defaultOnly("AppArmor", true, Stage.BETA, "AppArmor profiles of containers: a pending pod that asks for one "
                + "is refused where the host does not enforce AppArmor (reason AppArmor, as upstream); where it does, "
                + "the runtime's default is Docker's own, and other profiles are refused");
        defaultOnly("AppArmorFields", true, Stage.BETA, "the appArmorProfile fields of the security context");
        defaultOnly("ClusterTrustBundleProjection", false, Stage.ALPHA, "clusterTrustBundle projected volumes");
        defaultOnly("ComponentSLIs", true, Stage.BETA, "the /metrics/slis endpoint: each health check's last result "
                + "and count through /healthz (kubernetes_healthcheck, kubernetes_healthchecks_total)");
        defaultOnly("ContainerCheckpoint", true, Stage.BETA, "the /checkpoint endpoint: it finds the pod and container "
                + "as upstream's and answers 500, as for a runtime that cannot checkpoint (Docker cannot here)");
        defaultOnly("ContextualLogging", true, Stage.BETA, "contextual logging");
        defaultOnly("CPUManagerPolicyAlphaOptions", false, Stage.ALPHA, "alpha options of the CPU manager");
        defaultOnly("CPUManagerPolicyBetaOptions", true, Stage.BETA, "beta options of the CPU manager");
        defaultOnly("CPUManagerPolicyOptions", true, Stage.BETA, "cpuManagerPolicyOptions");
        defaultOnly("DevicePluginCDIDevices", true, Stage.BETA, "CDI devices from device plugins");
        defaultOnly("DisableCloudProviders", true, Stage.BETA, "the in-tree cloud providers stay off");
        defaultOnly("DisableKubeletCloudCredentialProviders", true, Stage.BETA, "the in-tree cloud credential "
                + "providers stay off");
        defaultOnly("DisableNodeKubeProxyVersion", false, Stage.ALPHA, "true leaves nodeInfo.kubeProxyVersion unset");
        defaultOnly("DynamicResourceAllocation", false, Stage.ALPHA, "dynamic resource allocation");
        defaultOnly("EventedPLEG", false, Stage.ALPHA, "a PLEG driven by CRI container events");
        defaultOnly("ExecProbeTimeout", true, Stage.GA, "false would let exec probes run past their timeoutSeconds");
        defaultOnly("InPlacePodVerticalScaling", false, Stage.ALPHA, "resizing a running pod's resources");
        defaultOnly("KubeletCgroupDriverFromCRI", false, Stage.ALPHA, "the cgroup driver asked of the runtime");
        defaultOnly("KubeletInUserNamespace", false, Stage.ALPHA, "running the kubelet in a user namespace");
        defaultOnly("KubeletPodResourcesDynamicResources", false, Stage.ALPHA, "DRA in the pod resources API");
        defaultOnly("KubeletSeparateDiskGC", false, Stage.ALPHA, "garbage collection of a separate container "
                + "file system");
        defaultOnly("LocalStorageCapacityIsolationFSQuotaMonitoring", false, Stage.ALPHA, "project quotas for "
                + "emptyDir usage");
        defaultOnly(FeatureGates.MEMORY_QOS, false, Stage.ALPHA, "memory.min/memory.high on cgroup v2");
        defaultOnly(FeatureGates.NODE_LOG_QUERY, false, Stage.BETA, "node log queries (/logs/?query=...)");
        defaultOnly("PodAndContainerStatsFromCRI", false, Stage.ALPHA, "stats from the CRI instead of cAdvisor");
        defaultOnly("PodDisruptionConditions", true, Stage.BETA, "the DisruptionTarget condition of evicted pods");
        defaultOnly("PodLifecycleSleepAction", true, Stage.BETA, "the sleep action of lifecycle hooks");
        defaultOnly("PodReadyToStartContainersCondition", true, Stage.BETA, "the PodReadyToStartContainers "
                + "condition");
        defaultOnly("ProcMountType", false, Stage.ALPHA, "procMount: Unmasked");
        defaultOnly("QOSReserved", false, Stage.ALPHA, "qosReserved");
        defaultOnly("RecoverVolumeExpansionFailure", false, Stage.ALPHA, "the node's expansion of a claim's volume "
                + "led by its allocatedResourceStatuses (recovery from failed expansions); off, a claim whose "
                + "PersistentVolume is larger than its status.capacity is grown on the node, by the sizes alone");
        defaultOnly("RecursiveReadOnlyMounts", false, Stage.ALPHA, "recursiveReadOnly volume mounts");
        defaultOnly("RuntimeClassInImageCriAPI", false, Stage.ALPHA, "the runtime class in image pulls");
        defaultOnly("SELinuxMount", false, Stage.ALPHA, "SELinux labels by mount option on all volumes");
        defaultOnly("SELinuxMountReadWriteOncePod", true, Stage.BETA, "SELinux labels by mount option on "
                + "ReadWriteOncePod volumes");
        defaultOnly("SizeMemoryBackedVolumes", true, Stage.BETA, "memory-backed emptyDirs sized by their limit");
        defaultOnly("TopologyManagerPolicyAlphaOptions", false, Stage.ALPHA, "alpha topology manager options");
        defaultOnly("TopologyManagerPolicyBetaOptions", true, Stage.BETA, "beta topology manager options");
        defaultOnly("TopologyManagerPolicyOptions", true, Stage.BETA, "topologyManagerPolicyOptions");
        defaultOnly("UserNamespacesSupport", false, Stage.BETA, "hostUsers: false (user namespaces)");

        // GA gates locked to their default: any other value is refused, as upstream refuses it.
        for (String name : new String[] {"AdmissionWebhookMatchConditions", "AggregatedDiscoveryEndpoint",
                "APIListChunking", "APIPriorityAndFairness", "CloudDualStackNodeIPs", "ConsistentHTTPGetHandlers",
                "CPUManager", "CSINodeExpandSecret", "CustomResourceValidationExpressions", "EfficientWatchResumption",
                "HPAContainerMetrics", "JobReadyPods", "KMSv2", "KMSv2KDF", "LegacyServiceAccountTokenCleanUp",
                "MinDomainsInPodTopologySpread", "NewVolumeManagerReconstruction", "NodeOutOfServiceVolumeDetach",
                "PodHostIPs", "PodSchedulingReadiness", "ReadWriteOncePod", "RemainingItemCount",
                "ServiceNodePortStaticSubrange", "StableLoadBalancerNodeSet", "WatchBookmark",
                "ZeroLimitedNominalConcurrencyShares"}) {
            GATES.put(name, new FeatureGateSpec(true, Stage.GA, true, Support.DEFAULT_ONLY, "locked to true"));
        }

        // Gates of the control plane's components, accepted by the kubelet, which does not read them.
        control(false, Stage.ALPHA, "APIServingWithRoutine", "CloudControllerManagerWebhook", "ClusterTrustBundle", "ConsistentListFromCache",
                "CrossNamespaceVolumeDataSource", "CSIVolumeHealth", "CustomResourceFieldSelectors", "HonorPVReclaimPolicy", "HPAScaleToZero",
                "InformerResourceVersion", "InTreePluginAWSUnregister", "InTreePluginAzureDiskUnregister",
                "InTreePluginAzureFileUnregister", "InTreePluginGCEUnregister", "InTreePluginOpenStackUnregister",
                "InTreePluginPortworxUnregister", "InTreePluginvSphereUnregister", "JobManagedBy", "JobSuccessPolicy",
                "MatchLabelKeysInPodAffinity", "MaxUnavailableStatefulSet", "MultiCIDRServiceAllocator",
                "NFTablesProxyMode", "PortForwardWebsockets", "RelaxedEnvironmentVariableValidation",
                "RetryGenerateName", "ServiceAccountTokenNodeBinding", "ServiceTrafficDistribution", "StorageVersionAPI",
                "StorageVersionMigrator", "UnknownVersionInteroperabilityProxy", "UserNamespacesPodSecurityStandards",
                "VolumeAttributesClass", "VolumeCapacityPriority", "WatchList", "WatchListClient", "WinDSR");
        control(true, Stage.ALPHA, "WindowsHostNetwork");
        control(false, Stage.BETA, "CSIMigrationPortworx", "SchedulerQueueingHints",
                "WatchFromStorageWithoutResourceVersion");
        control(true, Stage.BETA, "AnyVolumeDataSource", "APIResponseCompression", "APIServerIdentity",
                "APIServerTracing", "CRDValidationRatcheting", "CronJobsScheduledAnnotation", "ElasticIndexedJob",
                "JobBackoffLimitPerIndex", "JobPodFailurePolicy", "JobPodReplacementPolicy",
                "KubeProxyDrainingTerminatingNodes", "LoadBalancerIPMode", "LogarithmicScaleDown",
                "MatchLabelKeysInPodTopologySpread", "NodeInclusionPolicyInPodTopologySpread", "OpenAPIEnums",
                "PDBUnhealthyPodEvictionPolicy", "PersistentVolumeLastPhaseTransitionTime", "PodDeletionCost",
                "PodIndexLabel", "SeparateCacheWatchRPC", "SeparateTaintEvictionController", "ServiceAccountTokenJTI",
                "ServiceAccountTokenNodeBindingValidation", "ServiceAccountTokenPodNodeInfo", "StatefulSetAutoDeletePVC",
                "StatefulSetStartOrdinal", "StorageNamespaceIndex", "StorageVersionHash",
                "StructuredAuthenticationConfiguration", "StructuredAuthorizationConfiguration", "TopologyAwareHints",
                "TranslateStreamCloseWebsocketRequests", "UnauthenticatedHTTP2DOSMitigation", "WinOverlay");
        control(true, Stage.GA, "ValidatingAdmissionPolicy");
        control(false, Stage.DEPRECATED, "AllowServiceLBStatusOnNonLB", "CSIMigrationRBD", "DefaultHostNetworkHostPortsInPodTemplates",
                "InTreePluginRBDUnregister", "KMSv1");
        control(true, Stage.DEPRECATED, "SkipReadOnlyValidationGCE");
    }

    private KnownFeatureGates() {
    }

    /** Every known gate by name, in name order. */
    static Map<String, FeatureGateSpec> all() {
        return Collections.unmodifiableMap(GATES);
    }

    private static void implemented(String name, boolean defaultValue, Stage stage, String effect) {
        GATES.put(name, new FeatureGateSpec(defaultValue, stage, false, Support.IMPLEMENTED, effect));
    }

    private static void defaultOnly(String name, boolean defaultValue, Stage stage, String effect) {
        GATES.put(name, new FeatureGateSpec(defaultValue, stage, false, Support.DEFAULT_ONLY, effect));
    }

    private static void control(boolean defaultValue, Stage stage, String... names) {
        for (String name : names) {
            GATES.put(name, new FeatureGateSpec(defaultValue, stage, false, Support.NOT_FOR_THE_KUBELET,
                    "acts on the control plane only"));
        }
    }
}
