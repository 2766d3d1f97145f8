package io.jkubelet.core.cm.memorymanager;

import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.apis.config.MemoryReservation;

import java.math.BigDecimal;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code reservedMemory} as the {@code Static} policy takes it (upstream's {@code getSystemReservedMemory}): checked
 * against the machine and node allocatable, then bytes per NUMA node and memory type.
 */
public final class SystemReservedMemory {
    private SystemReservedMemory() {}

    /**
     * Upstream's {@code validateReservedMemory} and {@code convertReserved}: every reservation names a NUMA node of the
     * machine, and for {@code memory} and each {@code hugepages-<size>} the sum over the nodes equals node allocatable's
     * reservation ({@code kubeReserved + systemReserved + evictionHard}'s {@code memory.available} for memory).
     *
     * @param nodeAllocatableReservation node allocatable's reservation by resource name, bytes
     * @return NUMA node ID → memory type → bytes, every node of the machine present
     * @throws IllegalArgumentException with upstream's message
     */
    public static Map<Integer, Map<String, Long>> of(List<NumaMemory> machine,
                                                     Map<String, BigDecimal> nodeAllocatableReservation,
                                                     List<MemoryReservation> reservedMemory) {
        Set<Integer> nodes = new HashSet<>();
        machine.forEach(n -> nodes.add(n.id()));
        Map<String, BigDecimal> totals = new TreeMap<>();
        Set<String> binary = new HashSet<>();
        for (MemoryReservation r : reservedMemory) {
            if (!nodes.contains(r.numaNode())) {
                throw new IllegalArgumentException("the reserved memory configuration references a NUMA node "
                        + r.numaNode() + " that does not exist on this machine");
            }
            r.limits().forEach((type, value) -> {
                totals.merge(type, new Quantity(value).getNumericalAmount(), BigDecimal::add);
                if (value.matches(".*[KMGTPE]i$")) {
                    binary.add(type);
                }
            });
        }
        Set<String> types = new TreeSet<>(totals.keySet());
        nodeAllocatableReservation.keySet().stream().filter(MemoryRequests::isMemoryType).forEach(types::add);
        for (String type : types) {
            BigDecimal allocatable = nodeAllocatableReservation.getOrDefault(type, BigDecimal.ZERO);
            BigDecimal reserved = totals.getOrDefault(type, BigDecimal.ZERO);
            if (allocatable.compareTo(reserved) != 0) {
                boolean bin = binary.contains(type);
                throw new IllegalArgumentException("the total amount \"" + format(reserved, bin) + "\" of type \"" + type
                        + "\" is not equal to the value \"" + format(allocatable, bin)
                        + "\" determined by Node Allocatable feature");
            }
        }
        Map<Integer, Map<String, Long>> out = new TreeMap<>();
        machine.forEach(n -> out.put(n.id(), new TreeMap<>()));
        for (MemoryReservation r : reservedMemory) {
            r.limits().forEach((type, value) -> {
                try {
                    out.get(r.numaNode()).put(type, new Quantity(value).getNumericalAmount().longValueExact());
                } catch (ArithmeticException e) {
                    throw new IllegalArgumentException("could not covert a variable of type Quantity to int64");
                }
            });
        }
        return out;
    }

    /**
     * A byte count as a quantity's canonical string: with the largest binary suffix that divides it when the
     * configuration wrote this type in binary units, else the largest decimal one ({@code 1124Mi}, {@code 1G}).
     */
    static String format(BigDecimal bytes, boolean binary) {
        BigDecimal n = bytes.stripTrailingZeros();
        if (n.scale() > 0 || n.signum() == 0) {
            return n.signum() == 0 ? "0" : n.toPlainString();
        }
        String[] suffixes = binary ? new String[] {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}
                : new String[] {"", "k", "M", "G", "T", "P", "E"};
        BigDecimal base = BigDecimal.valueOf(binary ? 1024 : 1000);
        int i = 0;
        while (i < suffixes.length - 1 && n.remainder(base).signum() == 0) {
            n = n.divide(base);
            i++;
        }
        return n.toPlainString() + suffixes[i];
    }
}
