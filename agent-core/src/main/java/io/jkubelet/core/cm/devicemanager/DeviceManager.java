package io.jkubelet.core.cm.devicemanager;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.checkpointmanager.CheckpointException;
import io.jkubelet.core.checkpointmanager.CheckpointManager;
import io.jkubelet.core.cm.topologymanager.HintProvider;
import io.jkubelet.core.cm.topologymanager.TopologyAffinityStore;
import io.jkubelet.core.cm.topologymanager.TopologyHint;
import io.jkubelet.core.kuberuntime.RunContainerOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiPredicate;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The device manager (upstream {@code devicemanager.ManagerImpl}): the registered plugins ({@link Endpoint}s), their
 * devices and health, which devices each container holds ({@link PodDevices}) and the checkpoint that keeps them over a
 * restart. Allocation is its {@link DeviceAllocator}'s. Thread-safe: one lock guards the state, and no plugin is called
 * while it is held.
 */
public final class DeviceManager implements PluginHandler, HintProvider {
    private static final Logger log = LoggerFactory.getLogger(DeviceManager.class);

    private final DevicePluginServer server;
    /** In the registration socket's directory; none without a server. */
    private final CheckpointManager checkpoints;
    /** What the checkpoint {@code kubelet_internal_checkpoint} holds of this manager: written and read there. */
    private final DeviceManagerCheckpoint checkpoint;
    final Clock clock;

    final ReentrantLock lock = new ReentrantLock();
    final Map<String, Endpoint> endpoints = new HashMap<>();
    /** Every device each plugin reported last, by resource and ID (upstream {@code allDevices}). */
    final Map<String, Map<String, Device>> allDevices = new HashMap<>();
    final Map<String, Set<String>> healthyDevices = new HashMap<>();
    final Map<String, Set<String>> unhealthyDevices = new HashMap<>();
    /** Devices given to containers, by resource; rebuilt from {@link #podDevices} whenever that is the truth. */
    Map<String, Set<String>> allocatedDevices = new HashMap<>();
    final PodDevices podDevices = new PodDevices();

    volatile Supplier<List<Pod>> activePods = List::of;
    volatile BooleanSupplier sourcesReady = () -> true;
    /** Whether a pod's container was running when the kubelet started (upstream's container map and running set). */
    volatile BiPredicate<String, String> runningAtStart = (uid, name) -> false;

    /** The kubelet's metrics of registrations and {@code Allocate} calls. */
    volatile DevicePluginMetrics metrics = DevicePluginMetrics.NONE;

    private final DeviceAllocator allocator = new DeviceAllocator(this);
    /** The topology manager: the NUMA nodes each container was admitted with, its devices taken from them first. */
    final TopologyAffinityStore affinity;
    private final DeviceTopologyHints hints;

    /** A device manager on a machine of one NUMA node, without alignment (the {@code none} topology policy). */
    public DeviceManager(DevicePluginServer server, Clock clock) {
        this(server, clock, List.of(0), TopologyAffinityStore.NONE);
    }

    /**
     * Upstream {@code NewManagerImpl}.
     *
     * @param numaNodes the machine's NUMA node IDs, which the hints range over
     * @param affinity the topology manager's admitted affinities
     */
    public DeviceManager(DevicePluginServer server, Clock clock, List<Integer> numaNodes, TopologyAffinityStore affinity) {
        this.server = server;
        this.clock = clock;
        this.affinity = affinity;
        this.hints = new DeviceTopologyHints(this, numaNodes);
        Path socket = server.socketPath();
        this.checkpoints = socket == null ? null : new CheckpointManager(socket.getParent());
        this.checkpoint = new DeviceManagerCheckpoint(this, checkpoints);
    }

    /**
     * Upstream {@code Start}: reads the checkpoint (a checkpoint that cannot be read is logged and the manager starts
     * empty), then starts the registration server, which cleans the socket directory first so that plugins of the last
     * run see their socket go and register again.
     *
     * @param activePods the pods that may still hold devices; the others' devices are freed
     * @param sourcesReady whether every pod source has reported, so that a pod missing from {@code activePods} is gone
     * @param runningAtStart whether the runtime ran a pod's container (UID, name) when the kubelet started
     * @throws IOException when the registration server cannot start
     */
    public void start(Supplier<List<Pod>> activePods, BooleanSupplier sourcesReady,
                      BiPredicate<String, String> runningAtStart) throws IOException {
        log.debug("Starting Device Plugin manager");
        this.activePods = activePods;
        this.sourcesReady = sourcesReady;
        this.runningAtStart = runningAtStart;
        checkpoint.open();
        try {
            checkpoint.read();
        } catch (CheckpointException | IOException e) {
            log.error("Continue after failing to read checkpoint file. Device allocation info may NOT be up-to-date: {}",
                    e.getMessage());
        }
        server.start(this);
    }

