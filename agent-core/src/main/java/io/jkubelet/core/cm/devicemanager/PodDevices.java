package io.jkubelet.core.cm.devicemanager;

import io.jkubelet.core.kuberuntime.RunContainerOptions;
import io.jkubelet.core.runtime.KeyValue;
import io.jkubelet.core.runtime.Mount;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which devices each container of each pod holds, by resource, with the plugin's {@code Allocate} answer for them
 * (upstream {@code podDevices}). Thread-safe: every method holds the object's lock.
 */
final class PodDevices {
    private static final Logger log = LoggerFactory.getLogger(PodDevices.class);
    /** Upstream {@code nodeWithoutTopology}: the NUMA node of devices whose plugin gave none. */
    static final long NODE_WITHOUT_TOPOLOGY = -1;

    /**
     * @param deviceIds the devices by NUMA node
     * @param allocResp the plugin's answer for them; null when it was lost (a checkpoint entry that did not decode)
     */
    record Allocation(Map<Long, List<String>> deviceIds, ContainerAllocateResponse allocResp) {
        Set<String> devices() {
            Set<String> out = new LinkedHashSet<>();
            deviceIds.values().forEach(out::addAll);
            return out;
        }
    }

    /** pod UID → container name → resource → allocation. */
    private final Map<String, Map<String, Map<String, Allocation>>> devs = new HashMap<>();

    synchronized Set<String> pods() {
        return new HashSet<>(devs.keySet());
    }

    synchronized boolean hasPod(String podUid) {
        return devs.containsKey(podUid);
    }

    synchronized void insert(String podUid, String container, String resource, Map<Long, List<String>> deviceIds,
                             ContainerAllocateResponse resp) {
        devs.computeIfAbsent(podUid, k -> new HashMap<>()).computeIfAbsent(container, k -> new HashMap<>())
                .put(resource, new Allocation(deviceIds, resp));
    }

    synchronized void delete(Set<String> podUids) {
        podUids.forEach(devs::remove);
    }

    /** The devices the container holds of the resource; null when it holds none (upstream: no cached state). */
    synchronized Set<String> containerDevices(String podUid, String container, String resource) {
        Allocation a = devs.getOrDefault(podUid, Map.of()).getOrDefault(container, Map.of()).get(resource);
        return a == null ? null : a.devices();
    }

    /** Adds the container's devices to {@code reusable} (an init container's, for the containers after it). */
    synchronized void addContainerAllocatedResources(String podUid, String container, Map<String, Set<String>> reusable) {
        devs.getOrDefault(podUid, Map.of()).getOrDefault(container, Map.of())
                .forEach((resource, a) -> reusable.computeIfAbsent(resource, k -> new HashSet<>()).addAll(a.devices()));
    }

    /** Takes the container's devices out of {@code reusable}: an app container keeps what it was given. */
    synchronized void removeContainerAllocatedResources(String podUid, String container, Map<String, Set<String>> reusable) {
        devs.getOrDefault(podUid, Map.of()).getOrDefault(container, Map.of())
                .forEach((resource, a) -> reusable.computeIfAbsent(resource, k -> new HashSet<>()).removeAll(a.devices()));
    }

    /** Every device a tracked container holds, by resource (upstream counts only those with an answer). */
    synchronized Map<String, Set<String>> devices() {
        Map<String, Set<String>> out = new HashMap<>();
        for (var containers : devs.values()) {
            for (var resources : containers.values()) {
                resources.forEach((resource, a) -> {
                    Set<String> set = out.computeIfAbsent(resource, k -> new HashSet<>());
                    if (a.allocResp() != null) {
                        set.addAll(a.devices());
                    }
                });
            }
        }
        return out;
    }

    /** The checkpoint's entries; null (Go's nil) when there are none, as upstream writes them. */
    synchronized List<DeviceCheckpoint.Entry> toCheckpointData() {
        List<DeviceCheckpoint.Entry> out = null;
        for (var pod : new TreeMap<>(devs).entrySet()) {
            for (var container : new TreeMap<>(pod.getValue()).entrySet()) {
                for (var resource : new TreeMap<>(container.getValue()).entrySet()) {
                    Allocation a = resource.getValue();
                    if (a.allocResp() == null) {
                        log.error("Can't marshal allocResp, allocation response is missing: podUID={} containerName={} resourceName={}",
                                pod.getKey(), container.getKey(), resource.getKey());
                        continue;
                    }
                    if (out == null) {
                        out = new ArrayList<>();
                    }
                    out.add(new DeviceCheckpoint.Entry(pod.getKey(), container.getKey(), resource.getKey(),
                            a.deviceIds(), AllocateResponseCodec.encode(a.allocResp())));
                }
            }
        }
        return out;
    }

