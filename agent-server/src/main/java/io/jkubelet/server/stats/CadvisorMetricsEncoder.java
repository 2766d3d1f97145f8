package io.jkubelet.server.stats;

import io.jkubelet.core.runtime.ContainerStats;
import io.jkubelet.core.runtime.PodSandboxStats;
import io.jkubelet.core.stats.StatsSnapshot;
import io.jkubelet.core.stats.summary.NodeStats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code /metrics/cadvisor}: the container metrics cAdvisor exposes through the kubelet, for the CPU and
 * memory subset jkubelet collects. Labels as the kubelet's cAdvisor label function sets them: {@code container}
 * (empty for the pause container and the root cgroup), {@code id} (the cgroup path), {@code image},
 * {@code name} (the runtime's container name), {@code namespace}, {@code pod}; usage carries the sample's
 * millisecond timestamp, specs do not. The root cgroup ({@code id="/"}) reports the node. Stateless.
 */
public final class CadvisorMetricsEncoder {
    private static final double NANOS = 1e9;

    public byte[] encode(StatsSnapshot snapshot) {
        PromText text = new PromText()
                .family("container_cpu_usage_seconds_total", "counter", "Cumulative cpu time consumed in seconds.")
                .family("container_memory_usage_bytes", "gauge",
                        "Current memory usage in bytes, including all memory regardless of when it was accessed")
                .family("container_memory_working_set_bytes", "gauge", "Current working set in bytes.")
                .family("container_memory_rss", "gauge", "Size of RSS in bytes.")
                .family("container_spec_cpu_shares", "gauge", "CPU share of the container.")
                .family("container_spec_cpu_period", "gauge", "CPU period of the container.")
                .family("container_spec_cpu_quota", "gauge", "CPU quota of the container.")
                .family("container_spec_memory_limit_bytes", "gauge", "Memory limit for the container.")
                .family("container_start_time_seconds", "gauge", "Start time of the container since unix epoch in seconds.")
                .family("container_scrape_error", "gauge", "1 if there was an error while getting container metrics, 0 otherwise");
        text.add("container_scrape_error", snapshot == null || snapshot.error() != null ? 1 : 0, null);
        if (snapshot == null) {
            return text.toBytes();
        }
        NodeStats node = snapshot.summary().node();
        String[] root = {"container", "", "id", "/", "image", "", "name", "", "namespace", "", "pod", ""};
        if (node.cpu() != null && node.cpu().usageCoreNanoSeconds() != null) {
            text.add("container_cpu_usage_seconds_total", node.cpu().usageCoreNanoSeconds() / NANOS,
                    node.cpu().time().toEpochMilli(), with(root, "cpu", "total"));
        }
        if (node.memory() != null) {
            long t = node.memory().time().toEpochMilli();
            addIfSet(text, "container_memory_usage_bytes", node.memory().usageBytes(), t, root);
            addIfSet(text, "container_memory_working_set_bytes", node.memory().workingSetBytes(), t, root);
            addIfSet(text, "container_memory_rss", node.memory().rssBytes(), t, root);
        }
        for (PodSandboxStats sandbox : snapshot.sandboxes()) {
            List<ContainerStats> all = new ArrayList<>(sandbox.containers());
            if (sandbox.infra() != null) {
                all.add(sandbox.infra());
            }
            for (ContainerStats c : all) {
                String container = c == sandbox.infra() ? "" : c.metadata().name();
                String[] labels = {"container", container, "id", c.cgroupPath(), "image", c.image(), "name", c.runtimeName(),
                        "namespace", sandbox.metadata().namespace(), "pod", sandbox.metadata().name()};
                if (c.cpu() != null) {
                    text.add("container_cpu_usage_seconds_total", c.cpu().usageCoreNanoSeconds() / NANOS,
                            c.cpu().timestamp().toEpochMilli(), with(labels, "cpu", "total"));
                }
                if (c.memory() != null) {
                    long t = c.memory().timestamp().toEpochMilli();
                    text.add("container_memory_usage_bytes", c.memory().usageBytes(), t, labels);
                    text.add("container_memory_working_set_bytes", c.memory().workingSetBytes(), t, labels);
                    text.add("container_memory_rss", c.memory().rssBytes(), t, labels);
                }
                if (c.spec() != null) {
                    text.add("container_spec_cpu_shares", c.spec().cpuShares(), null, labels);
                    if (c.spec().cpuPeriod() > 0) {
                        text.add("container_spec_cpu_period", c.spec().cpuPeriod(), null, labels);
                    }
                    if (c.spec().cpuQuota() > 0) {
                        text.add("container_spec_cpu_quota", c.spec().cpuQuota(), null, labels);
                    }
                    text.add("container_spec_memory_limit_bytes", c.spec().memoryLimitBytes(), null, labels);
                }
                if (c.startedAt() != null) {
                    text.add("container_start_time_seconds", c.startedAt().getEpochSecond(), null, labels);
                }
            }
        }
        return text.toBytes();
    }

    private static void addIfSet(PromText text, String family, Long value, long t, String[] labels) {
        if (value != null) {
            text.add(family, value, t, labels);
        }
    }

    private static String[] with(String[] labels, String name, String value) {
        String[] out = Arrays.copyOf(labels, labels.length + 2);
        out[labels.length] = name;
        out[labels.length + 1] = value;
        return out;
    }
}
