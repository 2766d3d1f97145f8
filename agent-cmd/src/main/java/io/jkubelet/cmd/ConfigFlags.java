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
                    + "host: 'cgroupfs' or 'systemd'. (default \"cgroupfs\")"), (c, v, first) -> c.cgroupDriver(v)),
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
            flag(FlagSpec.of("image-gc-high-threshold", "int32", "Percent of image file system usage at or above "
                            + "which unused images are garbage collected (checked every 5 minutes), in [0, 100]; 100 "
                            + "disables it unless imageMaximumGCAge is set. (default 85)"),
                    (c, v, first) -> c.imageGCHighThresholdPercent(FlagValues.int32(v))),
            flag(FlagSpec.of("image-gc-low-threshold", "int32", "Percent of image file system usage image garbage "
                            + "collection frees down to, least recently used images first, in [0, 100], below the "
                            + "high threshold. (default 80)"),
                    (c, v, first) -> c.imageGCLowThresholdPercent(FlagValues.int32(v))),
            flag(FlagSpec.of("minimum-image-ttl-duration", "duration", "Minimum age for an unused image before it "
                            + "is garbage collected.  Examples: '300ms', '10s' or '2h45m'. (default 2m0s)"),
                    (c, v, first) -> c.imageMinimumGCAge(FlagValues.duration(v))),
            flag(FlagSpec.of("eviction-hard", "signal<quantity", "Hard eviction thresholds, e.g. "
                            + "'memory.available<1Gi,nodefs.available<10%'. Repeatable. (default imagefs.available<15%,"
                            + "memory.available<100Mi,nodefs.available<10%,nodefs.inodesFree<5%)"),
                    (c, v, first) -> {
                        Map<String, String> thresholds = new LinkedHashMap<>();
                        if (!first && c.evictionHard() != null) {
                            thresholds.putAll(c.evictionHard());
                        }
                        thresholds.putAll(FlagValues.pairs(v, '<'));
                        c.evictionHard(thresholds);
                    }),
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
}