    /**
     * Upstream {@code Stop}: the registration server stops and every plugin is disconnected; then the checkpoint is
     * closed, so that nothing in the socket directory changes after this returns.
     */
    public void stop() {
        server.stop();
        checkpoint.close();
    }

    /** Counts each registration request and times each plugin's {@code Allocate} from now on (the kubelet's metrics). */
    public void observePlugins(DevicePluginMetrics metrics) {
        this.metrics = metrics;
    }

    /** The plugin watcher's handler of device plugins. */
    public io.jkubelet.core.pluginmanager.PluginWatcherHandler watcherHandler() {
        return server.watcherHandler();
    }

    // ---- the server's handler ----

    /** Upstream {@code CleanupPluginDirectory}: removes the sockets in {@code dir}, but never the checkpoint. */
    @Override
    public void cleanupPluginDirectory(Path dir) throws IOException {
        PluginSockets.removeAll(dir);
    }

    @Override
    public void registrationRequested(String resourceName) {
        metrics.registrationRequested(resourceName);
    }

    @Override
    public void pluginConnected(String resourceName, DevicePlugin plugin) throws DevicePluginException {
        DevicePluginOptions options;
        try {
            options = plugin.getDevicePluginOptions();
        } catch (DevicePluginException e) {
            throw new DevicePluginException("failed to get device plugin options: " + e.getMessage(), e);
        }
        lock.lock();
        try {
            endpoints.put(resourceName, new Endpoint(plugin, options));
        } finally {
            lock.unlock();
        }
        log.info("Device plugin connected: resourceName={}", resourceName);
    }

