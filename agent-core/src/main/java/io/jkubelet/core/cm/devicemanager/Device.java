package io.jkubelet.core.cm.devicemanager;

import java.util.List;

/**
 * One device a plugin reports in {@code ListAndWatch} (device plugin API {@code Device}).
 *
 * @param id the plugin's ID of the device
 * @param health {@link #HEALTHY}, {@link #UNHEALTHY}, or anything else, which counts as unhealthy
 * @param numaNodes the NUMA nodes the device is attached to; {@code null} when the plugin sent no topology
 */
public record Device(String id, String health, List<Long> numaNodes) {
    /** Upstream {@code pluginapi.Healthy}. */
    public static final String HEALTHY = "Healthy";
    /** Upstream {@code pluginapi.Unhealthy}. */
    public static final String UNHEALTHY = "Unhealthy";

    public Device {
        numaNodes = numaNodes == null ? null : List.copyOf(numaNodes);
    }

    public Device(String id, String health) {
        this(id, health, null);
    }

    public boolean healthy() {
        return HEALTHY.equals(health);
    }

    /** Whether the plugin said which NUMA nodes the device is on (upstream: a topology with at least one node). */
    boolean hasTopology() {
        return numaNodes != null && !numaNodes.isEmpty();
    }
}
