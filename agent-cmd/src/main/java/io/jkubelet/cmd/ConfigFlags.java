package io.jkubelet.cmd;

import io.jkubelet.core.apis.config.FeatureGateSpec;
import io.jkubelet.core.apis.config.FeatureGates;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static io.jkubelet.cmd.ConfigFlag.flag;
import static io.jkubelet.cmd.ConfigFlag.list;
import static io.jkubelet.cmd.ConfigFlag.pairs;

/**
 * The flags that set {@link KubeletConfiguration} fields (upstream {@code AddKubeletConfigFlags}): these, and with
 * them the groups of {@link ServerConfigFlags}, {@link NodeConfigFlags} and {@link LoggingFlags}. When a configuration
 * file is given, only the flags present on the command line are applied over it (the kubelet's precedence); without a
 * file they are applied over the flags' own defaults ({@link ConfigFlagDefaults}), which their help shows.
 */
final class ConfigFlags {

    /**
     * pflag's notice for every flag of a configuration field (upstream {@code AddKubeletConfigFlags}: all of them are
     * deprecated, and any new one is deprecated on creation).
     */
    static final String USE_CONFIG_FILE = "This parameter should be set via the config file specified by the "
            + "Kubelet's --config flag. See https://kubernetes.io/docs/tasks/administer-cluster/kubelet-config-file/ "
            + "for more information.";

    /**
     * The flags upstream keeps undeprecated: the logging ones and {@code --provider-id}; {@code --seccomp-default} is
     * upstream's KubeletFlags flag, not a configuration one.
     */
    private static final Set<String> NOT_DEPRECATED = Set.of("v", "vmodule", "log-flush-frequency", "provider-id",
            "seccomp-default");

