package io.jkubelet.core.kubelet;

import io.jkubelet.core.cluster.ClusterSide;
import io.jkubelet.core.cm.ContainerManager;
import io.jkubelet.core.cm.cpumanager.CpuManager;
import io.jkubelet.core.cm.devicemanager.DevicePluginServer;
import io.jkubelet.core.cm.memorymanager.MemoryManager;
import io.jkubelet.core.cm.topologymanager.TopologyManager;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.logs.ContainerLogManager;
import io.jkubelet.core.pluginmanager.PluginRegistrationClient;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.stats.SystemContainers;
import io.jkubelet.core.volume.csi.CsiDriverClient;
import io.jkubelet.core.volume.util.HostMounts;

import java.time.Clock;
import java.util.Optional;

/**
 * What the kubelet is given from outside (upstream {@code kubelet.Dependencies}).
 *
 * @param cluster the node's apiserver side; {@link ClusterSide#standalone()} without {@code --kubeconfig}
 * @param systemContainers the agent's and the runtime's cgroups, for the stats summary's {@code systemContainers};
 *     null when the machine's cgroups cannot be read
 * @param executors the threads the kubelet's parts run on; the kubelet owns them from now on
 * @param containerManager the node's cgroups and reservations (upstream {@code Dependencies.ContainerManager});
 *     {@link ContainerManager#stub()} where the kubelet may not touch cgroups
 * @param logManager keeps container logs within the rotation policy, as the runtime needs it (upstream's
 *     {@code containerLogManager}); {@link ContainerLogManager#rotatedByRuntime()} for Docker
 * @param devicePlugins the device plugins' registration server the device manager starts (upstream's is made by the
 *     container manager on {@code pluginapi.KubeletSocket}); {@link DevicePluginServer#none()}: no plugin can register
 * @param pluginRegistration the plugin watcher's calls to the sockets in {@code <root-dir>/plugins_registry};
 *     {@link PluginRegistrationClient#none()}: every socket there is refused
 * @param cpuManager the CPU manager of the {@code static} policy; empty with the {@code none} policy
 * @param topologyManager the topology manager (upstream's is made by the container manager), whose admitted NUMA
 *     affinities the CPU manager allocates from; the kubelet adds the device manager and the CPU manager to it as hint
 *     providers, so one instance serves one kubelet
 * @param csiDrivers the CSI drivers' Node service, which the CSI plugin asks for {@code NodeGetInfo} when a driver
 *     registers through the plugin watcher; {@link CsiDriverClient#none()}: every CSI driver is refused
 * @param memoryManager the memory manager ({@code None} or {@code Static}); the kubelet adds it to the topology manager
 *     after the CPU manager, as upstream's container manager does; empty: no memory manager (no
 *     {@code memory_manager_state}, every container's memory on every NUMA node)
 * @param hostMounts the host's mount table and {@code mount(8)} (upstream's {@code Dependencies.HostUtil}), with which
 *     the kubelet's start makes its root directory a shared mount ({@code HostUtil.makeRShared}); empty: the root
 *     directory's mount is left as it is (tests, whose root directory is a temporary directory)
 */
