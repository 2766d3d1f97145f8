package io.jkubelet.core.runtime;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The usage of one ready sandbox (CRI {@code PodSandboxStats}): its network namespace's counters and the stats
 * of its running containers.
 *
 * @param createdAt when the sandbox was created: the pod's stats {@code startTime}
 * @param infra the sandbox's own (pause) container, whose usage counts towards the pod's; {@code null} when
 *     the runtime has no such container
 * @param network the network namespace's counters, or {@code null} when they cannot be read (host network)
 */
public record PodSandboxStats(String id, PodSandboxMetadata metadata, Map<String, String> labels, Instant createdAt,
                              ContainerStats infra, NetworkUsage network, List<ContainerStats> containers) {
    public PodSandboxStats {
        labels = Map.copyOf(labels);
        containers = List.copyOf(containers);
    }
}
