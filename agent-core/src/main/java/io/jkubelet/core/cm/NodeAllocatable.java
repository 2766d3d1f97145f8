package io.jkubelet.core.cm;

import io.fabric8.kubernetes.api.model.Quantity;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the node keeps back from pods (upstream {@code node_container_manager_linux.go}): {@code systemReserved} and
 * {@code kubeReserved}, and for scheduling also the hard eviction thresholds of {@code memory.available} (memory)
 * and {@code nodefs.available} (ephemeral-storage). Amounts are the quantities' numerical values: cores for cpu,
 * bytes for memory and storage, a count for {@code pid}.
 */
public record NodeAllocatable(Map<String, String> systemReserved, Map<String, String> kubeReserved,
                              Map<String, String> evictionHard) {

    public NodeAllocatable {
        systemReserved = systemReserved == null ? Map.of() : Map.copyOf(systemReserved);
        kubeReserved = kubeReserved == null ? Map.of() : Map.copyOf(kubeReserved);
        evictionHard = evictionHard == null ? Map.of() : Map.copyOf(evictionHard);
    }

    /** Nothing reserved: allocatable is capacity. */
    public static final NodeAllocatable NONE = new NodeAllocatable(Map.of(), Map.of(), Map.of());

    /**
     * Upstream {@code GetNodeAllocatableReservation}: for each resource of {@code capacity}, what is reserved
     * (system + kube + the hard eviction threshold); resources with nothing reserved are left out.
     *
     * @throws IllegalArgumentException naming the field when a reservation or threshold does not parse
     */
    public Map<String, BigDecimal> reservation(Map<String, Quantity> capacity) {
        Map<String, BigDecimal> reserved = new LinkedHashMap<>(reserved());
        addEviction(reserved, capacity, "memory.available", "memory");
        addEviction(reserved, capacity, "nodefs.available", "ephemeral-storage");
        Map<String, BigDecimal> out = new LinkedHashMap<>();
        capacity.keySet().forEach(name -> {
            BigDecimal r = reserved.getOrDefault(name, BigDecimal.ZERO);
            if (r.signum() != 0) {
                out.put(name, r);
            }
        });
        return out;
    }

    /** Capacity less the reservation, never below zero: what the node reports as allocatable. */
    public Map<String, BigDecimal> allocatable(Map<String, Quantity> capacity) {
        Map<String, BigDecimal> reservation = reservation(capacity);
        Map<String, BigDecimal> out = new LinkedHashMap<>();
        capacity.forEach((name, cap) -> out.put(name,
                cap.getNumericalAmount().subtract(reservation.getOrDefault(name, BigDecimal.ZERO)).max(BigDecimal.ZERO)));
        return out;
    }

    /**
     * Upstream {@code getNodeAllocatableAbsolute}: capacity less system and kube reservations (not eviction
     * thresholds), never below zero; what the {@code kubepods} cgroup is limited to when {@code pods} is enforced.
     */
    public Map<String, BigDecimal> absolute(Map<String, BigDecimal> capacity) {
        Map<String, BigDecimal> reserved = reserved();
        Map<String, BigDecimal> out = new LinkedHashMap<>();
        capacity.forEach((name, cap) -> out.put(name,
                cap.subtract(reserved.getOrDefault(name, BigDecimal.ZERO)).max(BigDecimal.ZERO)));
        return out;
    }

    /**
     * Upstream {@code validateNodeAllocatable}: a reservation larger than the capacity is a configuration error.
     *
     * @return upstream's message when the configuration is invalid
     */
    public Optional<String> invalid(Map<String, Quantity> capacity) {
        List<String> errors = new ArrayList<>();
        reservation(capacity).forEach((name, reserved) -> {
            Quantity cap = capacity.get(name);
            if (cap.getNumericalAmount().compareTo(reserved) < 0) {
                errors.add("Resource \"" + name + "\" has a reservation of " + reserved.stripTrailingZeros().toPlainString()
                        + " but capacity of " + cap + ". Expected capacity >= reservation.");
            }
        });
        return errors.isEmpty() ? Optional.empty()
                : Optional.of("invalid Node Allocatable configuration. " + String.join(" ", errors));
    }

    /** {@code amounts} in the units cgroup limits take: cpu in millicores, everything else whole, rounded up. */
    public static Map<String, Long> cgroupUnits(Map<String, BigDecimal> amounts) {
        Map<String, Long> out = new LinkedHashMap<>();
        amounts.forEach((name, v) -> out.put(name,
                (name.equals("cpu") ? v.movePointRight(3) : v).setScale(0, RoundingMode.CEILING).longValueExact()));
        return out;
    }

    /** {@code systemReserved} as amounts. */
    public Map<String, BigDecimal> systemReservedAmounts() {
        Map<String, BigDecimal> out = new LinkedHashMap<>();
        add(out, systemReserved, "systemReserved");
        return out;
    }

    /** {@code kubeReserved} as amounts. */
    public Map<String, BigDecimal> kubeReservedAmounts() {
        Map<String, BigDecimal> out = new LinkedHashMap<>();
        add(out, kubeReserved, "kubeReserved");
        return out;
    }

    private Map<String, BigDecimal> reserved() {
        Map<String, BigDecimal> reserved = systemReservedAmounts();
        kubeReservedAmounts().forEach((name, v) -> reserved.merge(name, v, BigDecimal::add));
        return reserved;
    }

    private static void add(Map<String, BigDecimal> into, Map<String, String> reserved, String field) {
        reserved.forEach((name, value) -> into.merge(name, parse(value, field + "[" + name + "]", "invalid quantity"),
                BigDecimal::add));
    }

    private void addEviction(Map<String, BigDecimal> into, Map<String, Quantity> capacity, String signal, String resource) {
        String threshold = evictionHard.get(signal);
        Quantity cap = capacity.get(resource);
        if (threshold == null || cap == null) {
            return;
        }
        BigDecimal amount;
        String field = "evictionHard[" + signal + "]";
        if (threshold.endsWith("%")) {
            BigDecimal percent = parsePercent(threshold, field);
            // upstream: int64(percentage * capacity)
            amount = cap.getNumericalAmount().multiply(percent).divide(BigDecimal.valueOf(100)).setScale(0, RoundingMode.DOWN);
        } else {
            amount = parse(threshold, field, "invalid threshold");
        }
        into.merge(resource, amount, BigDecimal::add);
    }

    private static BigDecimal parsePercent(String threshold, String field) {
        try {
            return new BigDecimal(threshold.substring(0, threshold.length() - 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(field + ": invalid threshold \"" + threshold + "\"");
        }
    }

    private static BigDecimal parse(String value, String field, String what) {
        try {
            return Quantity.parse(value).getNumericalAmount();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(field + ": " + what + " \"" + value + "\"");
        }
    }
}
