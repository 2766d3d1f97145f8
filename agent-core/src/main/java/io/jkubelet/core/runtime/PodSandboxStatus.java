package io.jkubelet.core.runtime;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A sandbox's status (CRI {@code PodSandboxStatus}).
 *
 * @param ip the pod IP, or empty when the sandbox has none (stopped, or the node's network)
 * @param additionalIps further pod IPs (dual stack)
 */
public record PodSandboxStatus(String id, PodSandboxMetadata metadata, PodSandboxState state, Instant createdAt,
                               String ip, List<String> additionalIps, NamespaceOptions namespaceOptions,
                               Map<String, String> labels, Map<String, String> annotations) {
    public PodSandboxStatus {
        additionalIps = List.copyOf(additionalIps);
        labels = Map.copyOf(labels);
        annotations = Map.copyOf(annotations);
    }
}