    /** Fills in the checkpoint's entries; an entry whose answer does not decode is left out with an error. */
    synchronized void fromCheckpointData(List<DeviceCheckpoint.Entry> entries) {
        if (entries == null) {
            return;
        }
        for (DeviceCheckpoint.Entry e : entries) {
            ContainerAllocateResponse resp;
            try {
                resp = e.allocResp() == null ? ContainerAllocateResponse.EMPTY : AllocateResponseCodec.decode(e.allocResp());
            } catch (IllegalArgumentException ex) {
                log.error("Can't unmarshal allocResp: podUID={} containerName={} resourceName={}: {}", e.podUid(),
                        e.containerName(), e.resourceName(), ex.getMessage());
                continue;
            }
            Map<Long, List<String>> ids = new TreeMap<>();
            if (e.deviceIds() != null) {
                e.deviceIds().forEach((node, list) -> ids.put(node, list == null ? List.of() : List.copyOf(list)));
            }
            devs.computeIfAbsent(e.podUid(), k -> new HashMap<>()).computeIfAbsent(e.containerName(), k -> new HashMap<>())
                    .put(e.resourceName(), new Allocation(ids, resp));
        }
    }

    /**
     * What the container needs to use its devices, all resources together (upstream {@code deviceRunContainerOptions}),
     * as the container manager hands it to the container's config:
     * the first setting of an environment variable, device path, mount path, annotation or CDI device wins and a
     * conflicting later one is logged; null when the container holds no devices.
     */
    synchronized RunContainerOptions deviceRunContainerOptions(String podUid, String container) {
        Map<String, Allocation> resources = devs.getOrDefault(podUid, Map.of()).get(container);
        if (resources == null) {
            return null;
        }
        Map<String, String> envs = new LinkedHashMap<>();
        Map<String, ContainerAllocateResponse.DeviceSpec> devices = new LinkedHashMap<>();
        Map<String, ContainerAllocateResponse.Mount> mounts = new LinkedHashMap<>();
        Map<String, String> annotations = new LinkedHashMap<>();
        Set<String> cdi = new LinkedHashSet<>();
        for (var r : new TreeMap<>(resources).entrySet()) {
            ContainerAllocateResponse resp = r.getValue().allocResp();
            if (resp == null) {
                continue;
            }
            resp.envs().forEach((k, v) -> first(envs, k, v, v, "Environment variable has conflicting setting"));
            resp.devices().forEach(d -> first(devices, d.containerPath(), d, d.hostPath(),
                    "Container device has conflicting mapping host devices"));
            resp.mounts().forEach(m -> first(mounts, m.containerPath(), m, m.hostPath(),
                    "Container mount has conflicting mapping host mounts"));
            resp.annotations().forEach((k, v) -> first(annotations, k, v, v, "Annotation has conflicting setting"));
            cdi.addAll(resp.cdiDevices());
        }
        List<KeyValue> envList = new ArrayList<>();
        envs.forEach((k, v) -> envList.add(new KeyValue(k, v)));
        return new RunContainerOptions(envList,
                mounts.values().stream().map(m -> new Mount(m.containerPath(), m.hostPath(), m.readOnly())).toList(),
                devices.values().stream().map(d -> new io.jkubelet.core.runtime.Device(d.containerPath(), d.hostPath(), d.permissions())).toList(),
                annotations, List.copyOf(cdi));
    }

    /**
     * Keeps the first value of {@code key}; a later one that points elsewhere ({@code target}: the value, or the host
     * path) is logged as upstream logs it.
     */
    private static <V> void first(Map<String, V> seen, String key, V value, String target, String conflict) {
        V had = seen.putIfAbsent(key, value);
        if (had != null && !had.equals(value) && !target(had).equals(target)) {
            log.error("{}: key={} kept={} skipped={}", conflict, key, had, value);
        }
    }

    private static String target(Object value) {
        return switch (value) {
            case ContainerAllocateResponse.Mount m -> m.hostPath();
            case ContainerAllocateResponse.DeviceSpec d -> d.hostPath();
            default -> value.toString();
        };
    }

    /**
     * The devices the container holds, by resource, with the NUMA nodes they were given on (upstream
     * {@code getContainerDevices}); null when the container holds none.
     */
    synchronized Map<String, Map<String, Device>> containerDevices(String podUid, String container) {
        Map<String, Allocation> resources = devs.getOrDefault(podUid, Map.of()).get(container);
        if (resources == null) {
            return null;
        }
        Map<String, Map<String, Device>> out = new TreeMap<>();
        resources.forEach((resource, a) -> {
            if (a.deviceIds().isEmpty()) {
                return;
            }
            // A device given on several NUMA nodes lists them all; one given without topology has none.
            Map<String, List<Long>> nodes = new TreeMap<>();
            a.deviceIds().forEach((node, ids) -> ids.forEach(id -> {
                List<Long> n = nodes.computeIfAbsent(id, k -> new ArrayList<>());
                if (node != NODE_WITHOUT_TOPOLOGY) {
                    n.add(node);
                }
            }));
            Map<String, Device> byId = new TreeMap<>();
            nodes.forEach((id, n) -> byId.put(id, new Device(id, "", n.isEmpty() ? null : n)));
            out.put(resource, byId);
        });
        return out;
    }
}
