package io.jkubelet.core.cm.devicemanager;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.cm.topologymanager.TopologyHint;
import io.jkubelet.core.podutil.PodResources;
import io.jkubelet.core.podutil.PodSpecs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The device manager's topology hints (upstream {@code topology_hints.go}, v1.30): for each device resource a
 * container (or pod) asks for, every combination of NUMA nodes whose free devices (with the pod's reusable ones, all
 * of which it must reach) can give as many as asked; those with as few nodes as the smallest combination holding that
 * many of the resource's devices are preferred. A resource whose plugin reports no NUMA node for any device has no
 * preference; a request that cannot be met, or that differs from what the container already holds, has no placement.
 * Runs on the manager's state under its lock.
 */
final class DeviceTopologyHints {
    private static final Logger log = LoggerFactory.getLogger(DeviceTopologyHints.class);

    private final DeviceManager m;
    private final List<Integer> numaNodes;

    DeviceTopologyHints(DeviceManager manager, List<Integer> numaNodes) {
        this.m = manager;
        this.numaNodes = List.copyOf(numaNodes);
    }

    /** Upstream {@code GetTopologyHints}. */
    Map<String, List<TopologyHint>> containerHints(Pod pod, Container container, Map<String, Set<String>> reusable) {
        m.updateAllocatedDevices();
        Map<String, Integer> requests = new TreeMap<>();
        limits(container).forEach((r, q) -> requests.put(r, (int) PodResources.amount(r, q)));
        String uid = pod.getMetadata().getUid();
        return hints(requests, resource -> m.podDevices.containerDevices(uid, container.getName(), resource), reusable);
    }

    /** Upstream {@code GetPodTopologyHints}: the pod's device limits as the scheduler counts them. */
    Map<String, List<TopologyHint>> podHints(Pod pod) {
        m.updateAllocatedDevices();
        Map<String, Integer> requests = new TreeMap<>();
        PodResources.limits(pod, c -> { }).forEach((r, amount) -> requests.put(r, amount.intValue()));
        String uid = pod.getMetadata().getUid();
        return hints(requests, resource -> podDevices(pod, uid, resource), Map.of());
    }

    private Map<String, List<TopologyHint>> hints(Map<String, Integer> requests,
                                                  java.util.function.Function<String, Set<String>> held,
                                                  Map<String, Set<String>> reusableByResource) {
        Map<String, List<TopologyHint>> out = new HashMap<>();
        m.lock.lock();
        try {
            for (var e : requests.entrySet()) {
                String resource = e.getKey();
                int requested = e.getValue();
                if (!m.isDevicePluginResourceLocked(resource)) {
                    continue;
                }
                if (!hasTopologyAlignment(m.allDevices.getOrDefault(resource, Map.of()))) {
                    log.info("Resource does not have a topology preference: resource={}", resource);
                    out.put(resource, null);
                    continue;
                }
                Set<String> allocated = held.apply(resource);
                if (allocated != null && !allocated.isEmpty()) {
                    if (allocated.size() != requested) {
                        log.error("Resource {} already allocated with different number than request: request={} "
                                + "allocated={}", resource, requested, allocated.size());
                        out.put(resource, List.of());
                    } else {
                        out.put(resource, generate(resource, allocated, Set.of(), requested));
                    }
                    continue;
                }
                Set<String> available = availableDevices(resource);
                Set<String> reusable = reusableByResource.getOrDefault(resource, Set.of());
                Set<String> all = new HashSet<>(available);
                all.addAll(reusable);
                if (all.size() < requested) {
                    log.error("Unable to generate topology hints: requested number of devices unavailable: resource={} "
                            + "request={} available={}", resource, requested, all.size());
                    out.put(resource, List.of());
                    continue;
                }
                out.put(resource, generate(resource, available, reusable, requested));
            }
        } finally {
            m.lock.unlock();
        }
        return out;
    }

    /** Upstream {@code deviceHasTopologyAlignment}: any of a resource's devices reports a NUMA node. */
    static boolean hasTopologyAlignment(Map<String, Device> devices) {
        return devices.values().stream().anyMatch(Device::hasTopology);
    }

    /** Caller holds the lock: the healthy devices no container holds. */
    private Set<String> availableDevices(String resource) {
        Set<String> out = new HashSet<>(m.healthyDevices.getOrDefault(resource, Set.of()));
        out.removeAll(m.allocatedDevices.getOrDefault(resource, Set.of()));
        return out;
    }

    /** Upstream's {@code podDevices(uid, resource)}: what all of the pod's containers hold of the resource. */
    private Set<String> podDevices(Pod pod, String uid, String resource) {
        Set<String> out = new HashSet<>();
        for (Container c : PodSpecs.allContainers(pod)) {
            Set<String> d = m.podDevices.containerDevices(uid, c.getName(), resource);
            if (d != null) {
                out.addAll(d);
            }
        }
        return out;
    }

    /** Caller holds the lock. Upstream {@code generateDeviceTopologyHints}. */
    private List<TopologyHint> generate(String resource, Set<String> available, Set<String> reusable, int request) {
        Map<String, Device> devices = m.allDevices.getOrDefault(resource, Map.of());
        return TopologyHint.narrowestPreferred(numaNodes, request,
                mask -> (int) devices.values().stream().filter(d -> d.hasTopology() && mask.anySet(d.numaNodes())).count(),
                mask -> {
                    int matching = 0;
                    for (String id : reusable) {
                        Device d = devices.get(id);
                        if (d == null || d.numaNodes() == null) {
                            continue;
                        }
                        if (!mask.anySet(d.numaNodes())) {
                            return -1;
                        }
                        matching++;
                    }
                    for (String id : available) {
                        Device d = devices.get(id);
                        if (d != null && d.hasTopology() && mask.anySet(d.numaNodes())) {
                            matching++;
                        }
                    }
                    return matching;
                });
    }

    private static Map<String, Quantity> limits(Container c) {
        if (c.getResources() == null || c.getResources().getLimits() == null) {
            return Map.of();
        }
        return c.getResources().getLimits();
    }
}
