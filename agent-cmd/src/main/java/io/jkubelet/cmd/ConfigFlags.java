package io.jkubelet.cmd;

import io.jkubelet.cmd.FlagValues.BadValue;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The flags that set {@link KubeletConfiguration} fields. When a configuration file is given, only
 * the flags present on the command line are applied over it (the kubelet's precedence); without a
 * file they are applied over the flag defaults.
 */
final class ConfigFlags {

    /** Sets one occurrence of a flag; {@code first} is true for its first occurrence on the command line. */
    @FunctionalInterface
    interface Setter {
        void set(KubeletConfiguration config, String value, boolean first) throws BadValue;
    }

    /** A flag and the field it sets. */
    record ConfigFlag(FlagSpec spec, Setter setter) {
    }

    static final List<ConfigFlag> ALL = List.of(
            flag(FlagSpec.of("pod-manifest-path", "string", "Path to the directory of static pod files to run, "
                            + "or to a single static pod file. Files starting with dots are ignored."),
                    (c, v, first) -> c.staticPodPath(v)),
            flag(FlagSpec.of("manifest-url", "string", "URL for accessing additional static pod specifications."),
                    (c, v, first) -> c.staticPodURL(v)),
            flag(FlagSpec.of("manifest-url-header", "key:value", "Comma-separated list of HTTP headers to use when "
                            + "accessing the manifest URL, e.g. 'a:hello,b:again,c:world'. Repeatable: values under "
                            + "the same header name accumulate."),
                    (c, v, first) -> {
                        Map<String, List<String>> headers = new LinkedHashMap<>();
                        if (!first && c.staticPodURLHeader() != null) {
                            c.staticPodURLHeader().forEach((k, vs) -> headers.put(k, new ArrayList<>(vs)));
                        }
                        FlagValues.headers(v, headers);
                        c.staticPodURLHeader(headers);
                    }),
            flag(FlagSpec.of("file-check-frequency", "duration", "Duration between checking static pod files for "
                    + "new data. (default 20s)"), (c, v, first) -> c.fileCheckFrequency(FlagValues.duration(v))),
            flag(FlagSpec.of("http-check-frequency", "duration", "Duration between checking the manifest URL for "
                    + "new data. (default 20s)"), (c, v, first) -> c.httpCheckFrequency(FlagValues.duration(v))),
            flag(FlagSpec.of("sync-frequency", "duration", "Max period between synchronizing running containers "
                    + "and config. (default 1m0s)"), (c, v, first) -> c.syncFrequency(FlagValues.duration(v))),
            flag(FlagSpec.of("address", "ip", "The IP address for the kubelet to serve on (0.0.0.0 or :: for all "
                    + "interfaces). (default 0.0.0.0)"), (c, v, first) -> c.address(FlagValues.ip(v))),
            flag(FlagSpec.of("port", "int32", "The port for the kubelet to serve on. (default 10250)"),
                    (c, v, first) -> c.port(FlagValues.int32(v))),
            flag(FlagSpec.of("read-only-port", "int32", "The read-only port for the kubelet to serve on with no "
                            + "authentication/authorization; 0 disables it. (default 10255)"),
                    (c, v, first) -> c.readOnlyPort(FlagValues.int32(v))),
            flag(FlagSpec.of("healthz-port", "int32", "The port of the localhost healthz endpoint; 0 disables it. "
                    + "(default 10248)"), (c, v, first) -> c.healthzPort(FlagValues.int32(v))),
            flag(FlagSpec.of("healthz-bind-address", "ip", "The IP address for the healthz server to serve on. "
                    + "(default 127.0.0.1)"), (c, v, first) -> c.healthzBindAddress(FlagValues.ip(v))),
            flag(FlagSpec.of("max-pods", "int32", "Number of pods that can run on this kubelet. (default 110)"),
                    (c, v, first) -> c.maxPods(FlagValues.int32(v))),
            flag(FlagSpec.of("container-runtime-endpoint", "string", "The endpoint of the container runtime. "
                            + "(default \"unix:///var/run/docker.sock\")"),
                    (c, v, first) -> c.containerRuntimeEndpoint(v)),
            flag(FlagSpec.of("pod-logs-dir", "string", "Root directory of the pod log directories. "
                    + "(default \"/var/log/pods\")"), (c, v, first) -> c.podLogsDir(v)),
            flag(FlagSpec.of("oom-score-adj", "int32", "The oom_score_adj value for the kubelet process, in "
                    + "[-1000, 1000]. (default -999)"), (c, v, first) -> c.oomScoreAdj(FlagValues.int32(v))),
            flag(FlagSpec.of("cgroup-driver", "string", "Driver the kubelet uses to manipulate cgroups on the "
                    + "host: 'cgroupfs' or 'systemd'. It must be Docker's (docker info), else the kubelet does not "
                    + "start. With 'systemd' the kubelet names its cgroups as systemd slices (kubepods.slice, ...) and "
                    + "writes them in the cgroup file system itself, not through systemd. (default \"cgroupfs\")"),
                    (c, v, first) -> c.cgroupDriver(v)),
            flag(FlagSpec.bool("cgroups-per-qos", "Enable creation of QoS cgroup hierarchy, if true top level QoS and "
                    + "pod cgroups are created. (default true)"), (c, v, first) -> c.cgroupsPerQOS(FlagValues.bool(v))),
            flag(FlagSpec.of("cgroup-root", "string", "Root cgroup for pods; it must exist. With --cgroups-per-qos "
                    + "the kubepods cgroup is made below it, and '' means '/'; without, '' leaves pods in the container "
                    + "runtime's default cgroups."), (c, v, first) -> c.cgroupRoot(v)),
            flag(FlagSpec.of("kube-reserved", "mapStringString", "A set of ResourceName=ResourceQuantity (e.g. "
                    + "cpu=200m,memory=500Mi,ephemeral-storage=1Gi,pid=1000) pairs that describe resources reserved "
                    + "for kubernetes system components; they are taken off the node's allocatable. Repeatable."),
                    (c, v, first) -> c.kubeReserved(pairs(first ? null : c.kubeReserved(), v, '='))),
            flag(FlagSpec.of("system-reserved", "mapStringString", "A set of ResourceName=ResourceQuantity (e.g. "
                    + "cpu=200m,memory=500Mi,ephemeral-storage=1Gi,pid=1000) pairs that describe resources reserved "
                    + "for non-kubernetes components; they are taken off the node's allocatable. Repeatable."),
                    (c, v, first) -> c.systemReserved(pairs(first ? null : c.systemReserved(), v, '='))),
            flag(FlagSpec.of("kube-reserved-cgroup", "string", "Absolute name of the top level cgroup that is used to "
                    + "manage kubernetes components for which compute resources were reserved via '--kube-reserved' "
                    + "flag. Ex. '/kube-reserved'. [default='']"), (c, v, first) -> c.kubeReservedCgroup(v)),
            flag(FlagSpec.of("system-reserved-cgroup", "string", "Absolute name of the top level cgroup that is used "
                    + "to manage non-kubernetes components for which compute resources were reserved via "
                    + "'--system-reserved' flag. Ex. '/system-reserved'. [default='']"),
                    (c, v, first) -> c.systemReservedCgroup(v)),
            flag(FlagSpec.of("enforce-node-allocatable", "strings", "A comma separated list of levels of node "
                            + "allocatable enforcement to be enforced by kubelet. Acceptable options are 'none', 'pods', "
                            + "'system-reserved', and 'kube-reserved'. If the latter two options are specified, "
                            + "'--system-reserved-cgroup' and '--kube-reserved-cgroup' must also be set, respectively. If "
                            + "'none' is specified, no additional options should be set. (default [pods])"),
                    (c, v, first) -> {
                        List<String> levels = new ArrayList<>();
                        if (!first && c.enforceNodeAllocatable() != null) {
                            levels.addAll(c.enforceNodeAllocatable());
                        }
                        levels.addAll(FlagValues.csv(v));
                        c.enforceNodeAllocatable(levels);
                    }),
            flag(FlagSpec.of("pod-max-pids", "int", "Set the maximum number of processes per pod. If -1, the kubelet "
                    + "defaults to the node allocatable pid capacity. (default -1)"),
                    (c, v, first) -> c.podPidsLimit(FlagValues.int64(v))),
            flag(FlagSpec.bool("cpu-cfs-quota", "Enable CPU CFS quota enforcement for containers that specify CPU "
                    + "limits. (default true)"), (c, v, first) -> c.cpuCFSQuota(FlagValues.bool(v))),
            flag(FlagSpec.of("cpu-cfs-quota-period", "duration", "Sets CPU CFS quota period value, cpu.cfs_period_us, "
                    + "defaults to Linux Kernel default; another value needs the CustomCPUCFSQuotaPeriod feature gate. "
                    + "(default 100ms)"), (c, v, first) -> c.cpuCFSQuotaPeriod(FlagValues.duration(v))),
            flag(FlagSpec.of("cluster-dns", "strings", "Comma-separated list of DNS server IP addresses given to "
                            + "containers with dnsPolicy=ClusterFirst. Repeatable."),
                    (c, v, first) -> {
                        List<String> servers = new ArrayList<>();
                        if (!first && c.clusterDNS() != null) {
                            servers.addAll(c.clusterDNS());
                        }
                        servers.addAll(FlagValues.csv(v));
                        c.clusterDNS(servers);
                    }),
            flag(FlagSpec.of("cluster-domain", "string", "Domain for this cluster; containers search it in "
                    + "addition to the host's search domains."), (c, v, first) -> c.clusterDomain(v)),
            flag(FlagSpec.of("resolv-conf", "string", "Resolver configuration file used as the basis for the "
                    + "containers' DNS configuration; empty disables it. (default \"/etc/resolv.conf\")"),
                    (c, v, first) -> c.resolvConf(v)),
            flag(FlagSpec.of("runtime-request-timeout", "duration", "Timeout of all runtime requests except "
                            + "long-running ones (pull, logs, exec, attach). (default 2m0s)"),
                    (c, v, first) -> c.runtimeRequestTimeout(FlagValues.duration(v))),
            flag(FlagSpec.bool("serialize-image-pulls", "Pull images one at a time. (default true)"),
                    (c, v, first) -> c.serializeImagePulls(FlagValues.bool(v))),
            flag(FlagSpec.bool("register-node", "Register the node with the apiserver. (default true)"),
                    (c, v, first) -> c.registerNode(FlagValues.bool(v))),
            flag(FlagSpec.of("node-status-update-frequency", "duration", "How often the kubelet computes node "
                            + "status. (default 10s)"),
                    (c, v, first) -> c.nodeStatusUpdateFrequency(FlagValues.duration(v))),
            flag(FlagSpec.of("image-gc-high-threshold", "int32", "Percent of disk usage after which image garbage "
                            + "collection always runs, in [0, 100]. (default 85)"),
                    (c, v, first) -> c.imageGCHighThresholdPercent(FlagValues.int32(v))),
            flag(FlagSpec.of("image-gc-low-threshold", "int32", "Percent of disk usage image garbage collection "
                            + "frees down to, in [0, 100], below the high threshold. (default 80)"),
                    (c, v, first) -> c.imageGCLowThresholdPercent(FlagValues.int32(v))),
            flag(FlagSpec.of("eviction-hard", "signal<quantity", "Hard eviction thresholds, e.g. "
                            + "'memory.available<1Gi,nodefs.available<10%'. Repeatable. (default imagefs.available<15%,"
                            + "memory.available<100Mi,nodefs.available<10%,nodefs.inodesFree<5%)"),
                    (c, v, first) -> c.evictionHard(pairs(first ? null : c.evictionHard(), v, '<'))),
            flag(FlagSpec.bool("fail-swap-on", "Refuse to start when swap is enabled on the node. (default true)"),
                    (c, v, first) -> c.failSwapOn(FlagValues.bool(v))),
            flag(FlagSpec.of("kube-api-qps", "int32", "QPS to use while talking with the apiserver. (default 50)"),
                    (c, v, first) -> c.kubeAPIQPS(FlagValues.int32(v))),
            flag(FlagSpec.of("kube-api-burst", "int32", "Burst to use while talking with the apiserver. "
                    + "(default 100)"), (c, v, first) -> c.kubeAPIBurst(FlagValues.int32(v))),
            flag(FlagSpec.of("event-qps", "int32", "Maximum event creations per second; 0 means no limit. "
                    + "(default 50)"), (c, v, first) -> c.eventRecordQPS(FlagValues.int32(v))),
            flag(FlagSpec.of("event-burst", "int32", "Maximum burst of event creations. (default 100)"),
                    (c, v, first) -> c.eventBurst(FlagValues.int32(v))),
            flag(FlagSpec.bool("enable-debugging-handlers", "Serve log access, exec, attach, port-forward and run. "
                    + "(default true)"), (c, v, first) -> c.enableDebuggingHandlers(FlagValues.bool(v))),
            flag(FlagSpec.of("tls-cert-file", "string", "File containing the x509 serving certificate (CA "
                    + "certificates appended). If empty, a self-signed pair is written to --cert-dir."),
                    (c, v, first) -> c.tlsCertFile(v)),
            flag(FlagSpec.of("tls-private-key-file", "string", "File containing the x509 private key matching "
                    + "--tls-cert-file."), (c, v, first) -> c.tlsPrivateKeyFile(v)),
            flag(FlagSpec.bool("anonymous-auth", "Allow anonymous requests to the kubelet server, as "
                            + "system:anonymous in group system:unauthenticated. (default true)"),
                    (c, v, first) -> c.authentication().anonymous().enabled(FlagValues.bool(v))),
            flag(FlagSpec.of("authorization-mode", "string", "Authorization mode of the kubelet server: "
                            + "AlwaysAllow or Webhook (SubjectAccessReview). (default \"AlwaysAllow\")"),
                    (c, v, first) -> c.authorization().mode(v)),
            flag(FlagSpec.of("client-ca-file", "string", "Client certificates signed by these CAs are "
                            + "authenticated, with the certificate's CommonName as user name."),
                    (c, v, first) -> c.authentication().x509().clientCAFile(v)),
            flag(FlagSpec.bool("authentication-token-webhook", "Authenticate bearer tokens with the TokenReview "
                            + "API."),
                    (c, v, first) -> c.authentication().webhook().enabled(FlagValues.bool(v))),
            flag(new FlagSpec("v", "v", "uint32", false, "Number for the log level verbosity. (default 0)"),
                    (c, v, first) -> c.logging().verbosity(FlagValues.uint32(v))));

    private ConfigFlags() {
    }

    private static ConfigFlag flag(FlagSpec spec, Setter setter) {
        return new ConfigFlag(spec, setter);
    }

    /** cliflag's maps: the first occurrence replaces the configured map, later ones add to it. */
    private static Map<String, String> pairs(Map<String, String> before, String value, char separator) throws BadValue {
        Map<String, String> out = new LinkedHashMap<>();
        if (before != null) {
            out.putAll(before);
        }
        out.putAll(FlagValues.pairs(value, separator));
        return out;
    }
}
