package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.apis.config.FeatureGates;
import io.jkubelet.core.cm.ResourceManagerStartException;
import io.jkubelet.core.cm.cpumanager.CpuManager;
import io.jkubelet.core.cm.cpumanager.CpuReconciler;
import io.jkubelet.core.cm.devicemanager.DeviceManager;
import io.jkubelet.core.cm.devicemanager.RunningContainers;
import io.jkubelet.core.cm.memorymanager.MemoryManager;
import io.jkubelet.core.cm.topologymanager.TopologyManager;
import io.jkubelet.core.kuberuntime.ContainerCgroups;
import io.jkubelet.core.metrics.ResourceManagerMetrics;
import io.jkubelet.core.podresources.CpusProvider;
import io.jkubelet.core.podresources.MemoryProvider;
import io.jkubelet.core.podresources.PodResourcesLister;
import io.jkubelet.core.runtime.RuntimeService;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The node's resource managers as upstream's container manager holds them: the topology manager with its hint
 * providers, the device manager, then the CPU manager, then the memory manager in upstream's order; their start, and
 * what each container gets of them when it is made (upstream's {@code InternalContainerLifecycle}). The kubelet's
 * admission, node status and pod-resources answers read the managers themselves.
 */
final class ResourceManagers {
    private final TopologyManager topologyManager;
    /** The device plugins' devices and which containers hold them. */
    private final DeviceManager deviceManager;
    /** The {@code static} policy's CPU manager; empty under {@code none}. */
    private final Optional<CpuManager> cpuManager;
    /** The memory manager ({@code None} or {@code Static}); empty: none at all, as with upstream's gate off. */
    private final Optional<MemoryManager> memoryManager;

    /**
     * Makes the device manager on {@code deps}' registration server, adds the hint providers to the topology manager,
     * and has every manager count into {@code metrics}.
     */
    ResourceManagers(KubeletDeps deps, ResourceManagerMetrics metrics) {
        this.topologyManager = deps.topologyManager();
        this.deviceManager = new DeviceManager(deps.devicePlugins(), deps.clock(), topologyManager.numaNodes(),
                topologyManager);
        this.cpuManager = deps.cpuManager();
        this.memoryManager = deps.memoryManager();
        // Upstream's container manager adds the device manager, then the CPU manager, then the memory manager.
        topologyManager.addHintProvider(deviceManager);
        cpuManager.ifPresent(topologyManager::addHintProvider);
        memoryManager.ifPresent(topologyManager::addHintProvider);
        topologyManager.observeAdmissions(metrics.topologyManagerAdmission(), deps.clock());
        deviceManager.observePlugins(metrics.devicePlugins());
        cpuManager.ifPresent(m -> m.observePinning(metrics.cpuManagerPinning()));
        memoryManager.ifPresent(m -> m.observePinning(metrics.memoryManagerPinning()));
    }

    TopologyManager topologyManager() {
        return topologyManager;
    }

    DeviceManager deviceManager() {
        return deviceManager;
    }

    /**
     * Starts the managers before any pod is admitted: the device manager reads its checkpoint and serves its socket (a
     * container the runtime runs now keeps its devices), then the CPU manager checks its state and starts its
     * reconcile loop on {@code timers}, then the memory manager reads (or writes anew) {@code memory_manager_state}
     * and checks it against the machine.
     *
     * @throws IOException when the device manager's checkpoint or socket cannot be used
     * @throws ResourceManagerStartException upstream's "start cpu manager error: ..." or "start memory manager error: ..."
     */
    void start(RuntimeService runtime, Supplier<List<Pod>> activePods, BooleanSupplier sourcesReady,
               ScheduledExecutorService timers) throws IOException, ResourceManagerStartException {
        deviceManager.start(activePods, sourcesReady, RunningContainers.now(runtime));
        if (cpuManager.isPresent()) {
            CpuReconciler.start(cpuManager.get(), runtime, activePods, sourcesReady, timers);
        }
        if (memoryManager.isPresent()) {
            try {
                memoryManager.get().start(activePods, sourcesReady);
            } catch (IllegalStateException | IOException e) {
                throw new ResourceManagerStartException("start memory manager error: " + e.getMessage(), e);
            }
        }
    }

    /**
     * The pod-resources API's answers over these managers (upstream hands its container manager to the server as the
     * devices, CPUs and memory providers): the devices, the static policy's exclusive CPUs (none under {@code none}),
     * the memory manager's blocks (none without one).
     *
     * @param pods the pod manager's pods
     */
    PodResourcesLister podResources(Supplier<List<Pod>> pods, FeatureGates gates) {
        return new PodResourcesLister(pods, deviceManager, cpuManager.map(CpusProvider::of).orElse(CpusProvider.none()),
                memoryManager.map(MemoryProvider::of).orElse(MemoryProvider.none()), gates);
    }

    /** Stops serving the device plugins' registration socket. */
    void stop() {
        deviceManager.stop();
    }

    /**
     * {@code cgroups} with each container's cpuset (upstream's {@code PreCreateContainer}): its CPUs from the CPU
     * manager and its memory's NUMA nodes from the memory manager, its parent's without them.
     */
    ContainerCgroups containerCgroups(ContainerCgroups cgroups) {
        return cgroups.withCpusetCpus(this::cpusetCpus).withCpusetMems(this::cpusetMems);
    }

    private String cpusetCpus(Pod pod, Container c) {
        return cpuManager.map(m -> m.cpuSet(pod.getMetadata().getUid(), c.getName()).toString()).orElse("");
    }

    /**
     * The container's {@code cpuset.mems}: its pinned NUMA nodes, {@code 0,1} as upstream joins them, empty for every
     * node. Its creation also means the regular init containers before it are done: the memory manager's
     * {@code AddContainer} gives their memory back now.
     */
    private String cpusetMems(Pod pod, Container c) {
        if (memoryManager.isEmpty()) {
            return "";
        }
        memoryManager.get().addContainer(pod, c);
        return memoryManager.get().memoryNumaNodes(pod.getMetadata().getUid(), c.getName()).stream()
                .map(String::valueOf).collect(Collectors.joining(","));
    }
}
