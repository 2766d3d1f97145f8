package io.jkubelet.core.cm.devicemanager;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.kuberuntime.RunContainerOptions;
import io.jkubelet.core.podutil.PodSpecs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The device manager's allocation (upstream {@code Allocate}, {@code allocateContainerResources},
 * {@code devicesToAllocate}, {@code GetDeviceRunContainerOptions}): picks the devices a container asks for in its
 * limits, asks the resource's plugin to {@code Allocate} them, and keeps its answer with them; before each start of the
 * container, {@code PreStartContainer} when the plugin asked for it. Runs on the manager's state and lock; no plugin is
 * called with the lock held.
 */
final class DeviceAllocator {
    private static final Logger log = LoggerFactory.getLogger(DeviceAllocator.class);

    private final DeviceManager m;
    /**
     * The devices an init container of the pod being admitted held, which the containers after it may take (upstream
     * {@code devicesToReuse}); only the pod being admitted is kept.
     */
    private final Map<String, Map<String, Set<String>>> devicesToReuse = new HashMap<>();

    DeviceAllocator(DeviceManager manager) {
        this.m = manager;
    }

    /** Upstream's {@code devicesToReuse} of the pod being admitted, for its hints; empty for another pod. */
    synchronized Map<String, Set<String>> devicesToReuse(String podUid) {
        Map<String, Set<String>> out = new HashMap<>();
        devicesToReuse.getOrDefault(podUid, Map.of()).forEach((r, ids) -> out.put(r, Set.copyOf(ids)));
        return out;
    }

    /**
     * Upstream {@code Allocate}: the caller goes through the pod's init containers before its app containers. An init
     * container's devices may be given again to the containers after it (unless it is a sidecar, which keeps them); an
     * app container keeps its own.
     */
    synchronized void allocate(Pod pod, Container container) throws AllocationException {
        String uid = pod.getMetadata().getUid();
        devicesToReuse.keySet().removeIf(k -> !k.equals(uid));
        Map<String, Set<String>> reusable = devicesToReuse.computeIfAbsent(uid, k -> new HashMap<>());
        for (Container init : PodSpecs.initContainers(pod)) {
            if (init.getName().equals(container.getName())) {
                allocateContainerResources(pod, container, reusable);
                if (!PodSpecs.isRestartableInitContainer(init)) {
                    m.podDevices.addContainerAllocatedResources(uid, container.getName(), reusable);
                } else {
                    m.podDevices.removeContainerAllocatedResources(uid, container.getName(), reusable);
                }
                return;
            }
        }
        allocateContainerResources(pod, container, reusable);
        m.podDevices.removeContainerAllocatedResources(uid, container.getName(), reusable);
    }

    /** Upstream {@code allocateContainerResources}: extended resources cannot be overcommitted, so the limits say it all. */
    private void allocateContainerResources(Pod pod, Container container, Map<String, Set<String>> reusable)
            throws AllocationException {
        String uid = pod.getMetadata().getUid();
        boolean allocatedDevicesUpdated = false;
        boolean needsUpdateCheckpoint = false;
        for (var limit : limits(container).entrySet()) {
            String resource = limit.getKey();
            int needed = limit.getValue().getNumericalAmount().setScale(0, java.math.RoundingMode.CEILING).intValue();
            if (!m.isDevicePluginResource(resource)) {
                continue;
            }
            if (!allocatedDevicesUpdated) {
                // Frees what terminated pods still hold before counting what is free.
                m.updateAllocatedDevices();
                allocatedDevicesUpdated = true;
            }
            Set<String> devices = devicesToAllocate(uid, container.getName(), resource, needed,
                    reusable.getOrDefault(resource, Set.of()));
            if (devices == null || devices.isEmpty()) {
                continue;
            }
            needsUpdateCheckpoint = true;
            // Upstream's kubelet_device_plugin_alloc_duration_seconds: from before the plugin is looked up to its
            // answer, an error too; a resource without a plugin is not observed.
            Instant start = m.clock.instant();
            Endpoint endpoint = endpoint(resource);
            if (endpoint == null) {
                resetAllocated();
                throw new AllocationException("unknown Device Plugin " + resource);
            }
            List<ContainerAllocateResponse> responses;
            try {
                responses = endpoint.allocate(new ArrayList<>(devices));
            } catch (DevicePluginException e) {
                // What the manager took for this container goes back to what the containers really hold.
                resetAllocated();
                throw new AllocationException(e.getMessage());
            } finally {
                m.metrics.allocationTook(resource, Duration.between(start, m.clock.instant()));
            }
            if (responses.isEmpty()) {
                throw new AllocationException("no containers return in allocation response " + responses);
            }
            m.podDevices.insert(uid, container.getName(), resource, byNumaNode(resource, devices), responses.getFirst());
        }
        if (needsUpdateCheckpoint) {
            try {
                m.checkpoint().write();
            } catch (IOException e) {
                throw new AllocationException(e.getMessage());
            }
        }
    }

