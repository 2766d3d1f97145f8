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

    /**
     * The dependencies of a kubelet on {@code runtime}, each part as a standalone node without cgroups has it until
     * set: no apiserver, no system containers in the stats summary, the production threads, no container manager
     * (pods get no cgroups of their own, nothing is reserved), logs rotated by the runtime, no device plugins nor
     * plugin watcher registrations, the {@code none} CPU, topology and memory managers, no CSI driver, the root
     * directory's mount left as it is.
     */
    public static Builder builder(RuntimeService runtime, ImageService images, EventRecorder recorder, Clock clock) {
        return new Builder(runtime, images, recorder, clock);
    }

    /** Sets the parts a kubelet is given; {@link #build()} makes the dependencies. */
    public static final class Builder {
        private final RuntimeService runtime;
        private final ImageService images;
        private final EventRecorder recorder;
        private final Clock clock;
        private ClusterSide cluster = ClusterSide.standalone();
        private SystemContainers systemContainers;
        private KubeletExecutors executors;
        private ContainerManager containerManager = ContainerManager.stub();
        private ContainerLogManager logManager = ContainerLogManager.rotatedByRuntime();
        private DevicePluginServer devicePlugins = DevicePluginServer.none();
        private PluginRegistrationClient pluginRegistration = PluginRegistrationClient.none();
        private Optional<CpuManager> cpuManager = Optional.empty();
        private TopologyManager topologyManager;
        private CsiDriverClient csiDrivers = CsiDriverClient.none();
        private Optional<MemoryManager> memoryManager = Optional.empty();
        private Optional<HostMounts> hostMounts = Optional.empty();

        private Builder(RuntimeService runtime, ImageService images, EventRecorder recorder, Clock clock) {
            this.runtime = runtime;
            this.images = images;
            this.recorder = recorder;
            this.clock = clock;
        }

        public Builder cluster(ClusterSide cluster) {
            this.cluster = cluster;
            return this;
        }

        public Builder systemContainers(SystemContainers systemContainers) {
            this.systemContainers = systemContainers;
            return this;
        }

        public Builder executors(KubeletExecutors executors) {
            this.executors = executors;
            return this;
        }

        public Builder containerManager(ContainerManager containerManager) {
            this.containerManager = containerManager;
            return this;
        }

        public Builder logManager(ContainerLogManager logManager) {
            this.logManager = logManager;
            return this;
        }

        public Builder devicePlugins(DevicePluginServer devicePlugins) {
            this.devicePlugins = devicePlugins;
            return this;
        }

        public Builder pluginRegistration(PluginRegistrationClient pluginRegistration) {
            this.pluginRegistration = pluginRegistration;
            return this;
        }

        public Builder cpuManager(CpuManager cpuManager) {
            this.cpuManager = Optional.of(cpuManager);
            return this;
        }

        public Builder topologyManager(TopologyManager topologyManager) {
            this.topologyManager = topologyManager;
            return this;
        }

        public Builder csiDrivers(CsiDriverClient csiDrivers) {
            this.csiDrivers = csiDrivers;
            return this;
        }

        public Builder memoryManager(MemoryManager memoryManager) {
            this.memoryManager = Optional.of(memoryManager);
            return this;
        }

        public Builder hostMounts(HostMounts hostMounts) {
            this.hostMounts = Optional.of(hostMounts);
            return this;
        }

        public KubeletDeps build() {
            // Made here, not as field defaults: threads are not started for a builder given its own, and a topology
            // manager takes its kubelet's hint providers, so each kubelet needs a new one.
            return new KubeletDeps(runtime, images, recorder, clock, cluster, systemContainers,
                    executors != null ? executors : KubeletExecutors.named(), containerManager, logManager, devicePlugins,
                    pluginRegistration, cpuManager, topologyManager != null ? topologyManager : TopologyManager.none(),
                    csiDrivers, memoryManager, hostMounts);
        }
    }
}
