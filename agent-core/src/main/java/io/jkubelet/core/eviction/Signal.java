package io.jkubelet.core.eviction;

import io.jkubelet.core.nodestatus.NodeConditions;

import java.util.Arrays;
import java.util.Optional;

/**
 * What the eviction manager measures (upstream {@code evictionapi.Signal}), with the resource a pod's eviction
 * reclaims of it ({@code signalToResource}) and the node condition it reports ({@code signalToNodeCondition}).
 * Every signal is "less than": available amounts. The {@code containerfs} signals are accepted as upstream does, but
 * with the runtime's writable layers on the image file system they are the {@code imagefs} or {@code nodefs} ones.
 */
public enum Signal {
    /** Capacity minus the node's working set. */
    MEMORY_AVAILABLE("memory.available", Resource.MEMORY, NodeConditions.MEMORY_PRESSURE),
    /** Node allocatable minus the pods' working set (the {@code pods} system container); added, not configured. */
    ALLOCATABLE_MEMORY_AVAILABLE("allocatableMemory.available", Resource.MEMORY, NodeConditions.MEMORY_PRESSURE),
    /** The file system of the kubelet's root directory: volumes, logs. */
    NODEFS_AVAILABLE("nodefs.available", Resource.EPHEMERAL_STORAGE, NodeConditions.DISK_PRESSURE),
    NODEFS_INODES_FREE("nodefs.inodesFree", Resource.INODES, NodeConditions.DISK_PRESSURE),
    /** The file system of the runtime's images (Docker's data root), which also holds the writable layers. */
    IMAGEFS_AVAILABLE("imagefs.available", Resource.EPHEMERAL_STORAGE, NodeConditions.DISK_PRESSURE),
    IMAGEFS_INODES_FREE("imagefs.inodesFree", Resource.INODES, NodeConditions.DISK_PRESSURE),
    CONTAINERFS_AVAILABLE("containerfs.available", Resource.EPHEMERAL_STORAGE, NodeConditions.DISK_PRESSURE),
    CONTAINERFS_INODES_FREE("containerfs.inodesFree", Resource.INODES, NodeConditions.DISK_PRESSURE),
    /** {@code pid_max} minus the processes running. */
    PID_AVAILABLE("pid.available", Resource.PIDS, NodeConditions.PID_PRESSURE);

    /** The resource a signal starves, as the eviction message and the node-level reclaim name it. */
    public enum Resource {
        MEMORY("memory", true),
        EPHEMERAL_STORAGE("ephemeral-storage", true),
        /** Internal to eviction (upstream {@code resourceInodes}). */
        INODES("inodes", false),
        /** Internal to eviction (upstream {@code resourcePids}). */
        PIDS("pids", false);

        private final String apiName;
        private final boolean bytes;

        Resource(String apiName, boolean bytes) {
            this.apiName = apiName;
            this.bytes = bytes;
        }

        /** The resource's name in messages and pod resource lists. */
        public String apiName() {
            return apiName;
        }

        /** Amounts in bytes print in binary form ({@code 100Mi}), counts in decimal ({@code 5k}). */
        public String format(long amount) {
            return bytes ? Quantities.binary(amount) : Quantities.decimal(amount);
        }
    }

    private final String signalName;
    private final Resource resource;
    private final String nodeCondition;

    Signal(String signalName, Resource resource, String nodeCondition) {
        this.signalName = signalName;
        this.resource = resource;
        this.nodeCondition = nodeCondition;
    }

    /** The name used in the configuration, e.g. {@code memory.available}. */
    public String signalName() {
        return signalName;
    }

    public Resource resource() {
        return resource;
    }

    /** {@code MemoryPressure}, {@code DiskPressure} or {@code PIDPressure}. */
    public String nodeCondition() {
        return nodeCondition;
    }

    /** Memory is reclaimed before anything else (upstream {@code byEvictionPriority}). */
    boolean isMemory() {
        return resource == Resource.MEMORY;
    }

    /** The signal of a configuration key, or empty when upstream does not know it ({@code validSignal}). */
    public static Optional<Signal> of(String name) {
        return Arrays.stream(values()).filter(s -> s.signalName.equals(name)).findFirst();
    }

    @Override
    public String toString() {
        return signalName;
    }
}
