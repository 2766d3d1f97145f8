package io.jkubelet.core.cm.memorymanager;

import java.util.List;

/**
 * A container's memory of one type pinned to NUMA nodes (upstream's {@code state.Block}).
 *
 * @param numaAffinity the NUMA nodes, ascending
 * @param type {@code memory} or {@code hugepages-<size>}
 * @param size bytes; an init container's block may shrink to 0 when later containers of its pod reuse its memory
 */
public record MemoryBlock(List<Integer> numaAffinity, String type, long size) {
    public MemoryBlock {
        numaAffinity = List.copyOf(numaAffinity);
    }

    MemoryBlock withSize(long newSize) {
        return new MemoryBlock(numaAffinity, type, newSize);
    }
}
