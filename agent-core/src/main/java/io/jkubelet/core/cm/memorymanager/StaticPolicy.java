package io.jkubelet.core.cm.memorymanager;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.cm.topologymanager.BitMask;
import io.jkubelet.core.cm.topologymanager.TopologyHint;
import io.jkubelet.core.podutil.PodSpecs;
import io.jkubelet.core.qos.QosClass;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code Static} policy (upstream's {@code staticPolicy}, v1.30): a Guaranteed pod's container gets its
 * {@code memory} and {@code hugepages-<size>} requests pinned to the NUMA nodes the topology manager admitted it with
 * (or the best ones when it gave none), taken from those nodes' free memory; other pods' containers get nothing and run
 * on every node. Not thread-safe: the manager guards it and its state.
 */
final class StaticPolicy {
    static final String NAME = "Static";

    private final List<NumaMemory> machine;
    private final Map<Integer, Map<String, Long>> systemReserved;
    private final ReusableMemory reusable = new ReusableMemory();
    private final MemoryTopologyHints hints = new MemoryTopologyHints(reusable);

    /**
     * Upstream's {@code NewPolicyStatic}.
     *
     * @param systemReserved NUMA node ID → memory type → bytes ({@link SystemReservedMemory#of})
     * @throws IllegalArgumentException with upstream's message when no {@code memory} is reserved on any node
     */
    StaticPolicy(List<NumaMemory> machine, Map<Integer, Map<String, Long>> systemReserved) {
        long total = systemReserved.values().stream().mapToLong(m -> m.getOrDefault(MemoryRequests.MEMORY, 0L)).sum();
        if (total <= 0) {
            throw new IllegalArgumentException("[memorymanager] you should specify the system reserved memory");
        }
        this.machine = List.copyOf(machine);
        this.systemReserved = systemReserved;
    }

    /**
     * Upstream's {@code validateState}: an empty machine state becomes the machine's; a restored one must be what the
     * machine and the restored blocks make of it.
     *
     * @throws IllegalStateException with upstream's message
     */
    void start(MemoryManagerState state) {
        Map<Integer, NumaNodeState> restored = state.machineState();
        Map<String, Map<String, List<MemoryBlock>>> assignments = state.assignments();
        if (restored.isEmpty()) {
            if (!assignments.isEmpty()) {
                throw new IllegalStateException("[memorymanager] machine state can not be empty when it has memory "
                        + "assignments");
            }
            state.setMachineState(defaultMachineState());
            return;
        }
        Map<Integer, NumaNodeState> expected = defaultMachineState();
        for (var pod : assignments.entrySet()) {
            for (var container : pod.getValue().entrySet()) {
                for (MemoryBlock b : container.getValue()) {
                    for (int id : b.numaAffinity()) {
                        NumaNodeState node = expected.get(id);
                        if (node == null) {
                            throw new IllegalStateException("[memorymanager] (pod: " + pod.getKey() + ", container: "
                                    + container.getKey() + ") the memory assignment uses the NUMA that does not exist");
                        }
                        if (!node.memoryMap.containsKey(b.type())) {
                            throw new IllegalStateException("[memorymanager] (pod: " + pod.getKey() + ", container: "
                                    + container.getKey() + ") the memory assignment uses memory resource that does not exist");
                        }
                    }
                    reserve(expected, b.numaAffinity(), b.type(), b.size());
                }
            }
        }
        if (!MachineStates.equal(restored, expected)) {
            throw new IllegalStateException("[memorymanager] the expected machine state is different from the real one");
        }
    }

    /** Upstream's {@code getDefaultMachineState}: every node's tables, nothing pinned. */
    Map<Integer, NumaNodeState> defaultMachineState() {
        Map<Integer, NumaNodeState> out = new TreeMap<>();
        for (NumaMemory node : machine) {
            Map<String, MemoryTable> tables = new TreeMap<>();
            long inHugePages = 0;
            for (var pages : node.hugePages().entrySet()) {
                String type = NumaMemory.hugePagesResource(pages.getKey());
                long total = pages.getKey() * 1024 * pages.getValue();
                long reserved = systemReserved(node.id(), type);
                tables.put(type, MemoryTable.fresh(total, reserved, total - reserved));
                inHugePages += total;
            }
            long reserved = systemReserved(node.id(), MemoryRequests.MEMORY);
            tables.put(MemoryRequests.MEMORY, MemoryTable.fresh(node.memory(), reserved, node.memory() - reserved - inHugePages));
            out.put(node.id(), new NumaNodeState(0, tables, List.of(node.id())));
        }
        return out;
    }

    private long systemReserved(int node, String type) {
        return systemReserved.getOrDefault(node, Map.of()).getOrDefault(type, 0L);
    }

    /**
     * Upstream's {@code Allocate}: pins the container's memory, once; a container that has blocks keeps them.
     *
     * @param hint the topology manager's affinity for the container ({@link TopologyHint#NONE} when it holds none)
     * @throws IllegalArgumentException with upstream's message when no NUMA nodes can give the memory
     */
    void allocate(MemoryManagerState state, Pod pod, Container container, TopologyHint hint) {
        if (QosClass.of(pod) != QosClass.GUARANTEED) {
            return;
        }
        String uid = pod.getMetadata().getUid();
        List<MemoryBlock> existing = state.memoryBlocks(uid, container.getName());
        if (existing != null) {
            reusable.update(pod, container, existing);
            return;
        }
        Map<String, Long> requested = MemoryRequests.container(container);
        Map<Integer, NumaNodeState> machineState = state.machineState();
        TopologyHint best = hint;
        if (hint.numaNodeAffinity() == null) {
            Map<String, List<TopologyHint>> all = hints.calculate(machineState, pod, requested);
            if (all.isEmpty()) {
                throw new IllegalArgumentException("[memorymanager] failed to get the default NUMA affinity, no NUMA nodes "
                        + "with enough memory is available");
            }
            TopologyHint fallback = MemoryTopologyHints.best(all.getOrDefault(MemoryRequests.MEMORY, List.of()));
            if (!fallback.preferred() && best.preferred()) {
                throw new IllegalArgumentException("[memorymanager] failed to find the default preferred hint");
            }
            best = fallback;
        }
        if (!satisfies(machineState, best.numaNodeAffinity(), requested)) {
            TopologyHint extended = extend(machineState, pod, requested, best.numaNodeAffinity());
            if (!extended.preferred() && best.preferred()) {
                throw new IllegalArgumentException("[memorymanager] failed to find the extended preferred hint");
            }
            best = extended;
        }
        if (MemoryTopologyHints.violatesNumaAllocations(machineState, best.numaNodeAffinity().nodes())) {
            throw new IllegalArgumentException("[memorymanager] preferred hint violates NUMA node allocation");
        }
        List<Integer> nodes = best.numaNodeAffinity().nodes();
        List<MemoryBlock> blocks = new ArrayList<>();
        for (var r : requested.entrySet()) {
            blocks.add(new MemoryBlock(nodes, r.getKey(), r.getValue()));
            long toTake = Math.max(0, r.getValue() - reusable.get(pod, best.numaNodeAffinity(), r.getKey()));
            reserve(machineState, nodes, r.getKey(), toTake);
        }
        reusable.update(pod, container, blocks);
        state.setMachineState(machineState);
        state.setMemoryBlocks(uid, container.getName(), blocks);
        shrinkInitContainersBlocks(state, pod, container, blocks);
    }

    /** Upstream's {@code updateMachineState}: the nodes counted as assigned and grouped, the bytes taken in node order. */
    static void reserve(Map<Integer, NumaNodeState> machineState, List<Integer> nodes, String type, long size) {
        long left = size;
        for (int id : nodes) {
            NumaNodeState node = machineState.get(id);
            node.numberOfAssignments++;
            node.cells = nodes;
            if (left > 0) {
                left = node.table(type).take(left);
            }
        }
    }

    /**
     * Upstream's {@code updateInitContainersMemoryBlocks}: the blocks of the regular init containers before this one
     * shrink by what this container reused of them, so that the pod's blocks add up to what it holds.
     */
    private static void shrinkInitContainersBlocks(MemoryManagerState state, Pod pod, Container container,
                                                   List<MemoryBlock> blocks) {
        String uid = pod.getMetadata().getUid();
        for (MemoryBlock block : blocks) {
            long size = block.size();
            for (Container init : PodSpecs.initContainers(pod)) {
                if (init.getName().equals(container.getName())) {
                    break;
                }
                List<MemoryBlock> initBlocks = state.memoryBlocks(uid, init.getName());
                if (PodSpecs.isRestartableInitContainer(init) || initBlocks == null || initBlocks.isEmpty()) {
                    continue;
                }
                List<MemoryBlock> shrunk = new ArrayList<>();
                for (MemoryBlock b : initBlocks) {
                    if (b.size() == 0 || !b.type().equals(block.type()) || !b.numaAffinity().equals(block.numaAffinity())) {
                        shrunk.add(b);
                        continue;
                    }
                    long used = Math.min(b.size(), size);
                    shrunk.add(b.withSize(b.size() - used));
                    size -= used;
                }
                state.setMemoryBlocks(uid, init.getName(), shrunk);
            }
        }
    }

    /** Upstream's {@code RemoveContainer}: the container's blocks given back to its nodes' free memory. */
    void removeContainer(MemoryManagerState state, String podUid, String container) {
        List<MemoryBlock> blocks = state.memoryBlocks(podUid, container);
        if (blocks == null) {
            return;
        }
        state.delete(podUid, container);
        Map<Integer, NumaNodeState> machineState = state.machineState();
        for (MemoryBlock b : blocks) {
            long left = b.size();
            for (int id : b.numaAffinity()) {
                NumaNodeState node = machineState.get(id);
                node.numberOfAssignments--;
                if (node.numberOfAssignments == 0) {
                    node.cells = List.of(id);
                }
                if (left > 0) {
                    left = node.table(b.type()).release(left);
                }
            }
        }
        state.setMachineState(machineState);
    }

    /** Upstream's {@code GetTopologyHints}; null (no preference) for a pod that is not Guaranteed. */
    Map<String, List<TopologyHint>> containerHints(MemoryManagerState state, Pod pod, Container container) {
        if (QosClass.of(pod) != QosClass.GUARANTEED) {
            return null;
        }
        Map<String, Long> requested = MemoryRequests.container(container);
        List<MemoryBlock> blocks = state.memoryBlocks(pod.getMetadata().getUid(), container.getName());
        if (blocks != null) {
            return MemoryTopologyHints.regenerate(pod, container, blocks, requested);
        }
        return hints.calculate(state.machineState(), pod, requested);
    }

    /** Upstream's {@code GetPodTopologyHints}: the first container's blocks again, else the pod's requests' hints. */
    Map<String, List<TopologyHint>> podHints(MemoryManagerState state, Pod pod) {
        if (QosClass.of(pod) != QosClass.GUARANTEED) {
            return null;
        }
        Map<String, Long> requested = MemoryRequests.pod(pod);
        for (Container c : PodSpecs.allContainers(pod)) {
            List<MemoryBlock> blocks = state.memoryBlocks(pod.getMetadata().getUid(), c.getName());
            if (blocks != null) {
                return MemoryTopologyHints.regenerate(pod, c, blocks, requested);
            }
        }
        return hints.calculate(state.machineState(), pod, requested);
    }

    private static boolean satisfies(Map<Integer, NumaNodeState> machineState, BitMask mask, Map<String, Long> requested) {
        for (var r : requested.entrySet()) {
            long free = 0;
            for (int id : mask.nodes()) {
                free += machineState.get(id).table(r.getKey()).free;
            }
            if (free < r.getValue()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Upstream's {@code extendTopologyManagerHint}: the merged hint may be a subset of ours (the {@code restricted}
     * policy's AND), so the best of our hints that contain it.
     */
    private TopologyHint extend(Map<Integer, NumaNodeState> machineState, Pod pod, Map<String, Long> requested,
                                BitMask mask) {
        List<TopologyHint> containing = hints.calculate(machineState, pod, requested)
                .getOrDefault(MemoryRequests.MEMORY, List.of()).stream()
                .filter(h -> h.numaNodeAffinity().and(mask).equals(mask)).toList();
        if (containing.isEmpty()) {
            throw new IllegalArgumentException("[memorymanager] failed to find NUMA nodes to extend the current topology hint");
        }
        return MemoryTopologyHints.best(containing);
    }
}
