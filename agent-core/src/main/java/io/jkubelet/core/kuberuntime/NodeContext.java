package io.jkubelet.core.kuberuntime;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.IntUnaryOperator;

/**
 * Facts about this node that the runtime manager needs to build sandboxes and containers.
 *
 * @param nodeName the node's name; also a label on every container, so that agents on one engine stay apart
 * @param hostIps the node's IPs, first the primary
 * @param podLogsDir {@code podLogsDir} (/var/log/pods)
 * @param containerLogsDir where the legacy {@code <pod>_<ns>_<container>-<id>.log} links go (/var/log/containers)
 * @param podInfraImage the sandbox (pause) image
 * @param clusterDns {@code clusterDNS}; empty means the node's resolv.conf
 * @param clusterDomain {@code clusterDomain}
 * @param oomScoreClamp raises a wanted OOM score to what this machine allows
 * @param resolvConf {@code resolvConf}: the host's resolver file that host-DNS pods get; "" for none
 */
public record NodeContext(String nodeName, List<String> hostIps, Path podLogsDir, Path containerLogsDir,
                          String podInfraImage, List<String> clusterDns, String clusterDomain,
                          IntUnaryOperator oomScoreClamp, String resolvConf) {
    /** The v1beta1 default of {@code resolvConf}. */
    public static final String DEFAULT_RESOLV_CONF = "/etc/resolv.conf";

    public NodeContext {
        hostIps = List.copyOf(hostIps);
        clusterDns = List.copyOf(clusterDns);
        Objects.requireNonNull(resolvConf, "resolvConf");
    }

    /** With the default {@code resolvConf}, {@value #DEFAULT_RESOLV_CONF}. */
    public NodeContext(String nodeName, List<String> hostIps, Path podLogsDir, Path containerLogsDir,
                       String podInfraImage, List<String> clusterDns, String clusterDomain,
                       IntUnaryOperator oomScoreClamp) {
        this(nodeName, hostIps, podLogsDir, containerLogsDir, podInfraImage, clusterDns, clusterDomain, oomScoreClamp,
                DEFAULT_RESOLV_CONF);
    }
}
