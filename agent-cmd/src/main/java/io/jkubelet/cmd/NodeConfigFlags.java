package io.jkubelet.cmd;

import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.apis.config.MemoryReservation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.jkubelet.cmd.ConfigFlag.flag;

/**
 * The flags of the node's configuration fields that jkubelet had no flag for: runtime, cgroups, resource managers,
 * networking, logs, limits and registration (upstream {@code AddKubeletConfigFlags}, same names, types and help).
 * Each sets its field; what jkubelet does with the field is the field's business. {@link ConfigFlags} marks them
 * deprecated as upstream does.
 */
final class NodeConfigFlags {

    static final List<ConfigFlag> ALL = List.of(
            flag(FlagSpec.of("image-service-endpoint", "string", "The endpoint of container image "
                            + "service. If not specified, it will be the same with --container-runtime-endpoint by "
                            + "default. With the Docker runtime jkubelet accepts only Docker's own endpoint."),
                    KubeletConfiguration::imageServiceEndpoint,
                    (c, v, earlier) -> c.imageServiceEndpoint(v)),
            flag(FlagSpec.of("volume-plugin-dir", "string", "The full path of the directory in which to "
                            + "search for additional third party volume plugins. jkubelet loads no FlexVolume drivers: "
                            + "start-up warns when the directory holds any."),
                    KubeletConfiguration::volumePluginDir,
                    (c, v, earlier) -> c.volumePluginDir(v)),
            flag(FlagSpec.of("volume-stats-agg-period", "duration", "Specifies interval for kubelet to "
                            + "calculate and cache the volume disk usage for all pods and volumes.  To disable volume "
                            + "calculations, set to a negative number."),
                    KubeletConfiguration::volumeStatsAggPeriod,
                    (c, v, earlier) -> c.volumeStatsAggPeriod(FlagValues.duration(v))),
            flag(FlagSpec.of("kubelet-cgroups", "string", "Optional absolute name of cgroups to create and "
                    + "run the Kubelet in. jkubelet does not move itself: start-up warns when it is set."),
                    KubeletConfiguration::kubeletCgroups,
                    (c, v, earlier) -> c.kubeletCgroups(v)),
            flag(FlagSpec.of("system-cgroups", "string", "Optional absolute name of cgroups in which to "
                            + "place all non-kernel processes that are not already inside a cgroup under '/'. "
                            + "Empty for "
                            + "no container. Rolling back the flag requires a reboot. jkubelet moves no process: "
                            + "start-up warns when it is "
                            + "set."),
                    KubeletConfiguration::systemCgroups,
                    (c, v, earlier) -> c.systemCgroups(v)),
            flag(FlagSpec.of("provider-id", "string", "Unique identifier for identifying the node in a "
                    + "machine database, i.e cloudprovider"), KubeletConfiguration::providerID,
                    (c, v, earlier) -> c.providerID(v)),
            flag(FlagSpec.of("cpu-manager-policy", "string", "CPU Manager policy to use. Possible values: "
                    + "'none', 'static'."),
                    KubeletConfiguration::cpuManagerPolicy,
                    (c, v, earlier) -> c.cpuManagerPolicy(v)),
            flag(FlagSpec.of("cpu-manager-policy-options", "key=value", "A set of key=value CPU Manager "
                            + "policy options to use, to fine tune their behaviour. If not supplied, keep the default "
                            + "behaviour. Only with the 'static' policy: 'full-pcpus-only' (jkubelet, as upstream, refuses options with 'none')."),
                    KubeletConfiguration::cpuManagerPolicyOptions,
                    (c, v, earlier) -> ConfigFlag.pairs(c::cpuManagerPolicyOptions, c::putAllCpuManagerPolicyOptions,
                            Map.ofEntries(ConfigFlagValues.pair(v)), earlier)),
            flag(FlagSpec.of("cpu-manager-reconcile-period", "duration", "<Warning: Alpha feature> CPU "
                            + "Manager reconciliation period. Examples: '10s', or '1m'. If not supplied, defaults to "
                            + "'NodeStatusUpdateFrequency'"),
                    KubeletConfiguration::cpuManagerReconcilePeriod,
                    (c, v, earlier) -> c.cpuManagerReconcilePeriod(FlagValues.duration(v))),
            flag(FlagSpec.of("qos-reserved", "mapStringString", "<Warning: Alpha feature> A set of "
                            + "ResourceName=Percentage (e.g. memory=50%) pairs that describe how pod resource "
                            + "requests are "
                            + "reserved at the QoS level. Currently only memory is supported. Requires the QOSReserved "
                            + "feature gate to be enabled, which jkubelet keeps off: start-up warns that it is "
                            + "not applied."),
                    KubeletConfiguration::qosReserved,
                    (c, v, earlier) -> ConfigFlag.pairs(c::qosReserved, c::putAllQosReserved,
                            FlagValues.pairs(v, '='), earlier)),
            flag(FlagSpec.of("topology-manager-policy", "string", "Topology Manager policy to use. "
                            + "Possible values: 'none', 'best-effort', 'restricted', 'single-numa-node'."),
                    KubeletConfiguration::topologyManagerPolicy,
                    (c, v, earlier) -> c.topologyManagerPolicy(v)),
            flag(FlagSpec.of("topology-manager-scope", "string", "Scope to which topology hints applied. "
                            + "Possible values: 'container', 'pod'."),
                    KubeletConfiguration::topologyManagerScope,
                    (c, v, earlier) -> c.topologyManagerScope(v)),
            flag(FlagSpec.of("topology-manager-policy-options", "key=value", "A set of key=value Topology "
                            + "Manager policy options to use, to fine tune their behaviour. If not supplied, keep the "
                            + "default behaviour. Topology Manager policy options: prefer-closest-numa-nodes "
                            + "(BETA, default visible); with the 'none' policy jkubelet warns that they are not used."),
                    KubeletConfiguration::topologyManagerPolicyOptions,
                    (c, v, earlier) -> ConfigFlag.pairs(c::topologyManagerPolicyOptions,
                            c::putAllTopologyManagerPolicyOptions, Map.ofEntries(ConfigFlagValues.pair(v)), earlier)),
            flag(FlagSpec.of("reserved-cpus", "string", "A comma-separated list of CPUs or CPU ranges "
                            + "that are reserved for system and kubernetes usage. This specific list will "
                            + "supersede cpu "
                            + "counts in --system-reserved and --kube-reserved."),
                    KubeletConfiguration::reservedSystemCPUs,
                    (c, v, earlier) -> c.reservedSystemCPUs(v)),
            flag(FlagSpec.of("memory-manager-policy", "string", "Memory Manager policy to use. Possible "
                    + "values: 'None', 'Static'; jkubelet has no memory manager and refuses 'Static'."),
                    KubeletConfiguration::memoryManagerPolicy,
                    (c, v, earlier) -> c.memoryManagerPolicy(v)),
            flag(FlagSpec.of("reserved-memory", "numa:type=quantity", "A comma separated list of memory "
                            + "reservations for NUMA nodes. (e.g. --reserved-memory 0:memory=1Gi,hugepages-1M=2Gi "
                            + "--reserved-memory 1:memory=2Gi). jkubelet has no memory manager and refuses them."),
                    KubeletConfiguration::reservedMemory,
                    (c, v, earlier) -> {
                        // Every occurrence adds to the first one's list (which replaced the file's).
                        List<MemoryReservation> reservations = new ArrayList<>();
                        for (String e : earlier) {
                            ConfigFlagValues.reservedMemory(e, reservations);
                        }
                        ConfigFlagValues.reservedMemory(v, reservations);
                        c.reservedMemory(reservations);
                    }),
            flag(FlagSpec.of("hairpin-mode", "string", "How should the kubelet setup hairpin NAT. Valid "
                    + "values are \"promiscuous-bridge\", \"hairpin-veth\" and \"none\". Since v1.24 no kubelet "
                    + "network plugin reads it; the CNI plugin decides."),
                    KubeletConfiguration::hairpinMode,
                    (c, v, earlier) -> c.hairpinMode(v)),
            flag(FlagSpec.of("pod-cidr", "string", "The CIDR to use for pod IP addresses, only used in "
                    + "standalone mode. jkubelet does not pass it to Docker: start-up warns when it is set."),
                    KubeletConfiguration::podCIDR,
                    (c, v, earlier) -> c.podCIDR(v)),
            flag(FlagSpec.bool("runonce", "If true, exit after spawning pods from static pod files or "
                    + "remote urls. Exclusive with --enable-server"), KubeletConfiguration::runOnce,
                    (c, v, earlier) -> c.runOnce(FlagValues.bool(v))),
            flag(FlagSpec.bool("enable-controller-attach-detach", "Enables the Attach/Detach controller "
                            + "to manage attachment/detachment of volumes scheduled to this node, and disables kubelet "
                            + "from executing any attach/detach operations"),
                    KubeletConfiguration::enableControllerAttachDetach,
                    (c, v, earlier) -> c.enableControllerAttachDetach(FlagValues.bool(v))),
            flag(FlagSpec.bool("make-iptables-util-chains", "If true, kubelet will ensure iptables "
                            + "utility rules are present on host. jkubelet creates none: start-up warns while it "
                            + "is true."),
                    KubeletConfiguration::makeIPTablesUtilChains,
                    (c, v, earlier) -> c.makeIPTablesUtilChains(FlagValues.bool(v))),
            flag(FlagSpec.of("iptables-masquerade-bit", "int32", "Has no effect; use kube-proxy "
                            + "parameters to configure the KUBE-MARK-MASQ chain."),
                    KubeletConfiguration::iptablesMasqueradeBit,
                    (c, v, earlier) -> c.iptablesMasqueradeBit(FlagValues.int32(v))),
            flag(FlagSpec.of("iptables-drop-bit", "int32", "Has no effect; kubelet no longer creates a "
                    + "KUBE-MARK-DROP chain"), KubeletConfiguration::iptablesDropBit,
                    (c, v, earlier) -> c.iptablesDropBit(FlagValues.int32(v))),
            flag(FlagSpec.of("container-log-max-size", "string", "Set the maximum size (e.g. 10Mi) of "
                            + "container log file before it is rotated."),
                    KubeletConfiguration::containerLogMaxSize,
                    (c, v, earlier) -> c.containerLogMaxSize(v)),
            flag(FlagSpec.of("container-log-max-files", "int32", "Set the maximum number of container log "
                            + "files that can be present for a container. The number must be >= 2."),
                    KubeletConfiguration::containerLogMaxFiles,
                    (c, v, earlier) -> c.containerLogMaxFiles(FlagValues.int32(v))),
            flag(FlagSpec.of("allowed-unsafe-sysctls", "strings", "Comma-separated whitelist of unsafe "
                            + "sysctls or unsafe sysctl patterns (ending in *). Use these at your own risk."),
                    KubeletConfiguration::allowedUnsafeSysctls,
                    (c, v, earlier) -> ConfigFlag.list(c::allowedUnsafeSysctls, c::addAllAllowedUnsafeSysctls, v,
                            earlier)),
            flag(FlagSpec.of("node-status-max-images", "int32", "The maximum number of images to report "
                            + "in Node.Status.Images. If -1 is specified, no cap will be applied."),
                    KubeletConfiguration::nodeStatusMaxImages,
                    (c, v, earlier) -> c.nodeStatusMaxImages(FlagValues.int32(v))),
            flag(FlagSpec.bool("kernel-memcg-notification", "If enabled, the kubelet will integrate with "
                            + "the kernel memcg notification to determine if memory eviction thresholds are crossed "
                            + "rather than polling. jkubelet polls after each stats round: start-up warns when "
                            + "it is set."),
                    KubeletConfiguration::kernelMemcgNotification,
                    (c, v, earlier) -> c.kernelMemcgNotification(FlagValues.bool(v))),
            flag(FlagSpec.bool("local-storage-capacity-isolation", "If true, local ephemeral storage "
                            + "isolation is enabled. Otherwise, local storage isolation feature will be disabled"),
                    KubeletConfiguration::localStorageCapacityIsolation,
                    (c, v, earlier) -> c.localStorageCapacityIsolation(FlagValues.bool(v))),
            flag(FlagSpec.of("max-open-files", "int", "Number of files that can be opened by Kubelet "
                    + "process. jkubelet cannot raise its own limit: start-up warns when the limit is lower."),
                    KubeletConfiguration::maxOpenFiles,
                    (c, v, earlier) -> c.maxOpenFiles(FlagValues.int64(v))),
            flag(FlagSpec.of("kube-api-content-type", "string", "Content type of requests sent to "
                    + "apiserver. jkubelet sends JSON: on a cluster node start-up warns unless it is "
                    + "application/json."), KubeletConfiguration::contentType,
                    (c, v, earlier) -> c.contentType(v)),
            flag(FlagSpec.of("pods-per-core", "int32", "Number of Pods per core that can run on this "
                            + "Kubelet. The total number of Pods on this Kubelet cannot exceed max-pods, so max-pods "
                            + "will be used if this calculation results in a larger number of Pods allowed on the "
                            + "Kubelet. A value of 0 disables this limit."),
                    KubeletConfiguration::podsPerCore,
                    (c, v, earlier) -> c.podsPerCore(FlagValues.int32(v))),
            flag(FlagSpec.bool("protect-kernel-defaults", "Default kubelet behaviour for kernel tuning. If "
                            + "set, kubelet errors if any of kernel tunables is different than kubelet defaults."),
                    KubeletConfiguration::protectKernelDefaults,
                    (c, v, earlier) -> c.protectKernelDefaults(FlagValues.bool(v))),
            flag(FlagSpec.of("register-with-taints", "key=value:effect", "Register the node with the given "
                            + "list of taints (comma separated \"<key>=<value>:<effect>\"). No-op if register-node is "
                            + "false."),
                    KubeletConfiguration::registerWithTaints,
                    (c, v, earlier) -> c.registerWithTaints(ConfigFlagValues.taints(v))),
            flag(FlagSpec.bool("seccomp-default", "Enable the use of `RuntimeDefault` as the default "
                            + "seccomp profile for all workloads."),
                    // Upstream's KubeletFlags.SeccompDefault, OR-ed with the field: true turns it on, false leaves it.
                    KubeletConfiguration::seccompDefault,
                    (c, v, earlier) -> {
                        if (FlagValues.bool(v)) {
                            c.seccompDefault(true);
                        }
                    }));

    private NodeConfigFlags() {
    }
}