    private Endpoint endpoint(String resource) {
        m.lock.lock();
        try {
            return m.endpoints.get(resource);
        } finally {
            m.lock.unlock();
        }
    }

    private void resetAllocated() {
        m.lock.lock();
        try {
            m.allocatedDevices = m.podDevices.devices();
        } finally {
            m.lock.unlock();
        }
    }

    /** The devices by the NUMA nodes their plugin reported (-1: none), as the checkpoint keeps them. */
    private Map<Long, List<String>> byNumaNode(String resource, Set<String> devices) {
        Map<Long, List<String>> out = new TreeMap<>();
        m.lock.lock();
        try {
            Map<String, Device> known = m.allDevices.getOrDefault(resource, Map.of());
            for (String id : devices) {
                Device d = known.get(id);
                if (d == null || !d.hasTopology()) {
                    out.computeIfAbsent(PodDevices.NODE_WITHOUT_TOPOLOGY, k -> new ArrayList<>()).add(id);
                } else {
                    d.numaNodes().forEach(node -> out.computeIfAbsent(node, k -> new ArrayList<>()).add(id));
                }
            }
        } finally {
            m.lock.unlock();
        }
        return out;
    }

    /**
     * Upstream {@code devicesToAllocate}: the devices to ask the plugin for; null when the container already holds what
     * it needs (a restart) or it was running before the kubelet restarted.
     */
    private Set<String> devicesToAllocate(String uid, String container, String resource, int required,
                                          Set<String> reusable) throws AllocationException {
        m.lock.lock();
        try {
            int needed = required;
            Set<String> held = m.podDevices.containerDevices(uid, container, resource);
            if (held != null) {
                needed -= held.size();
                // A pod's request does not change once admitted.
                if (needed != 0) {
                    throw new AllocationException("pod \"" + uid + "\" container \"" + container
                            + "\" changed request for resource \"" + resource + "\" from " + held.size() + " to " + required);
                }
            }
            // After a kubelet restart (sources not all ready) a container the runtime ran already has its devices.
            if (!m.sourcesReady.getAsBoolean() && m.runningAtStart.test(uid, container)) {
                log.debug("Container detected running, nothing to do: resourceName={} podUID={} containerName={}",
                        resource, uid, container);
                return null;
            }
            Set<String> healthy = m.healthyDevices.get(resource);
            if (healthy == null) {
                throw new AllocationException("cannot allocate unregistered device " + resource);
            }
            if (healthy.isEmpty()) {
                throw new AllocationException("no healthy devices present; cannot allocate unhealthy devices " + resource);
            }
            if (held != null && !healthy.containsAll(held)) {
                throw new AllocationException(
                        "previously allocated devices are no longer healthy; cannot allocate unhealthy devices " + resource);
            }
            if (needed == 0) {
                return null;
            }
            return pick(uid, container, resource, required, needed, reusable);
        } finally {
            m.lock.unlock();
        }
    }

    /**
     * Caller holds the lock. Upstream's order: the reusable devices first; then, when the devices on the container's
     * admitted NUMA nodes are more than needed, the plugin's preferred ones among them, then any of them; otherwise all
     * of them, then the plugin's preferred ones among the free devices, then those on other nodes, then those on none.
     * Without an affinity every free device counts as having none.
     */
    private Set<String> pick(String uid, String container, String resource, int required, int needed,
                             Set<String> reusable) throws AllocationException {
        Set<String> allocated = new LinkedHashSet<>();
        int[] left = {needed};
        if (takeFrom(resource, reusable, allocated, left)) {
            return allocated;
        }
        Set<String> available = new LinkedHashSet<>(new java.util.TreeSet<>(m.healthyDevices.get(resource)));
        available.removeAll(m.allocatedDevices.getOrDefault(resource, Set.of()));
        if (available.size() < left[0]) {
            throw new AllocationException("requested number of devices unavailable for " + resource + ". Requested: "
                    + left[0] + ", Available: " + available.size());
        }
        Map<String, Device> devices = m.allDevices.getOrDefault(resource, Map.of());
        AlignedDevices split = AlignedDevices.filter(available, devices,
                m.affinity.getAffinity(uid, container).numaNodeAffinity(),
                DeviceTopologyHints.hasTopologyAlignment(devices));
        if (left[0] < split.aligned().size()) {
            Set<String> preferred = preferredFrom(uid, container, resource, split.aligned(), allocated, required);
            if (takeFrom(resource, preferred, allocated, left) || takeFrom(resource, split.aligned(), allocated, left)) {
                return allocated;
            }
            throw lessThanRequired(required, left[0]);
        }
        if (takeFrom(resource, split.aligned(), allocated, left)) {
            return allocated;
        }
        Set<String> preferred = preferredFrom(uid, container, resource, available, allocated, required);
        if (takeFrom(resource, preferred, allocated, left) || takeFrom(resource, split.unaligned(), allocated, left)
                || takeFrom(resource, split.noAffinity(), allocated, left)) {
            return allocated;
        }
        throw lessThanRequired(required, left[0]);
    }

