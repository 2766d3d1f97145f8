package io.jkubelet.core.cm.memorymanager;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One NUMA node's memory (upstream's {@code state.NUMANodeState}): its table per memory type ({@code memory},
 * {@code hugepages-<size>}), how many memory blocks are pinned to it, and the group of nodes it is allocated with
 * ({@code cells}: itself alone, or every node of a multi-node allocation; a node serves either single-node or one
 * group's allocations, never both). Mutable, as {@link MemoryTable}.
 */
public final class NumaNodeState {
    int numberOfAssignments;
    final Map<String, MemoryTable> memoryMap;
    List<Integer> cells;

    public NumaNodeState(int numberOfAssignments, Map<String, MemoryTable> memoryMap, List<Integer> cells) {
        this.numberOfAssignments = numberOfAssignments;
        this.memoryMap = new TreeMap<>(memoryMap);
        this.cells = List.copyOf(cells);
    }

    NumaNodeState copy() {
        Map<String, MemoryTable> tables = new TreeMap<>();
        memoryMap.forEach((type, t) -> tables.put(type, t.copy()));
        return new NumaNodeState(numberOfAssignments, tables, cells);
    }

    public int numberOfAssignments() {
        return numberOfAssignments;
    }

    /** The tables by memory type, sorted. */
    public Map<String, MemoryTable> memoryMap() {
        return memoryMap;
    }

    public List<Integer> cells() {
        return cells;
    }

    /** The table of this memory type; an empty one when the node has none of it. */
    MemoryTable table(String type) {
        MemoryTable t = memoryMap.get(type);
        return t == null ? new MemoryTable(0, 0, 0, 0, 0) : t;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NumaNodeState s && s.numberOfAssignments == numberOfAssignments
                && s.memoryMap.equals(memoryMap) && s.cells.equals(cells);
    }

    @Override
    public int hashCode() {
        return memoryMap.hashCode() * 31 + numberOfAssignments;
    }

    @Override
    public String toString() {
        return "{assignments:" + numberOfAssignments + " memoryMap:" + memoryMap + " cells:" + cells + "}";
    }
}