    private static final List<ConfigFlag> FIRST = List.of(
            flag(FlagSpec.of("pod-manifest-path", "string", "Path to the directory of static pod files to run, "
                            + "or to a single static pod file. Files starting with dots are ignored."),
                    KubeletConfiguration::staticPodPath,
                    (c, v, earlier) -> c.staticPodPath(v)),
            flag(FlagSpec.of("manifest-url", "string", "URL for accessing additional static pod specifications."),
                    KubeletConfiguration::staticPodURL,
                    (c, v, earlier) -> c.staticPodURL(v)),
            flag(FlagSpec.of("manifest-url-header", "key:value", "Comma-separated list of HTTP headers to use when "
                            + "accessing the manifest URL, e.g. 'a:hello,b:again,c:world'. Repeatable: values under "
                            + "the same header name accumulate."),
                    KubeletConfiguration::staticPodURLHeader,
                    (c, v, earlier) -> {
                        // The first occurrence replaces the file's headers; values under one name accumulate
                        // across occurrences, so the earlier ones are read again.
                        Map<String, List<String>> headers = new LinkedHashMap<>();
                        for (String e : earlier) {
                            FlagValues.headers(e, headers);
                        }
                        FlagValues.headers(v, headers);
                        c.staticPodURLHeader(headers);
                    }),
            flag(FlagSpec.of("file-check-frequency", "duration", "Duration between checking static pod files for "
                    + "new data."), KubeletConfiguration::fileCheckFrequency,
                    (c, v, earlier) -> c.fileCheckFrequency(FlagValues.duration(v))),
            flag(FlagSpec.of("http-check-frequency", "duration", "Duration between checking the manifest URL for "
                    + "new data."), KubeletConfiguration::httpCheckFrequency,
                    (c, v, earlier) -> c.httpCheckFrequency(FlagValues.duration(v))),
            flag(FlagSpec.of("sync-frequency", "duration", "Max period between synchronizing running containers "
                    + "and config."), KubeletConfiguration::syncFrequency,
                    (c, v, earlier) -> c.syncFrequency(FlagValues.duration(v))),
            flag(FlagSpec.of("address", "ip", "The IP address for the kubelet to serve on (0.0.0.0 or :: for all "
                    + "interfaces)."), KubeletConfiguration::address,
                    (c, v, earlier) -> c.address(FlagValues.ip(v))),
            flag(FlagSpec.of("port", "int32", "The port for the kubelet to serve on."),
                    KubeletConfiguration::port,
                    (c, v, earlier) -> c.port(FlagValues.int32(v))),
            flag(FlagSpec.of("read-only-port", "int32", "The read-only port for the kubelet to serve on with no "
                            + "authentication/authorization; 0 disables it."),
                    KubeletConfiguration::readOnlyPort,
                    (c, v, earlier) -> c.readOnlyPort(FlagValues.int32(v))),
            flag(FlagSpec.of("healthz-port", "int32", "The port of the localhost healthz endpoint; 0 disables it."),
                    KubeletConfiguration::healthzPort,
                    (c, v, earlier) -> c.healthzPort(FlagValues.int32(v))),
            flag(FlagSpec.of("healthz-bind-address", "ip", "The IP address for the healthz server to serve on."),
                    KubeletConfiguration::healthzBindAddress,
                    (c, v, earlier) -> c.healthzBindAddress(FlagValues.ip(v))),
            flag(FlagSpec.of("max-pods", "int32", "Number of pods that can run on this kubelet."),
                    KubeletConfiguration::maxPods,
                    (c, v, earlier) -> c.maxPods(FlagValues.int32(v))),
            flag(FlagSpec.of("container-runtime-endpoint", "string", "The endpoint of the container runtime."),
                    KubeletConfiguration::containerRuntimeEndpoint,
                    (c, v, earlier) -> c.containerRuntimeEndpoint(v)),
            flag(FlagSpec.of("pod-logs-dir", "string", "Root directory of the pod log directories."),
                    KubeletConfiguration::podLogsDir,
                    (c, v, earlier) -> c.podLogsDir(v)),
            flag(FlagSpec.of("oom-score-adj", "int32", "The oom_score_adj value for the kubelet process, in "
                    + "[-1000, 1000]."), KubeletConfiguration::oomScoreAdj,
                    (c, v, earlier) -> c.oomScoreAdj(FlagValues.int32(v))),
            flag(FlagSpec.of("cgroup-driver", "string", "Driver the kubelet uses to manipulate cgroups on the "
                    + "host: 'cgroupfs' or 'systemd'. It must be Docker's (docker info), else the kubelet does not "
                    + "start. With 'systemd' the kubelet names its cgroups as systemd slices (kubepods.slice, ...) and "
                    + "writes them in the cgroup file system itself, not through systemd."),
                    KubeletConfiguration::cgroupDriver,
                    (c, v, earlier) -> c.cgroupDriver(v)),
            flag(FlagSpec.bool("cgroups-per-qos", "Enable creation of QoS cgroup hierarchy, if true top level QoS and "
                    + "pod cgroups are created."), KubeletConfiguration::cgroupsPerQOS,
                    (c, v, earlier) -> c.cgroupsPerQOS(FlagValues.bool(v))),
            flag(FlagSpec.of("cgroup-root", "string", "Root cgroup for pods; it must exist. With --cgroups-per-qos "
                    + "the kubepods cgroup is made below it, and '' means '/'; without, '' leaves pods in the container "
                    + "runtime's default cgroups."), KubeletConfiguration::cgroupRoot,
                    (c, v, earlier) -> c.cgroupRoot(v)),
            flag(FlagSpec.of("kube-reserved", "mapStringString", "A set of ResourceName=ResourceQuantity (e.g. "
                    + "cpu=200m,memory=500Mi,ephemeral-storage=1Gi,pid=1000) pairs that describe resources reserved "
                    + "for kubernetes system components; they are taken off the node's allocatable. Repeatable."),
                    KubeletConfiguration::kubeReserved,
                    (c, v, earlier) -> pairs(c::kubeReserved, c::putAllKubeReserved, v, '=', earlier)),
            flag(FlagSpec.of("system-reserved", "mapStringString", "A set of ResourceName=ResourceQuantity (e.g. "
                    + "cpu=200m,memory=500Mi,ephemeral-storage=1Gi,pid=1000) pairs that describe resources reserved "
                    + "for non-kubernetes components; they are taken off the node's allocatable. Repeatable."),
                    KubeletConfiguration::systemReserved,
                    (c, v, earlier) -> pairs(c::systemReserved, c::putAllSystemReserved, v, '=', earlier)),
            flag(FlagSpec.of("kube-reserved-cgroup", "string", "Absolute name of the top level cgroup that is used to "
                    + "manage kubernetes components for which compute resources were reserved via '--kube-reserved' "
                    + "flag. Ex. '/kube-reserved'. [default='']"), KubeletConfiguration::kubeReservedCgroup,
                    (c, v, earlier) -> c.kubeReservedCgroup(v)),
            flag(FlagSpec.of("system-reserved-cgroup", "string", "Absolute name of the top level cgroup that is used "
                    + "to manage non-kubernetes components for which compute resources were reserved via "
                    + "'--system-reserved' flag. Ex. '/system-reserved'. [default='']"),
                    KubeletConfiguration::systemReservedCgroup,
                    (c, v, earlier) -> c.systemReservedCgroup(v)),
            flag(FlagSpec.of("enforce-node-allocatable", "strings", "A comma separated list of levels of node "
                            + "allocatable enforcement to be enforced by kubelet. Acceptable options are 'none', 'pods', "
                            + "'system-reserved', and 'kube-reserved'. If the latter two options are specified, "
                            + "'--system-reserved-cgroup' and '--kube-reserved-cgroup' must also be set, respectively. If "
                            + "'none' is specified, no additional options should be set."),
                    KubeletConfiguration::enforceNodeAllocatable,
                    (c, v, earlier) -> list(c::enforceNodeAllocatable, c::addAllEnforceNodeAllocatable, v,
                            earlier)),
            flag(FlagSpec.of("pod-max-pids", "int", "Set the maximum number of processes per pod. If -1, the kubelet "
                    + "defaults to the node allocatable pid capacity."),
                    KubeletConfiguration::podPidsLimit,
                    (c, v, earlier) -> c.podPidsLimit(FlagValues.int64(v))),
            flag(FlagSpec.bool("cpu-cfs-quota", "Enable CPU CFS quota enforcement for containers that specify CPU "
                    + "limits."), KubeletConfiguration::cpuCFSQuota,
                    (c, v, earlier) -> c.cpuCFSQuota(FlagValues.bool(v))),
            flag(FlagSpec.of("cpu-cfs-quota-period", "duration", "Sets CPU CFS quota period value, cpu.cfs_period_us, "
                    + "defaults to Linux Kernel default; another value needs the CustomCPUCFSQuotaPeriod feature gate."),
                    KubeletConfiguration::cpuCFSQuotaPeriod,
                    (c, v, earlier) -> c.cpuCFSQuotaPeriod(FlagValues.duration(v))),
            flag(FlagSpec.of("cluster-dns", "strings", "Comma-separated list of DNS server IP addresses given to "
                            + "containers with dnsPolicy=ClusterFirst. Repeatable."),
                    KubeletConfiguration::clusterDNS,
                    (c, v, earlier) -> list(c::clusterDNS, c::addAllClusterDNS, v, earlier)),
            flag(FlagSpec.of("cluster-domain", "string", "Domain for this cluster; containers search it in "
                    + "addition to the host's search domains."), KubeletConfiguration::clusterDomain,
                    (c, v, earlier) -> c.clusterDomain(v)),
            flag(FlagSpec.of("resolv-conf", "string", "Resolver configuration file used as the basis for the "
                    + "containers' DNS configuration; empty disables it."),
                    KubeletConfiguration::resolvConf,
                    (c, v, earlier) -> c.resolvConf(v)),
            flag(FlagSpec.of("runtime-request-timeout", "duration", "Timeout of all runtime requests except "
                            + "long-running ones (pull, logs, exec, attach)."),
                    KubeletConfiguration::runtimeRequestTimeout,
                    (c, v, earlier) -> c.runtimeRequestTimeout(FlagValues.duration(v))),
            flag(FlagSpec.bool("serialize-image-pulls", "Pull images one at a time."),
                    KubeletConfiguration::serializeImagePulls,
                    (c, v, earlier) -> c.serializeImagePulls(FlagValues.bool(v))),
            flag(FlagSpec.bool("register-node", "Register the node with the apiserver."),
                    KubeletConfiguration::registerNode,
                    (c, v, earlier) -> c.registerNode(FlagValues.bool(v))),
            flag(FlagSpec.of("node-status-update-frequency", "duration", "How often the kubelet computes node "
                            + "status."),
                    KubeletConfiguration::nodeStatusUpdateFrequency,
                    (c, v, earlier) -> c.nodeStatusUpdateFrequency(FlagValues.duration(v))),
            flag(FlagSpec.of("image-gc-high-threshold", "int32", "Percent of image file system usage at or above "
                            + "which unused images are garbage collected (checked every 5 minutes), in [0, 100]; 100 "
                            + "disables it unless imageMaximumGCAge is set."),
                    KubeletConfiguration::imageGCHighThresholdPercent,
                    (c, v, earlier) -> c.imageGCHighThresholdPercent(FlagValues.int32(v))),
            flag(FlagSpec.of("image-gc-low-threshold", "int32", "Percent of image file system usage image garbage "
                            + "collection frees down to, least recently used images first, in [0, 100], below the "
                            + "high threshold."),
                    KubeletConfiguration::imageGCLowThresholdPercent,
                    (c, v, earlier) -> c.imageGCLowThresholdPercent(FlagValues.int32(v))),
            flag(FlagSpec.of("minimum-image-ttl-duration", "duration", "Minimum age for an unused image before it "
                            + "is garbage collected.  Examples: '300ms', '10s' or '2h45m'."),
                    KubeletConfiguration::imageMinimumGCAge,
                    (c, v, earlier) -> c.imageMinimumGCAge(FlagValues.duration(v))),
            flag(FlagSpec.of("eviction-hard", "signal<quantity", "A set of eviction thresholds (e.g. "
                            + "memory.available<1Gi) that if met would trigger a pod eviction (for disk signals once the "
                            + "node has freed dead containers and unused images). Signals: memory.available, "
                            + "nodefs.available, nodefs.inodesFree, imagefs.available, imagefs.inodesFree, "
                            + "pid.available; quantities or percentages of capacity. Repeatable; replaces the defaults."),
                    KubeletConfiguration::evictionHard,
                    (c, v, earlier) -> pairs(c::evictionHard, c::putAllEvictionHard, v, '<', earlier)),
            flag(FlagSpec.of("eviction-soft", "signal<quantity", "A set of eviction thresholds (e.g. "
                            + "memory.available<1.5Gi) that if met over a corresponding grace period would trigger a pod "
                            + "eviction. Repeatable."),
                    KubeletConfiguration::evictionSoft,
                    (c, v, earlier) -> pairs(c::evictionSoft, c::putAllEvictionSoft, v, '<', earlier)),
            flag(FlagSpec.of("eviction-soft-grace-period", "signal=duration", "A set of eviction grace periods (e.g. "
                            + "memory.available=1m30s) that correspond to how long a soft eviction threshold must hold "
                            + "before triggering a pod eviction; every soft threshold needs one. Repeatable."),
                    KubeletConfiguration::evictionSoftGracePeriod,
                    (c, v, earlier) -> pairs(c::evictionSoftGracePeriod, c::putAllEvictionSoftGracePeriod, v, '=', earlier)),
            flag(FlagSpec.of("eviction-max-pod-grace-period", "int32", "Maximum allowed grace period (in seconds) to use "
                            + "when terminating pods in response to a soft eviction threshold being met (never more than "
                            + "the pod's own). If negative, defer to pod specified value. Hard thresholds give 1 second."),
                    KubeletConfiguration::evictionMaxPodGracePeriod,
                    (c, v, earlier) -> c.evictionMaxPodGracePeriod(FlagValues.int32(v))),
            flag(FlagSpec.of("eviction-minimum-reclaim", "signal=quantity", "A set of minimum reclaims (e.g. "
                            + "imagefs.available=2Gi) that describes the minimum amount of resource the kubelet will "
                            + "reclaim when performing a pod eviction if that resource is under pressure: a threshold "
                            + "met stays met until that much more than it is available. Repeatable."),
                    KubeletConfiguration::evictionMinimumReclaim,
                    (c, v, earlier) -> pairs(c::evictionMinimumReclaim, c::putAllEvictionMinimumReclaim, v, '=', earlier)),
            flag(FlagSpec.of("eviction-pressure-transition-period", "duration", "Duration for which the kubelet has to "
                            + "wait before transitioning out of an eviction pressure condition (MemoryPressure, "
                            + "DiskPressure, PIDPressure)."),
                    KubeletConfiguration::evictionPressureTransitionPeriod,
                    (c, v, earlier) -> c.evictionPressureTransitionPeriod(FlagValues.duration(v))),
            flag(FlagSpec.bool("fail-swap-on", "Refuse to start when swap is enabled on the node."),
                    KubeletConfiguration::failSwapOn,
                    (c, v, earlier) -> c.failSwapOn(FlagValues.bool(v))),
            flag(FlagSpec.of("kube-api-qps", "int32", "QPS to use while talking with the apiserver."),
                    KubeletConfiguration::kubeAPIQPS,
                    (c, v, earlier) -> c.kubeAPIQPS(FlagValues.int32(v))),
            flag(FlagSpec.of("kube-api-burst", "int32", "Burst to use while talking with the apiserver."),
                    KubeletConfiguration::kubeAPIBurst,
                    (c, v, earlier) -> c.kubeAPIBurst(FlagValues.int32(v))),
            flag(FlagSpec.of("event-qps", "int32", "Maximum event creations per second; 0 means no limit."),
                    KubeletConfiguration::eventRecordQPS,
                    (c, v, earlier) -> c.eventRecordQPS(FlagValues.int32(v))),
            flag(FlagSpec.of("event-burst", "int32", "Maximum burst of event creations."),
                    KubeletConfiguration::eventBurst,
                    (c, v, earlier) -> c.eventBurst(FlagValues.int32(v))),
            flag(FlagSpec.bool("enable-debugging-handlers", "Serve log access, exec, attach, port-forward and run."),
                    KubeletConfiguration::enableDebuggingHandlers,
                    (c, v, earlier) -> c.enableDebuggingHandlers(FlagValues.bool(v))),
            flag(FlagSpec.of("tls-cert-file", "string", "File containing the x509 serving certificate (CA "
                    + "certificates appended). If empty, a self-signed pair is written to --cert-dir."),
                    KubeletConfiguration::tlsCertFile,
                    (c, v, earlier) -> c.tlsCertFile(v)),
            flag(FlagSpec.of("tls-private-key-file", "string", "File containing the x509 private key matching "
                    + "--tls-cert-file."), KubeletConfiguration::tlsPrivateKeyFile,
                    (c, v, earlier) -> c.tlsPrivateKeyFile(v)),
            flag(FlagSpec.bool("anonymous-auth", "Allow anonymous requests to the kubelet server, as "
                            + "system:anonymous in group system:unauthenticated."),
                    c -> c.authentication().anonymous().enabled(),
                    (c, v, earlier) -> c.authenticationBuilder().anonymousBuilder().enabled(FlagValues.bool(v))),
            flag(FlagSpec.of("authorization-mode", "string", "Authorization mode of the kubelet server: "
                            + "AlwaysAllow or Webhook (SubjectAccessReview)."),
                    c -> c.authorization().mode(),
                    (c, v, earlier) -> c.authorizationBuilder().mode(v)),
            flag(FlagSpec.of("client-ca-file", "string", "Client certificates signed by these CAs are "
                            + "authenticated, with the certificate's CommonName as user name."),
                    c -> c.authentication().x509().clientCAFile(),
                    (c, v, earlier) -> c.authenticationBuilder().x509Builder().clientCAFile(v)),
            flag(FlagSpec.bool("authentication-token-webhook", "Authenticate bearer tokens with the TokenReview "
                            + "API."),
                    c -> c.authentication().webhook().enabled(),
                    (c, v, earlier) -> c.authenticationBuilder().webhookBuilder().enabled(FlagValues.bool(v))),
            flag(FlagSpec.of("feature-gates", "mapStringBool", "A set of key=value pairs that describe feature gates "
                            + "for alpha/experimental features, merged over the configuration's featureGates. A gate "
                            + "jkubelet does not implement takes only its default (see docs/operations.md). Options "
                            + "are:\n" + knownFeatures()),
                    KubeletConfiguration::featureGates,
                    (c, v, earlier) -> c.putAllFeatureGates(FlagValues.boolPairs(v))));

