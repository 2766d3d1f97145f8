package io.jkubelet.core.kuberuntime;

import java.nio.file.Path;
import java.util.List;
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
 */
public record NodeContext(String nodeName, List<String> hostIps, Path podLogsDir, Path containerLogsDir,
                          String podInfraImage, List<String> clusterDns, String clusterDomain,
                          IntUnaryOperator oomScoreClamp) {
    public NodeContext {
        hostIps = List.copyOf(hostIps);
        clusterDns = List.copyOf(clusterDns);
    }
}
