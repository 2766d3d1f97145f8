package io.jkubelet.core.podresources;

import java.util.List;

/**
 * What the pod-resources API tells of one pod (v1 {@code PodResources} and the messages in it).
 *
 * @param containers its app containers, after its sidecars with the {@code SidecarContainers} gate on
 */
public record PodResourcesV1(String name, String namespace, List<ContainerResources> containers) {

    /**
     * One container's resources (v1 {@code ContainerResources}).
     *
     * @param cpuIds its exclusive CPUs (the CPU manager's static policy); none for a container of the shared pool
     * @param memory its NUMA-pinned memory (the memory manager's Static policy), a block per memory type
     */
    public record ContainerResources(String name, List<ContainerDevices> devices, List<Long> cpuIds,
                                     List<ContainerMemory> memory) {}

    /**
     * Devices of one resource (v1 {@code ContainerDevices}); upstream reports one device per entry, and one entry per
     * NUMA node the device is on.
     *
     * @param numaNodes the device's NUMA node, or null when its plugin gave none (no {@code topology} then)
     */
    public record ContainerDevices(String resourceName, List<String> deviceIds, List<Long> numaNodes) {}

    /**
     * Memory or hugepages of one type on NUMA nodes (v1 {@code ContainerMemory}).
     *
     * @param memoryType {@code memory} or {@code hugepages-<size>}
     * @param size bytes
     * @param numaNodes the NUMA nodes it is on (its {@code topology}, always given, as upstream's)
     */
    public record ContainerMemory(String memoryType, long size, List<Long> numaNodes) {}

    /** What the node has to give (v1 {@code AllocatableResourcesResponse}). */
    public record Allocatable(List<ContainerDevices> devices, List<Long> cpuIds, List<ContainerMemory> memory) {}
}
