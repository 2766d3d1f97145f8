package io.jkubelet.core.nodestatus;

import java.util.List;
import java.util.Map;

/**
 * Who this node is: the settings that stay flags upstream.
 *
 * @param nodeName       the Node object's name ({@code --hostname-override} or the host name, lower case)
 * @param hostname       the {@code kubernetes.io/hostname} label and the Hostname address
 * @param nodeIps        the InternalIP addresses, in order ({@code --node-ip} or detected)
 * @param nodeLabels     {@code --node-labels}, added at registration
 * @param kubeletVersion the version reported as kubeletVersion, e.g. {@code v1.30.0}
 */
public record NodeIdentity(String nodeName, String hostname, List<String> nodeIps, Map<String, String> nodeLabels,
                           String kubeletVersion) {
    public NodeIdentity {
        nodeIps = List.copyOf(nodeIps);
        nodeLabels = Map.copyOf(nodeLabels);
    }
}
