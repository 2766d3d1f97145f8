package io.jkubelet.core.podresources;

import io.jkubelet.core.cm.memorymanager.MemoryBlock;
import io.jkubelet.core.cm.memorymanager.MemoryManager;

import java.util.List;

/**
 * The memory the pod-resources API tells of (upstream's {@code MemoryProvider}, the container manager's
 * {@code GetMemory} and {@code GetAllocatableMemory}). Thread-safe.
 */
public interface MemoryProvider {
    /** The container's memory pinned to NUMA nodes, a block per memory type; none when it has none pinned. */
    List<PodResourcesV1.ContainerMemory> memory(String podUid, String container);

    /** Each NUMA node's allocatable memory, a block per node and memory type. */
    List<PodResourcesV1.ContainerMemory> allocatableMemory();

    /** No memory manager: nothing is pinned, nothing told. */
    static MemoryProvider none() {
        return new MemoryProvider() {
            @Override
            public List<PodResourcesV1.ContainerMemory> memory(String podUid, String container) {
                return List.of();
            }

            @Override
            public List<PodResourcesV1.ContainerMemory> allocatableMemory() {
                return List.of();
            }
        };
    }

    /**
     * The memory manager's blocks ({@code GetMemory}, {@code GetAllocatableMemory}); under its {@code None} policy both
     * are empty.
     */
    static MemoryProvider of(MemoryManager manager) {
        return new MemoryProvider() {
            @Override
            public List<PodResourcesV1.ContainerMemory> memory(String podUid, String container) {
                return containerMemory(manager.memory(podUid, container));
            }

            @Override
            public List<PodResourcesV1.ContainerMemory> allocatableMemory() {
                return containerMemory(manager.allocatableMemory());
            }
        };
    }

    /** Upstream's {@code containerMemoryFromBlock}: the block's type, size and NUMA nodes. */
    private static List<PodResourcesV1.ContainerMemory> containerMemory(List<MemoryBlock> blocks) {
        return blocks.stream().map(b -> new PodResourcesV1.ContainerMemory(b.type(), b.size(),
                b.numaAffinity().stream().map(Integer::longValue).toList())).toList();
    }
}
