package io.jkubelet.cmd;

import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.cadvisor.CgroupReader;
import io.jkubelet.cadvisor.MemInfo;
import io.jkubelet.core.apis.config.CpuSet;
import io.jkubelet.core.apis.config.FeatureGates;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.cm.CgroupException;
import io.jkubelet.core.cm.CgroupMounts;
import io.jkubelet.core.cm.ContainerManager;
import io.jkubelet.core.cm.KernelTunables;
import io.jkubelet.core.cm.LinuxContainerManager;
import io.jkubelet.core.cm.NodeConfig;
import io.jkubelet.core.cm.PidLimit;
import io.jkubelet.core.cm.SwapCheck;
import io.jkubelet.core.cm.cpumanager.CpuManager;
import io.jkubelet.core.cm.cpumanager.StaticPolicy;
import io.jkubelet.core.cm.cpumanager.SysfsTopology;
import io.jkubelet.core.cm.memorymanager.MemoryManager;
import io.jkubelet.core.cm.memorymanager.SysfsMachineMemory;
import io.jkubelet.core.cm.topologymanager.SysfsNumaNodes;
import io.jkubelet.core.cm.topologymanager.TopologyAffinityStore;
import io.jkubelet.core.cm.topologymanager.TopologyManager;
import io.jkubelet.core.qos.OomScoreAdjuster;
import io.jkubelet.core.runtime.RuntimeProcess;
import io.jkubelet.core.stats.SystemContainers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What start-up reads and sets on this machine (upstream's {@code run} in {@code cmd/kubelet/app/server.go}): the
 * agent's own OOM score, the container manager with its host checks, the machine's memory, and the system containers
 * of the stats summary.
 */
final class HostSetup {
    private static final Logger log = LoggerFactory.getLogger(HostSetup.class);

    private HostSetup() {
    }

    /** The agent's own {@code oom_score_adj}; a refusal is one warning, and the adjuster then clamps pods' scores. */
    static OomScoreAdjuster applyOomScoreAdj(KubeletConfiguration config) {
        OomScoreAdjuster oom = OomScoreAdjuster.forSelf();
        try {
            oom.apply(config.oomScoreAdj());
        } catch (IOException e) {
            log.warn("Failed to set the agent's oom_score_adj to {}: {}", config.oomScoreAdj(), e.getMessage());
        }
        return oom;
    }

    /**
     * Upstream {@code NewContainerManager}: refuses to run with swap on ({@code failSwapOn}), checks or sets the kernel
     * tunables ({@code protectKernelDefaults}, upstream's {@code setupNode}), checks that the cgroup
     * root exists, and reads the machine's capacity for node allocatable.
     */
    static ContainerManager containerManager(KubeletConfiguration config) throws StartupException {
        try {
            if (!Boolean.FALSE.equals(config.failSwapOn())) {
                SwapCheck.failIfSwapOn(Path.of("/proc/swaps"));
            }
            KernelTunables.setUp(Path.of("/proc/sys"), config.protectKernelDefaults());
            NodeConfig nodeConfig = NodeConfig.from(config);
            return LinuxContainerManager.create(nodeConfig, CgroupMounts.forHost(nodeConfig.cgroupDriver()),
                    machineCapacity(), PidLimit.maxPids(Path.of("/proc/sys/kernel")));
        } catch (IOException | CgroupException | IllegalStateException e) {
            throw StartupException.of(e);
        }
    }

    private static Map<String, Quantity> machineCapacity() throws IOException {
        return Map.of("cpu", new Quantity(Integer.toString(Runtime.getRuntime().availableProcessors())),
                "memory", new Quantity(Long.toString(memoryCapacity())));
    }

    /**
     * Upstream's {@code cpumanager.NewManager}: with the {@code static} policy, the CPU manager on the machine's
     * topology ({@code /sys}), the kube and system reservations' CPU and {@code reservedSystemCPUs}; none with
     * {@code none}.
     */
    static Optional<CpuManager> cpuManager(KubeletConfiguration config, ContainerManager containerManager, Path rootDir,
                                           TopologyAffinityStore topologyManager) throws StartupException {
        if (!StaticPolicy.NAME.equals(config.cpuManagerPolicy())) {
            return Optional.empty();
        }
        try {
            Duration period = config.cpuManagerReconcilePeriod().isZero() ? Duration.ofSeconds(10)
                    : config.cpuManagerReconcilePeriod();
            return Optional.of(CpuManager.newStatic(SysfsTopology.read(Path.of("/sys")),
                    containerManager.nodeAllocatableReservation(machineCapacity()).get("cpu"),
                    CpuSet.parse(config.reservedSystemCPUs()),
                    Objects.requireNonNullElse(config.cpuManagerPolicyOptions(), Map.of()), rootDir, period,
                    topologyManager));
        } catch (IOException | IllegalArgumentException e) {
            throw new StartupException("Failed to initialize cpu manager: " + e.getMessage());
        }
    }

    /**
     * Upstream's {@code memorymanager.NewManager}, which its container manager makes after the CPU manager: the
     * configured policy on the machine's NUMA nodes' memory ({@code /sys}), {@code reservedMemory} checked against node
     * allocatable's reservation; none with the {@code MemoryManager} gate off, as upstream's container manager makes
     * none then.
     *
     * @throws StartupException with upstream's message for an unknown policy or a {@code reservedMemory} it refuses
     */
    static Optional<MemoryManager> memoryManager(KubeletConfiguration config, ContainerManager containerManager,
                                                 Path rootDir, TopologyAffinityStore topologyManager) throws StartupException {
        if (!FeatureGates.of(config).enabled(FeatureGates.MEMORY_MANAGER)) {
            return Optional.empty();
        }
        try {
            return Optional.of(MemoryManager.create(config.memoryManagerPolicy(),
                    SysfsMachineMemory.read(Path.of("/sys"), Path.of("/proc/meminfo")),
                    containerManager.nodeAllocatableReservation(machineCapacity()),
                    Objects.requireNonNullElse(config.reservedMemory(), List.of()), rootDir, topologyManager));
        } catch (IOException | IllegalArgumentException e) {
            throw new StartupException("Failed to initialize memory manager: " + e.getMessage());
        }
    }

    /**
     * Upstream's {@code topologymanager.NewManager}, which its container manager makes: the configured policy, scope
     * and options on the machine's NUMA nodes ({@code /sys}).
     *
     * @throws StartupException with upstream's message for an option, a machine or distances it refuses
     */
    static TopologyManager topologyManager(KubeletConfiguration config) throws StartupException {
        try {
            return TopologyManager.create(SysfsNumaNodes.read(Path.of("/sys")), config.topologyManagerPolicy(),
                    config.topologyManagerScope(), Objects.requireNonNullElse(config.topologyManagerPolicyOptions(),
                            Map.of()));
        } catch (IOException | IllegalArgumentException e) {
            throw StartupException.of(e);
        }
    }

    /**
     * The agent's and the runtime's cgroups for the Summary's systemContainers, the runtime's from the process its
     * adapter names; none when cgroups cannot be read.
     */
    static SystemContainers systemContainers(Optional<RuntimeProcess> runtimeProcess) {
        try {
            return SystemContainers.of(CgroupReader.forRoot(CgroupReader.DEFAULT_ROOT), Path.of("/proc"), runtimeProcess);
        } catch (IOException e) {
            log.warn("Cannot read cgroups at {}: the stats summary will have no system containers ({})",
                    CgroupReader.DEFAULT_ROOT, e.getMessage());
            return null;
        }
    }

    static long memoryCapacity() {
        try {
            return MemInfo.machineMemoryCapacity(Path.of("/proc"));
        } catch (IOException e) {
            log.warn("Cannot read /proc/meminfo: {}", e.getMessage());
        }
        return 0;
    }
}