    /**
     * Upstream {@code PluginDisconnected}, for the plugin that went only: a plugin that registered again before its
     * old stream ended keeps its resource healthy.
     */
    @Override
    public void pluginDisconnected(String resourceName, DevicePlugin plugin) {
        lock.lock();
        try {
            Endpoint e = endpoints.get(resourceName);
            if (e != null && (e.plugin() == null || e.plugin() == plugin)) {
                markResourceUnhealthy(resourceName);
                log.info("Endpoint became unhealthy: resourceName={} endpoint={}", resourceName, e);
                e.setStopTime(clock.instant());
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void pluginListAndWatchReceiver(String resourceName, List<Device> devices) {
        int healthy = 0;
        lock.lock();
        try {
            Set<String> h = new HashSet<>();
            Set<String> u = new HashSet<>();
            Map<String, Device> all = new HashMap<>();
            for (Device d : devices) {
                all.put(d.id(), d);
                if (d.healthy()) {
                    h.add(d.id());
                    healthy++;
                } else {
                    u.add(d.id());
                }
            }
            healthyDevices.put(resourceName, h);
            unhealthyDevices.put(resourceName, u);
            allDevices.put(resourceName, all);
        } finally {
            lock.unlock();
        }
        checkpoint.writeLogged();
        log.info("Processed device updates for resource: resourceName={} totalCount={} healthyCount={}", resourceName,
                devices.size(), healthy);
    }

    /** Caller holds the lock. */
    private void markResourceUnhealthy(String resourceName) {
        log.info("Mark all resources Unhealthy for resource {}", resourceName);
        Set<String> healthy = healthyDevices.put(resourceName, new HashSet<>());
        Set<String> unhealthy = unhealthyDevices.computeIfAbsent(resourceName, k -> new HashSet<>());
        if (healthy != null) {
            unhealthy.addAll(healthy);
        }
    }

    // ---- the node's status ----

    /**
     * Upstream {@code GetCapacity}, called with each node status: every registered resource's devices and its healthy
     * ones; a resource whose plugin has been gone longer than the grace period is forgotten, reported once as deleted.
     */
    public DeviceCapacity getCapacity() {
        Map<String, Long> capacity = new TreeMap<>();
        Map<String, Long> allocatable = new TreeMap<>();
        Set<String> deleted = new HashSet<>();
        lock.lock();
        try {
            var now = clock.instant();
            for (var healthy : new HashMap<>(healthyDevices).entrySet()) {
                if (gone(healthy.getKey(), now)) {
                    healthyDevices.remove(healthy.getKey());
                    deleted.add(healthy.getKey());
                } else {
                    capacity.put(healthy.getKey(), (long) healthy.getValue().size());
                    allocatable.put(healthy.getKey(), (long) healthy.getValue().size());
                }
            }
            for (var unhealthy : new HashMap<>(unhealthyDevices).entrySet()) {
                if (gone(unhealthy.getKey(), now)) {
                    unhealthyDevices.remove(unhealthy.getKey());
                    deleted.add(unhealthy.getKey());
                } else {
                    capacity.merge(unhealthy.getKey(), (long) unhealthy.getValue().size(), Long::sum);
                }
            }
        } finally {
            lock.unlock();
        }
        if (!deleted.isEmpty()) {
            checkpoint.writeLogged();
        }
        return new DeviceCapacity(capacity, allocatable, List.copyOf(new java.util.TreeSet<>(deleted)));
    }

    /** Caller holds the lock: the resource's plugin stopped longer ago than the grace period (or it has none). */
    private boolean gone(String resource, java.time.Instant now) {
        Endpoint e = endpoints.get(resource);
        if (e == null || e.stopGracePeriodExpired(now)) {
            if (e == null) {
                log.info("Unexpected: device lists and endpoints are out of sync for {}", resource);
            }
            endpoints.remove(resource);
            return true;
        }
        return false;
    }

    /**
     * Upstream {@code ShouldResetExtendedResourceCapacity}: no checkpoint at all means the node was made afresh, so the
     * extended resources a registered Node still shows are zeroed.
     */
    public boolean shouldResetExtendedResourceCapacity() {
        try {
            return checkpoints != null && checkpoints.list().isEmpty();
        } catch (IOException e) {
            return false;
        }
    }

    // ---- admission and containers (the allocator's) ----

    /** Upstream {@code Allocate}, for one container of a pod being admitted. */
    @Override
    public void allocate(Pod pod, Container container) throws AllocationException {
        allocator.allocate(pod, container);
    }

    @Override
    public Map<String, List<TopologyHint>> getTopologyHints(Pod pod, Container container) {
        return hints.containerHints(pod, container, allocator.devicesToReuse(pod.getMetadata().getUid()));
    }

    @Override
    public Map<String, List<TopologyHint>> getPodTopologyHints(Pod pod) {
        return hints.podHints(pod);
    }

    /**
     * Upstream {@code GetDeviceRunContainerOptions}, as the container manager's {@code GetResources} hands it on: before
     * each start of the container.
     */
    public RunContainerOptions deviceRunContainerOptions(Pod pod, Container container) throws AllocationException {
        return allocator.deviceRunContainerOptions(pod, container);
    }

    /**
     * Upstream {@code UpdatePluginResources} ({@code sanitizeNodeAllocatable}): for a pod that holds devices, the
     * node's allocatable of each device resource is raised to at least what containers hold, so that pods admitted
     * before a plugin failed still pass the resource predicates.
     *
     * @param allocatable the node's scalar allocatable, in base units
     * @return {@code allocatable}, or a copy with the raised amounts
     */
    public Map<String, Long> updatePluginResources(Pod pod, Map<String, Long> allocatable) {
        if (!podDevices.hasPod(pod.getMetadata().getUid())) {
            return allocatable;
        }
        Map<String, Long> out = allocatable;
        lock.lock();
        try {
            for (var e : allocatedDevices.entrySet()) {
                long needed = e.getValue().size();
                Long have = allocatable.get(e.getKey());
                if (have != null && have >= needed) {
                    continue;
                }
                if (out == allocatable) {
                    out = new HashMap<>(allocatable);
                }
                out.put(e.getKey(), needed);
            }
        } finally {
            lock.unlock();
        }
        return out;
    }

    /** Upstream {@code UpdateAllocatedDevices}: frees the devices of pods no longer active, once every source is ready. */
    public void updateAllocatedDevices() {
        List<Pod> active = activePods.get();
        if (!sourcesReady.getAsBoolean()) {
            return;
        }
        lock.lock();
        try {
            Set<String> toRemove = podDevices.pods();
            active.forEach(p -> toRemove.remove(p.getMetadata().getUid()));
            if (toRemove.isEmpty()) {
                return;
            }
            log.debug("Pods to be removed: {}", new java.util.TreeSet<>(toRemove));
            podDevices.delete(toRemove);
            allocatedDevices = podDevices.devices();
        } finally {
            lock.unlock();
        }
    }

    /** Caller holds the lock: a registered resource, or one containers still hold. */
    boolean isDevicePluginResourceLocked(String resource) {
        return healthyDevices.containsKey(resource) || allocatedDevices.containsKey(resource);
    }

    boolean isDevicePluginResource(String resource) {
        lock.lock();
        try {
            return isDevicePluginResourceLocked(resource);
        } finally {
            lock.unlock();
        }
    }

    // ---- the pod-resources API ----

    /** Upstream {@code GetAllocatableDevices}: each resource's healthy devices, as reported. */
    public Map<String, Map<String, Device>> allocatableDevices() {
        lock.lock();
        try {
            Map<String, Map<String, Device>> out = new TreeMap<>();
            healthyDevices.forEach((resource, ids) -> {
                Map<String, Device> all = allDevices.getOrDefault(resource, Map.of());
                Map<String, Device> healthy = new TreeMap<>(all);
                healthy.keySet().retainAll(ids);
                out.put(resource, healthy);
            });
            return out;
        } finally {
            lock.unlock();
        }
    }

    /** Upstream {@code GetDevices}: the devices the container holds, by resource; empty when none. */
    public Map<String, Map<String, Device>> devices(String podUid, String container) {
        Map<String, Map<String, Device>> d = podDevices.containerDevices(podUid, container);
        return d == null ? Map.of() : d;
    }

    DeviceManagerCheckpoint checkpoint() {
        return checkpoint;
    }
}
