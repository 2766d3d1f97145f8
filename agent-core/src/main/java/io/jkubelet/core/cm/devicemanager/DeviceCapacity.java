package io.jkubelet.core.cm.devicemanager;

import java.util.List;
import java.util.Map;

/**
 * The device plugins' resources for the node's status (upstream {@code GetCapacity}'s three answers).
 *
 * @param capacity every device of each registered resource
 * @param allocatable the healthy ones
 * @param deleted resources whose plugin has been gone past the grace period: the node reports them as 0 (not
 *     absent, which would make them look like cluster-level resources), and they are forgotten from now on
 */
public record DeviceCapacity(Map<String, Long> capacity, Map<String, Long> allocatable, List<String> deleted) {
    public static final DeviceCapacity NONE = new DeviceCapacity(Map.of(), Map.of(), List.of());
}
