package io.jkubelet.server.stats;

import io.jkubelet.core.stats.StatsSnapshot;
import io.jkubelet.core.stats.summary.ContainerStats;
import io.jkubelet.core.stats.summary.NodeStats;
import io.jkubelet.core.stats.summary.PodStats;
import io.jkubelet.core.stats.summary.Summary;

import java.time.Instant;

/**
 * {@code /metrics/resource}, what metrics-server scrapes: upstream's resource metrics collector
 * ({@code pkg/kubelet/metrics/collectors/resource_metrics.go}) over the CPU-and-memory summary. Counters and
 * gauges carry the time their sample was taken (milliseconds); {@code container_start_time_seconds} does not.
 * {@code scrape_error} (deprecated in 1.29) is hidden in the mirrored v1.30, so only
 * {@code resource_scrape_error} is written. Stateless and thread-safe.
 */
public final class ResourceMetricsEncoder {
    private static final double NANOS = 1e9;

    /** @param snapshot the latest stats, or {@code null} before the first round (then only the error gauge) */
    public byte[] encode(StatsSnapshot snapshot) {
        PromText text = new PromText()
                .family("node_cpu_usage_seconds_total", "counter", "[STABLE] Cumulative cpu time consumed by the node in core-seconds")
                .family("node_memory_working_set_bytes", "gauge", "[STABLE] Current working set of the node in bytes")
                .family("container_cpu_usage_seconds_total", "counter", "[STABLE] Cumulative cpu time consumed by the container in core-seconds")
                .family("container_memory_working_set_bytes", "gauge", "[STABLE] Current working set of the container in bytes")
                .family("container_start_time_seconds", "gauge", "[STABLE] Start time of the container since unix epoch in seconds")
                .family("pod_cpu_usage_seconds_total", "counter", "[STABLE] Cumulative cpu time consumed by the pod in core-seconds")
                .family("pod_memory_working_set_bytes", "gauge", "[STABLE] Current working set of the pod in bytes")
                .family("resource_scrape_error", "gauge", "[STABLE] 1 if there was an error while getting container metrics, 0 otherwise");
        boolean failed = snapshot == null || snapshot.error() != null;
        text.add("resource_scrape_error", failed ? 1 : 0, null);
        if (snapshot == null) {
            return text.toBytes();
        }
        Summary summary = snapshot.summary().onlyCpuAndMemory();
        NodeStats node = summary.node();
        if (node.cpu() != null && node.cpu().usageCoreNanoSeconds() != null) {
            text.add("node_cpu_usage_seconds_total", node.cpu().usageCoreNanoSeconds() / NANOS, millis(node.cpu().time()));
        }
        if (node.memory() != null && node.memory().workingSetBytes() != null) {
            text.add("node_memory_working_set_bytes", node.memory().workingSetBytes(), millis(node.memory().time()));
        }
        for (PodStats pod : summary.pods()) {
            String name = pod.podRef().name();
            String ns = pod.podRef().namespace();
            for (ContainerStats c : pod.containers()) {
                if (c.startTime() != null && c.startTime().getEpochSecond() > 0) {
                    text.add("container_start_time_seconds",
                            c.startTime().getEpochSecond() + c.startTime().getNano() / NANOS, null,
                            "container", c.name(), "pod", name, "namespace", ns);
                }
                if (c.cpu() != null && c.cpu().usageCoreNanoSeconds() != null) {
                    text.add("container_cpu_usage_seconds_total", c.cpu().usageCoreNanoSeconds() / NANOS,
                            millis(c.cpu().time()), "container", c.name(), "pod", name, "namespace", ns);
                }
                if (c.memory() != null && c.memory().workingSetBytes() != null) {
                    text.add("container_memory_working_set_bytes", c.memory().workingSetBytes(),
                            millis(c.memory().time()), "container", c.name(), "pod", name, "namespace", ns);
                }
            }
            if (pod.cpu() != null && pod.cpu().usageCoreNanoSeconds() != null) {
                text.add("pod_cpu_usage_seconds_total", pod.cpu().usageCoreNanoSeconds() / NANOS, millis(pod.cpu().time()),
                        "pod", name, "namespace", ns);
            }
            if (pod.memory() != null && pod.memory().workingSetBytes() != null) {
                text.add("pod_memory_working_set_bytes", pod.memory().workingSetBytes(), millis(pod.memory().time()),
                        "pod", name, "namespace", ns);
            }
        }
        return text.toBytes();
    }

    static Long millis(Instant t) {
        return t == null ? null : t.toEpochMilli();
    }
}
