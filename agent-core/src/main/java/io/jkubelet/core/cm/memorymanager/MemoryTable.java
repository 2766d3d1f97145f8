package io.jkubelet.core.cm.memorymanager;

/**
 * One memory type's sizes on one NUMA node (upstream's {@code state.MemoryTable}), in bytes: the node's total, what
 * {@code reservedMemory} keeps for the system, what pods may have ({@code allocatable = total - systemReserved}, less the
 * hugepages for {@code memory}), and of that what containers hold ({@code reserved}) and what is left ({@code free}).
 * Mutable: the policy moves bytes between {@code free} and {@code reserved}; the state hands out copies.
 */
public final class MemoryTable {
    long total;
    long systemReserved;
    long allocatable;
    long reserved;
    long free;

    public MemoryTable(long total, long systemReserved, long allocatable, long reserved, long free) {
        this.total = total;
        this.systemReserved = systemReserved;
        this.allocatable = allocatable;
        this.reserved = reserved;
        this.free = free;
    }

    /** An untouched table: all of the allocatable memory free. */
    static MemoryTable fresh(long total, long systemReserved, long allocatable) {
        return new MemoryTable(total, systemReserved, allocatable, 0, allocatable);
    }

    MemoryTable copy() {
        return new MemoryTable(total, systemReserved, allocatable, reserved, free);
    }

    public long total() {
        return total;
    }

    public long systemReserved() {
        return systemReserved;
    }

    public long allocatable() {
        return allocatable;
    }

    public long reserved() {
        return reserved;
    }

    public long free() {
        return free;
    }

    /** Takes up to {@code size} bytes of the free memory; answers what is still to take elsewhere. */
    long take(long size) {
        long taken = Math.min(free, size);
        free -= taken;
        reserved += taken;
        return size - taken;
    }

    /** Gives back up to {@code size} bytes of the reserved memory; answers what is still to give back elsewhere. */
    long release(long size) {
        long given = Math.min(reserved, size);
        reserved -= given;
        free += given;
        return size - given;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MemoryTable t && t.total == total && t.systemReserved == systemReserved
                && t.allocatable == allocatable && t.reserved == reserved && t.free == free;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(total * 31 + allocatable);
    }

    @Override
    public String toString() {
        return "{total:" + total + " systemReserved:" + systemReserved + " allocatable:" + allocatable + " reserved:"
                + reserved + " free:" + free + "}";
    }
}