public record KubeletDeps(RuntimeService runtime, ImageService images, EventRecorder recorder, Clock clock,
                          ClusterSide cluster, SystemContainers systemContainers, KubeletExecutors executors,
                          ContainerManager containerManager, ContainerLogManager logManager,
                          DevicePluginServer devicePlugins, PluginRegistrationClient pluginRegistration,
                          Optional<CpuManager> cpuManager, TopologyManager topologyManager, CsiDriverClient csiDrivers,
                          Optional<MemoryManager> memoryManager, Optional<HostMounts> hostMounts) {

    /** Dependencies that leave the root directory's mount as it is. */
    public KubeletDeps(RuntimeService runtime, ImageService images, EventRecorder recorder, Clock clock,
                       ClusterSide cluster, SystemContainers systemContainers, KubeletExecutors executors,
                       ContainerManager containerManager, ContainerLogManager logManager,
                       DevicePluginServer devicePlugins, PluginRegistrationClient pluginRegistration,
                       Optional<CpuManager> cpuManager, TopologyManager topologyManager, CsiDriverClient csiDrivers,
                       Optional<MemoryManager> memoryManager) {
        this(runtime, images, recorder, clock, cluster, systemContainers, executors, containerManager, logManager,
                devicePlugins, pluginRegistration, cpuManager, topologyManager, csiDrivers, memoryManager, Optional.empty());
    }

    /** Dependencies without a memory manager. */
    public KubeletDeps(RuntimeService runtime, ImageService images, EventRecorder recorder, Clock clock,
                       ClusterSide cluster, SystemContainers systemContainers, KubeletExecutors executors,
                       ContainerManager containerManager, ContainerLogManager logManager,
                       DevicePluginServer devicePlugins, PluginRegistrationClient pluginRegistration,
                       Optional<CpuManager> cpuManager, TopologyManager topologyManager, CsiDriverClient csiDrivers) {
        this(runtime, images, recorder, clock, cluster, systemContainers, executors, containerManager, logManager,
                devicePlugins, pluginRegistration, cpuManager, topologyManager, csiDrivers, Optional.empty());
    }

    /** Dependencies that cannot call CSI drivers: a CSI driver's registration is refused. */
    public KubeletDeps(RuntimeService runtime, ImageService images, EventRecorder recorder, Clock clock,
                       ClusterSide cluster, SystemContainers systemContainers, KubeletExecutors executors,
                       ContainerManager containerManager, ContainerLogManager logManager,
                       DevicePluginServer devicePlugins, PluginRegistrationClient pluginRegistration,
                       Optional<CpuManager> cpuManager, TopologyManager topologyManager) {
        this(runtime, images, recorder, clock, cluster, systemContainers, executors, containerManager, logManager,
                devicePlugins, pluginRegistration, cpuManager, topologyManager, CsiDriverClient.none());
    }

    /** Dependencies with the {@code none} topology manager policy. */
    public KubeletDeps(RuntimeService runtime, ImageService images, EventRecorder recorder, Clock clock,
                       ClusterSide cluster, SystemContainers systemContainers, KubeletExecutors executors,
                       ContainerManager containerManager, ContainerLogManager logManager,
                       DevicePluginServer devicePlugins, PluginRegistrationClient pluginRegistration,
                       Optional<CpuManager> cpuManager) {
        this(runtime, images, recorder, clock, cluster, systemContainers, executors, containerManager, logManager,
                devicePlugins, pluginRegistration, cpuManager, TopologyManager.none());
    }

    /** Dependencies with the {@code none} CPU manager policy. */
    public KubeletDeps(RuntimeService runtime, ImageService images, EventRecorder recorder, Clock clock,
                       ClusterSide cluster, SystemContainers systemContainers, KubeletExecutors executors,
                       ContainerManager containerManager, ContainerLogManager logManager,
                       DevicePluginServer devicePlugins, PluginRegistrationClient pluginRegistration) {
        this(runtime, images, recorder, clock, cluster, systemContainers, executors, containerManager, logManager,
                devicePlugins, pluginRegistration, Optional.empty());
    }

    /** Dependencies whose device plugins can only register on the registration socket, not through the watcher. */
    public KubeletDeps(RuntimeService runtime, ImageService images, EventRecorder recorder, Clock clock,
                       ClusterSide cluster, SystemContainers systemContainers, KubeletExecutors executors,
                       ContainerManager containerManager, ContainerLogManager logManager,
                       DevicePluginServer devicePlugins) {
        this(runtime, images, recorder, clock, cluster, systemContainers, executors, containerManager, logManager,
                devicePlugins, PluginRegistrationClient.none());
    }

    /** Dependencies without device plugins. */
    public KubeletDeps(RuntimeService runtime, ImageService images, EventRecorder recorder, Clock clock,
                       ClusterSide cluster, SystemContainers systemContainers, KubeletExecutors executors,
                       ContainerManager containerManager, ContainerLogManager logManager) {
        this(runtime, images, recorder, clock, cluster, systemContainers, executors, containerManager, logManager,
                DevicePluginServer.none());
    }

    /** Dependencies whose runtime rotates its own logs. */
    public KubeletDeps(RuntimeService runtime, ImageService images, EventRecorder recorder, Clock clock,
                       ClusterSide cluster, SystemContainers systemContainers, KubeletExecutors executors,
                       ContainerManager containerManager) {
        this(runtime, images, recorder, clock, cluster, systemContainers, executors, containerManager,
                ContainerLogManager.rotatedByRuntime());
    }

    /** Dependencies without a container manager: pods get no cgroups of their own, nothing is reserved. */
    public KubeletDeps(RuntimeService runtime, ImageService images, EventRecorder recorder, Clock clock,
                       ClusterSide cluster, SystemContainers systemContainers, KubeletExecutors executors) {
        this(runtime, images, recorder, clock, cluster, systemContainers, executors, ContainerManager.stub());
    }

    /** Dependencies without system containers in the stats summary, on the production threads. */
    public KubeletDeps(RuntimeService runtime, ImageService images, EventRecorder recorder, Clock clock,
                       ClusterSide cluster) {
        this(runtime, images, recorder, clock, cluster, null, KubeletExecutors.named());
    }

    /** A standalone node's dependencies: no apiserver. */
    public KubeletDeps(RuntimeService runtime, ImageService images, EventRecorder recorder, Clock clock) {
        this(runtime, images, recorder, clock, ClusterSide.standalone());
    }
}
