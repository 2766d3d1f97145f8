package io.jkubelet.core.nodestatus;

import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.cm.NodeAllocatable;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The node's capacity and allocatable (upstream {@code MachineInfo} setter and the container manager's
 * {@code GetNodeAllocatableReservation}): allocatable = capacity − systemReserved − kubeReserved − the hard
 * eviction threshold of the matching signal ({@code memory.available} for memory, {@code nodefs.available}
 * for ephemeral-storage), never below zero. Quantities are written in the apiserver's canonical form (cpu as
 * cores or millicores, bytes with the largest binary suffix that is exact) so that a status read back from
 * the apiserver compares equal.
 */
public final class NodeResources {
    public static final String CPU = "cpu";
    public static final String MEMORY = "memory";
    public static final String PODS = "pods";
    public static final String EPHEMERAL_STORAGE = "ephemeral-storage";

    private NodeResources() {
    }

    /**
     * The node's pod capacity (upstream's MachineInfo setter): {@code maxPods}, or with {@code podsPerCore} above 0
     * the smaller of that many pods per core and {@code maxPods}.
     */
    public static int podCapacity(int maxPods, int podsPerCore, int numCores) {
        return podsPerCore > 0 ? (int) Math.min((long) podsPerCore * numCores, maxPods) : maxPods;
    }

    /** Capacity: cpu, memory, pods and (when the root file system's size is known) ephemeral-storage. */
    public static Map<String, Quantity> capacity(MachineInfo machine, int maxPods) {
        Map<String, Quantity> capacity = new LinkedHashMap<>();
        capacity.put(CPU, cpu(machine.numCores() * 1000L));
        capacity.put(MEMORY, bytes(machine.memoryCapacity()));
        capacity.put(PODS, new Quantity(Long.toString(maxPods)));
        if (machine.rootFsCapacity() > 0) {
            capacity.put(EPHEMERAL_STORAGE, bytes(machine.rootFsCapacity()));
        }
        return capacity;
    }

    /**
     * Allocatable from capacity and the reservations of the configuration ({@link NodeAllocatable}).
     *
     * @throws IllegalArgumentException naming the field when a reservation or threshold does not parse
     */
    public static Map<String, Quantity> allocatable(Map<String, Quantity> capacity, Map<String, String> systemReserved,
            Map<String, String> kubeReserved, Map<String, String> evictionHard) {
        return canonical(new NodeAllocatable(systemReserved, kubeReserved, evictionHard).allocatable(capacity));
    }

    /** Amounts as the apiserver writes them back: cpu in cores or millicores, bytes with the largest exact suffix. */
    public static Map<String, Quantity> canonical(Map<String, BigDecimal> amounts) {
        Map<String, Quantity> out = new LinkedHashMap<>();
        amounts.forEach((name, value) -> out.put(name, like(name, value)));
        return out;
    }

    private static Quantity like(String name, BigDecimal value) {
        return switch (name) {
            case CPU -> cpu(value.movePointRight(3).setScale(0, RoundingMode.UP).longValueExact());
            case MEMORY, EPHEMERAL_STORAGE -> bytes(value.setScale(0, RoundingMode.DOWN).longValueExact());
            default -> new Quantity(value.stripTrailingZeros().toPlainString());
        };
    }

    /** CPU in the canonical decimal form: whole cores ("2") or millicores ("1900m"). */
    public static Quantity cpu(long milliCores) {
        return new Quantity(milliCores % 1000 == 0 ? Long.toString(milliCores / 1000) : milliCores + "m");
    }

    /** Bytes in the canonical binary form: the largest exact suffix ("8141680Ki"), plain below 1Ki. */
    public static Quantity bytes(long bytes) {
        String[] suffixes = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
        if (bytes > -1024 && bytes < 1024) {
            return new Quantity(Long.toString(bytes));
        }
        long n = bytes;
        int i = 0;
        while (n != 0 && n % 1024 == 0 && i < suffixes.length - 1) {
            n /= 1024;
            i++;
        }
        return new Quantity(n + suffixes[i]);
    }
}
