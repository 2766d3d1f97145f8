package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.cm.cpumanager.CpuManager;
import io.jkubelet.core.cm.cpumanager.CpuManagerStartException;
import io.jkubelet.core.cm.cpumanager.CpuReconciler;
import io.jkubelet.core.cm.devicemanager.DeviceManager;
import io.jkubelet.core.cm.devicemanager.RunningContainers;
import io.jkubelet.core.cm.topologymanager.TopologyManager;
import io.jkubelet.core.kuberuntime.ContainerCgroups;
import io.jkubelet.core.runtime.RuntimeService;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The node's resource managers as upstream's container manager holds them: the topology manager with its hint
 * providers, the device manager, then the CPU manager in upstream's order; their start, and what each container gets
 * of them when it is made (upstream's {@code InternalContainerLifecycle}). The kubelet's admission, node status and
 * pod-resources answers read the managers themselves.
 */
final class ResourceManagers {
    private final TopologyManager topologyManager;
    /** The device plugins' devices and which containers hold them. */
    private final DeviceManager deviceManager;
    /** The {@code static} policy's CPU manager; empty under {@code none}. */
    private final Optional<CpuManager> cpuManager;

    /** Makes the device manager on {@code deps}' registration server and adds the hint providers to the topology manager. */
    ResourceManagers(KubeletDeps deps) {
        this.topologyManager = deps.topologyManager();
        this.deviceManager = new DeviceManager(deps.devicePlugins(), deps.clock(), topologyManager.numaNodes(),
                topologyManager);
        this.cpuManager = deps.cpuManager();
        // Upstream's container manager adds the device manager, then the CPU manager.
        topologyManager.addHintProvider(deviceManager);
        cpuManager.ifPresent(topologyManager::addHintProvider);
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
     * reconcile loop on {@code timers}.
     *
     * @throws IOException when the device manager's checkpoint or socket cannot be used
     * @throws CpuManagerStartException upstream's "start cpu manager error: ..."
     */
    void start(RuntimeService runtime, Supplier<List<Pod>> activePods, BooleanSupplier sourcesReady,
               ScheduledExecutorService timers) throws IOException, CpuManagerStartException {
        deviceManager.start(activePods, sourcesReady, RunningContainers.now(runtime));
        if (cpuManager.isPresent()) {
            CpuReconciler.start(cpuManager.get(), runtime, activePods, sourcesReady, timers);
        }
    }

    /** Stops serving the device plugins' registration socket. */
    void stop() {
        deviceManager.stop();
    }

    /**
     * {@code cgroups} with each container's cpuset (upstream's {@code PreCreateContainer}): its CPUs from the CPU
     * manager, its parent's without one.
     */
    ContainerCgroups containerCgroups(ContainerCgroups cgroups) {
        return cgroups.withCpusetCpus(this::cpusetCpus);
    }

    private String cpusetCpus(Pod pod, Container c) {
        return cpuManager.map(m -> m.cpuSet(pod.getMetadata().getUid(), c.getName()).toString()).orElse("");
    }
}
