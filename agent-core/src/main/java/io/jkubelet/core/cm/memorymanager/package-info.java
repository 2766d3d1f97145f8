/**
 * The memory manager (upstream's {@code pkg/kubelet/cm/memorymanager}, v1.30): the {@code None} and {@code Static}
 * policies, the machine's memory per NUMA node ({@link io.jkubelet.core.cm.memorymanager.SysfsMachineMemory}),
 * Guaranteed pods' containers' memory and hugepages pinned to NUMA nodes ({@link
 * io.jkubelet.core.cm.memorymanager.StaticPolicy}) as a hint provider of the topology manager ({@link
 * io.jkubelet.core.cm.memorymanager.MemoryTopologyHints}), and the {@code memory_manager_state} file ({@link
 * io.jkubelet.core.cm.memorymanager.MemoryManagerCheckpoint}).
 */
package io.jkubelet.core.cm.memorymanager;
