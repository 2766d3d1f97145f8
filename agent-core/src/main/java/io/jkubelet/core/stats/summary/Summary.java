package io.jkubelet.core.stats.summary;

import java.util.List;

/** The node's and its pods' usage (upstream {@code Summary}). */
public record Summary(NodeStats node, List<PodStats> pods) {
    public Summary {
        pods = List.copyOf(pods);
    }

    /**
     * The summary {@code ?only_cpu_and_memory=true} serves (upstream {@code GetCPUAndMemoryStats}): node name,
     * start time, CPU and memory of the node, its system containers, pods and containers; nothing else.
     */
    public Summary onlyCpuAndMemory() {
        NodeStats n = node;
        return new Summary(new NodeStats(n.nodeName(), n.systemContainers().stream().map(ContainerStats::onlyCpuAndMemory).toList(),
                n.startTime(), n.cpu(), n.memory(), null, null, null, null),
                pods.stream().map(PodStats::onlyCpuAndMemory).toList());
    }
}
