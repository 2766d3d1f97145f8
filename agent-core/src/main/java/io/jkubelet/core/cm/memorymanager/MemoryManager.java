package io.jkubelet.core.cm.memorymanager;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.apis.config.MemoryReservation;
import io.jkubelet.core.checkpointmanager.CheckpointManager;
import io.jkubelet.core.cm.PinningMetrics;
import io.jkubelet.core.cm.StaleContainers;
import io.jkubelet.core.cm.topologymanager.HintProvider;
import io.jkubelet.core.cm.topologymanager.TopologyAffinityStore;
import io.jkubelet.core.cm.topologymanager.TopologyHint;
import io.jkubelet.core.podutil.PodSpecs;
import io.jkubelet.core.qos.QosClass;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The memory manager (upstream's {@code memorymanager.manager}, v1.30) with the {@code None} or {@code Static} policy:
 * its state restored from and written to {@code <root-dir>/memory_manager_state} after each change, each Guaranteed
 * container's memory pinned at admission as a hint provider of the topology manager (after the CPU manager), the NUMA
 * nodes a container's {@code cpuset.mems} gets, and the blocks of containers that are no longer active given back.
 * Under {@code None} nothing is pinned and every container runs on every node. Thread-safe.
 */
public final class MemoryManager implements HintProvider {
    private static final Logger log = LoggerFactory.getLogger(MemoryManager.class);
    /** Upstream's {@code policyTypeNone}, the default of {@code memoryManagerPolicy}. */
    public static final String NONE = "None";
    public static final String STATIC = StaticPolicy.NAME;

    /** Null under {@code None}. */
    private final StaticPolicy policy;
    private final TopologyAffinityStore affinity;
    private final MemoryManagerCheckpoint checkpoint;
    private MemoryManagerState state = new MemoryManagerState();
    private Supplier<List<Pod>> activePods = List::of;
    private BooleanSupplier sourcesReady = () -> false;
    private volatile PinningMetrics pinning = PinningMetrics.NONE;

    private MemoryManager(StaticPolicy policy, TopologyAffinityStore affinity, MemoryManagerCheckpoint checkpoint) {
        this.policy = policy;
        this.affinity = affinity;
        this.checkpoint = checkpoint;
    }

    /**
     * Upstream's {@code NewManager}.
     *
     * @param machine the machine's NUMA nodes' memory
     * @param nodeAllocatableReservation node allocatable's reservation by resource, bytes ({@code memory}:
     *     {@code kubeReserved + systemReserved + evictionHard memory.available})
     * @param reservedMemory {@code reservedMemory}
     * @param affinity the topology manager, whose admitted NUMA nodes each container's memory is pinned to
     * @throws IllegalArgumentException with upstream's message for an unknown policy, a {@code reservedMemory} that
     *     does not add up to node allocatable's reservation or names a node the machine does not have, or none reserved
     */
    public static MemoryManager create(String policyName, List<NumaMemory> machine,
                                       Map<String, BigDecimal> nodeAllocatableReservation,
                                       List<MemoryReservation> reservedMemory, Path rootDir, TopologyAffinityStore affinity) {
        StaticPolicy policy = switch (policyName) {
            case NONE -> null;
            case STATIC -> new StaticPolicy(machine, SystemReservedMemory.of(machine, nodeAllocatableReservation,
                    reservedMemory));
            default -> throw new IllegalArgumentException("unknown policy: \"" + policyName + "\"");
        };
        log.info("Memory manager created with policy {}", policyName);
        return new MemoryManager(policy, affinity, new MemoryManagerCheckpoint(new CheckpointManager(rootDir), policyName));
    }

    /** The policy's name: {@code None} or {@code Static}. */
    public String policyName() {
        return policy == null ? NONE : STATIC;
    }

    /**
     * Upstream's {@code Start}: the state file read (or written anew) and, under {@code Static}, checked against the
     * machine and {@code reservedMemory}.
     *
     * @param activePods the pods whose containers keep their memory; the others' is given back before each allocation
     * @throws IllegalStateException with upstream's message when the file or its state does not fit; the kubelet stops
     */
    public synchronized void start(Supplier<List<Pod>> activePods, BooleanSupplier sourcesReady) throws IOException {
        this.activePods = activePods;
        this.sourcesReady = sourcesReady;
        MemoryManagerState restored = checkpoint.restore();
        if (policy != null) {
            policy.start(restored);
        }
        state = restored;
        checkpoint.store(state);
    }

    /**
     * Counts each Guaranteed container's memory pinning, and each that fails, from now on (the kubelet's metrics); under
     * {@code None} nothing is pinned and nothing counted, as upstream's none policy counts nothing.
     */
    public void observePinning(PinningMetrics metrics) {
        this.pinning = metrics;
    }

    /**
     * Upstream's {@code Allocate}: the memory of containers no longer active given back ({@link #removeStaleState}), then
     * this container's pinned to the NUMA nodes the topology manager admitted it with. As upstream's static policy,
     * every container of a Guaranteed pod is counted as a pinning request (one that already has its blocks too), and
     * each that cannot be pinned as an error.
     */
    @Override
    public synchronized void allocate(Pod pod, Container container) throws IOException {
        if (policy == null) {
            return;
        }
        removeStaleState(pod);
        if (QosClass.of(pod) != QosClass.GUARANTEED) {
            return; // nothing pinned: the container's memory is on every node
        }
        pinning.requested();
        try {
            policy.allocate(state, pod, container, affinity.getAffinity(pod.getMetadata().getUid(), container.getName()));
        } catch (RuntimeException e) {
            pinning.failed();
            throw e;
        }
        checkpoint.store(state);
    }

    /** Upstream's {@code GetTopologyHints}, after the memory of containers no longer active was given back. */
    @Override
    public synchronized Map<String, List<TopologyHint>> getTopologyHints(Pod pod, Container container) {
        if (policy == null) {
            return Map.of();
        }
        removeStaleState(pod);
        return orNoPreference(policy.containerHints(state, pod, container));
    }

    /** Upstream's {@code GetPodTopologyHints}, after the memory of containers no longer active was given back. */
    @Override
    public synchronized Map<String, List<TopologyHint>> getPodTopologyHints(Pod pod) {
        if (policy == null) {
            return Map.of();
        }
        removeStaleState(pod);
        return orNoPreference(policy.podHints(state, pod));
    }

    private static Map<String, List<TopologyHint>> orNoPreference(Map<String, List<TopologyHint>> hints) {
        return hints == null ? Map.of() : hints;
    }

    /**
     * Upstream's {@code AddContainer} as a container is created: the regular init containers before it have run to
     * completion, so their memory goes back to the machine for other pods.
     */
    public synchronized void addContainer(Pod pod, Container container) {
        if (policy == null) {
            return;
        }
        boolean changed = false;
        for (Container init : PodSpecs.initContainers(pod)) {
            if (init.getName().equals(container.getName())) {
                break;
            }
            if (!PodSpecs.isRestartableInitContainer(init)
                    && state.memoryBlocks(pod.getMetadata().getUid(), init.getName()) != null) {
                policy.removeContainer(state, pod.getMetadata().getUid(), init.getName());
                changed = true;
            }
        }
        if (changed) {
            storeOrFail();
        }
    }

    /**
     * Upstream's {@code GetMemoryNUMANodes}: the NUMA nodes of the container's blocks, the container's
     * {@code cpuset.mems}; empty when it has none (it runs on every node).
     */
    public synchronized Set<Integer> memoryNumaNodes(String podUid, String container) {
        Set<Integer> nodes = new TreeSet<>();
        List<MemoryBlock> blocks = state.memoryBlocks(podUid, container);
        if (blocks != null) {
            blocks.forEach(b -> nodes.addAll(b.numaAffinity()));
        }
        return nodes;
    }

    /** The container's blocks (upstream's {@code GetMemory}, the pod-resources API's); empty when it has none. */
    public synchronized List<MemoryBlock> memory(String podUid, String container) {
        List<MemoryBlock> blocks = state.memoryBlocks(podUid, container);
        return blocks == null ? List.of() : blocks;
    }

    /**
     * Upstream's {@code GetAllocatableMemory} (the pod-resources API's): each node's allocatable memory per type, a type
     * with none left out (a page size with no pages); empty under {@code None}.
     */
    public synchronized List<MemoryBlock> allocatableMemory() {
        List<MemoryBlock> out = new ArrayList<>();
        if (policy != null) {
            state.machineState().forEach((id, node) -> node.memoryMap.forEach((type, t) -> {
                if (t.allocatable != 0) {
                    out.add(new MemoryBlock(List.of(id), type, t.allocatable));
                }
            }));
        }
        return out;
    }

    /** A copy of the state, for tests and diagnostics. */
    synchronized MemoryManagerState state() {
        MemoryManagerState copy = new MemoryManagerState();
        copy.setMachineState(state.machineState());
        copy.setAssignments(state.assignments());
        return copy;
    }

    /**
     * Upstream's {@code removeStaleState}, before each hint and allocation: once every pod source has been seen, the
     * blocks of containers that are in no active pod (nor the pod being admitted) are given back. A state file that
     * cannot be written is logged, as upstream's checkpoint state logs it; the state in memory is what counts.
     */
    private void removeStaleState(Pod admitting) {
        if (!sourcesReady.getAsBoolean()) {
            return;
        }
        List<Pod> pods = new ArrayList<>(activePods.get());
        pods.add(admitting);
        List<StaleContainers.Ref> stale = StaleContainers.of(state.assignments(), pods);
        for (StaleContainers.Ref c : stale) {
            log.info("RemoveStaleState removing state: podUID={} containerName={}", c.podUid(), c.containerName());
            policy.removeContainer(state, c.podUid(), c.containerName());
        }
        if (!stale.isEmpty()) {
            try {
                checkpoint.store(state);
            } catch (IOException e) {
                log.error("Store state to checkpoint error: {}", e.getMessage());
            }
        }
    }

    private void storeOrFail() {
        try {
            checkpoint.store(state);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
