package io.jkubelet.core.cm.memorymanager;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The memory manager's state (upstream's {@code state.State}): the machine state by NUMA node ID and each container's
 * memory blocks by pod UID and container name. Not thread-safe: the manager guards it. What it hands out are copies.
 */
public final class MemoryManagerState {
    private final Map<Integer, NumaNodeState> machineState = new TreeMap<>();
    private final Map<String, Map<String, List<MemoryBlock>>> assignments = new TreeMap<>();

    /** A copy of the machine state, sorted by node ID. */
    public Map<Integer, NumaNodeState> machineState() {
        return copy(machineState);
    }

    public void setMachineState(Map<Integer, NumaNodeState> state) {
        machineState.clear();
        machineState.putAll(copy(state));
    }

    static Map<Integer, NumaNodeState> copy(Map<Integer, NumaNodeState> state) {
        Map<Integer, NumaNodeState> out = new TreeMap<>();
        state.forEach((id, node) -> out.put(id, node.copy()));
        return out;
    }

    /** The container's blocks, or null when it has none. */
    public List<MemoryBlock> memoryBlocks(String podUid, String container) {
        Map<String, List<MemoryBlock>> pod = assignments.get(podUid);
        List<MemoryBlock> blocks = pod == null ? null : pod.get(container);
        return blocks == null ? null : List.copyOf(blocks);
    }

    public void setMemoryBlocks(String podUid, String container, List<MemoryBlock> blocks) {
        assignments.computeIfAbsent(podUid, k -> new TreeMap<>()).put(container, new ArrayList<>(blocks));
    }

    public void delete(String podUid, String container) {
        Map<String, List<MemoryBlock>> pod = assignments.get(podUid);
        if (pod != null) {
            pod.remove(container);
            if (pod.isEmpty()) {
                assignments.remove(podUid);
            }
        }
    }

    /** A copy of all the blocks: pod UID → container → blocks. */
    public Map<String, Map<String, List<MemoryBlock>>> assignments() {
        Map<String, Map<String, List<MemoryBlock>>> out = new TreeMap<>();
        assignments.forEach((pod, containers) -> {
            Map<String, List<MemoryBlock>> c = new TreeMap<>();
            containers.forEach((name, blocks) -> c.put(name, List.copyOf(blocks)));
            out.put(pod, c);
        });
        return out;
    }

    public void setAssignments(Map<String, Map<String, List<MemoryBlock>>> all) {
        assignments.clear();
        all.forEach((pod, containers) -> containers.forEach((name, blocks) -> setMemoryBlocks(pod, name, blocks)));
    }
}
