package io.jkubelet.core.nodestatus;

import io.fabric8.kubernetes.api.model.Quantity;

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
     * Allocatable from capacity and the reservations of the configuration.
     *
     * @throws IllegalArgumentException naming the field when a reservation or threshold does not parse
     */
    public static Map<String, Quantity> allocatable(Map<String, Quantity> capacity, Map<String, String> systemReserved,
            Map<String, String> kubeReserved, Map<String, String> evictionHard) {
        Map<String, BigDecimal> reservation = new LinkedHashMap<>();
        addReservation(reservation, systemReserved, "systemReserved");
        addReservation(reservation, kubeReserved, "kubeReserved");
        addEviction(reservation, capacity, evictionHard, "memory.available", MEMORY);
        addEviction(reservation, capacity, evictionHard, "nodefs.available", EPHEMERAL_STORAGE);
        Map<String, Quantity> allocatable = new LinkedHashMap<>();
        capacity.forEach((name, cap) -> {
            BigDecimal value = cap.getNumericalAmount().subtract(reservation.getOrDefault(name, BigDecimal.ZERO));
            if (value.signum() < 0) {
                value = BigDecimal.ZERO;
            }
            allocatable.put(name, like(name, value));
        });
        return allocatable;
    }

    private static void addReservation(Map<String, BigDecimal> into, Map<String, String> reserved, String field) {
        if (reserved == null) {
            return;
        }
        reserved.forEach((name, value) -> {
            try {
                into.merge(name, Quantity.parse(value).getNumericalAmount(), BigDecimal::add);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(field + "[" + name + "]: invalid quantity \"" + value + "\"");
            }
        });
    }

    private static void addEviction(Map<String, BigDecimal> into, Map<String, Quantity> capacity,
            Map<String, String> evictionHard, String signal, String resource) {
        String threshold = evictionHard == null ? null : evictionHard.get(signal);
        Quantity cap = capacity.get(resource);
        if (threshold == null || cap == null) {
            return;
        }
        BigDecimal amount;
        try {
            if (threshold.endsWith("%")) {
                BigDecimal percent = new BigDecimal(threshold.substring(0, threshold.length() - 1));
                // upstream: int64(percentage * capacity)
                amount = cap.getNumericalAmount().multiply(percent).divide(BigDecimal.valueOf(100))
                        .setScale(0, RoundingMode.DOWN);
            } else {
                amount = Quantity.parse(threshold).getNumericalAmount();
            }
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("evictionHard[" + signal + "]: invalid threshold \"" + threshold + "\"");
        }
        into.merge(resource, amount, BigDecimal::add);
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