    /** The plugin's preferred devices among {@code from} (with those already taken), kept to {@code from}. */
    private Set<String> preferredFrom(String uid, String container, String resource, Set<String> from,
                                      Set<String> allocated, int required) throws AllocationException {
        Set<String> candidates = new LinkedHashSet<>(from);
        candidates.addAll(allocated);
        Set<String> preferred = preferredAllocation(uid, container, resource, candidates, allocated, required);
        preferred.retainAll(from);
        return preferred;
    }

    private static AllocationException lessThanRequired(int required, int left) {
        return new AllocationException("unexpectedly allocated less resources than required. Requested: " + required
                + ", Got: " + (required - left));
    }

    /** Takes devices from {@code from} until none is needed; true once none is. Caller holds the lock. */
    private boolean takeFrom(String resource, Set<String> from, Set<String> allocated, int[] left) {
        Set<String> taken = m.allocatedDevices.computeIfAbsent(resource, k -> new HashSet<>());
        for (String d : from) {
            if (left[0] == 0) {
                break;
            }
            if (allocated.add(d)) {
                taken.add(d);
                left[0]--;
            }
        }
        return left[0] == 0;
    }

    /**
     * Upstream {@code callGetPreferredAllocationIfAvailable}, called with the lock held; the lock is let go for the call.
     */
    private Set<String> preferredAllocation(String uid, String container, String resource, Set<String> available,
                                            Set<String> mustInclude, int size) throws AllocationException {
        Endpoint e = m.endpoints.get(resource);
        if (e == null) {
            throw new AllocationException("endpoint not found in cache for a registered resource: " + resource);
        }
        if (e.options() == null || !e.options().getPreferredAllocationAvailable()) {
            return new LinkedHashSet<>();
        }
        log.debug("Issuing a GetPreferredAllocation call for container {} of pod {}", container, uid);
        List<List<String>> answer;
        m.lock.unlock();
        try {
            answer = e.getPreferredAllocation(new ArrayList<>(available), new ArrayList<>(mustInclude), size);
        } catch (DevicePluginException ex) {
            throw new AllocationException("device plugin GetPreferredAllocation rpc failed with err: " + ex.getMessage());
        } finally {
            m.lock.lock();
        }
        return answer.isEmpty() ? new LinkedHashSet<>() : new LinkedHashSet<>(answer.getFirst());
    }

    /**
     * Upstream {@code GetDeviceRunContainerOptions}: {@code PreStartContainer} for each resource whose plugin asked for
     * it, a fresh allocation for a device resource the container holds nothing of (a race at node restart), then what
     * the container needs.
     */
    RunContainerOptions deviceRunContainerOptions(Pod pod, Container container) throws AllocationException {
        String uid = pod.getMetadata().getUid();
        boolean reallocate = false;
        for (var limit : limits(container).entrySet()) {
            String resource = limit.getKey();
            if (!m.isDevicePluginResource(resource) || limit.getValue().getNumericalAmount().signum() == 0) {
                continue;
            }
            preStartContainerIfNeeded(uid, container.getName(), resource);
            if (m.activePods.get().stream().noneMatch(p -> uid.equals(p.getMetadata().getUid()))) {
                continue;
            }
            if (m.podDevices.containerDevices(uid, container.getName(), resource) == null) {
                reallocate = true;
            }
        }
        if (reallocate) {
            log.info("Needs to re-allocate device plugin resources for pod {}, container {}", PodSpecs.format(pod),
                    container.getName());
            allocate(pod, container);
        }
        RunContainerOptions opts = m.podDevices.deviceRunContainerOptions(uid, container.getName());
        return opts == null ? RunContainerOptions.NONE : opts;
    }

    private void preStartContainerIfNeeded(String uid, String container, String resource) throws AllocationException {
        Endpoint e = endpoint(resource);
        if (e == null) {
            throw new AllocationException("endpoint not found in cache for a registered resource: " + resource);
        }
        if (e.options() == null || !e.options().preStartRequired()) {
            return;
        }
        Set<String> devices = m.podDevices.containerDevices(uid, container, resource);
        if (devices == null) {
            throw new AllocationException("no devices found allocated in local cache for pod " + uid + ", container "
                    + container + ", resource " + resource);
        }
        try {
            e.preStartContainer(new ArrayList<>(devices));
        } catch (DevicePluginException ex) {
            throw new AllocationException("device plugin PreStartContainer rpc failed with err: " + ex.getMessage());
        }
    }

    private static Map<String, Quantity> limits(Container c) {
        if (c.getResources() == null || c.getResources().getLimits() == null) {
            return Map.of();
        }
        return new TreeMap<>(c.getResources().getLimits());
    }
}
