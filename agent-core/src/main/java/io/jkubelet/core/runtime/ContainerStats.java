package io.jkubelet.core.runtime;

import java.time.Instant;
import java.util.Map;

/**
 * The usage of one running container (CRI {@code ContainerStats} with its {@code ContainerAttributes}), plus
 * what cAdvisor's metrics label a container with. Any usage the runtime cannot tell is {@code null}.
 *
 * @param runtimeName the runtime's own name for it (Docker: {@code k8s_<container>_<pod>_...}), cAdvisor's
 *     {@code name} label
 * @param cgroupPath the container's cgroup relative to the hierarchy root, e.g. {@code /docker/<id>}: cAdvisor's
 *     {@code id} label
 * @param image the image the container runs, as its spec names it
 * @param startedAt when the container's process started
 * @param processCount the processes in its cgroup ({@code pids.current}), or {@code null}
 */
public record ContainerStats(String id, String podSandboxId, ContainerMetadata metadata, Map<String, String> labels,
                             String runtimeName, String cgroupPath, String image, Instant startedAt, CpuUsage cpu,
                             MemoryUsage memory, WritableLayerUsage writableLayer, Long processCount,
                             ContainerResourceSpec spec) {
    public ContainerStats {
        labels = Map.copyOf(labels);
    }
}