    /**
     * Every flag of a configuration field, deprecated as upstream's are; the logging flags (component-base's) are
     * not deprecated upstream.
     */
    static final List<ConfigFlag> ALL = Stream.concat(
            deprecatedAsUpstream(FIRST, ServerConfigFlags.ALL, NodeConfigFlags.ALL).stream(), LoggingFlags.ALL.stream())
            .toList();

    private ConfigFlags() {
    }

    @SafeVarargs
    private static List<ConfigFlag> deprecatedAsUpstream(List<ConfigFlag>... groups) {
        List<ConfigFlag> all = new ArrayList<>();
        for (List<ConfigFlag> group : groups) {
            for (ConfigFlag flag : group) {
                all.add(NOT_DEPRECATED.contains(flag.spec().name()) ? flag : flag.deprecated(USE_CONFIG_FILE));
            }
        }
        return List.copyOf(all);
    }

    /** Upstream's {@code KnownFeatures}: every gate that is neither GA nor deprecated, with its stage and default. */
    private static String knownFeatures() {
        StringBuilder out = new StringBuilder();
        FeatureGates.known().forEach((name, spec) -> {
            if (spec.stage() != FeatureGateSpec.Stage.GA && spec.stage() != FeatureGateSpec.Stage.DEPRECATED) {
                out.append(out.isEmpty() ? "" : "\n").append(name).append("=true|false (").append(spec.stage())
                        .append(" - default=").append(spec.defaultValue()).append(')');
            }
        });
        return out.toString();
    }
}
