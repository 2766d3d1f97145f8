package io.jkubelet.core.apis.config;

import io.fabric8.kubernetes.api.model.Quantity;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Upstream's rules for node allocatable: {@code enforceNodeAllocatable}, reserved memory and CPU sets, quantities. */
final class NodeAllocatableValidation {
    private NodeAllocatableValidation() {}

    static void validateEnforceNodeAllocatable(KubeletConfiguration kc, ConfigRules r) {
        List<String> enforcements = kc.enforceNodeAllocatable() == null ? List.of() : kc.enforceNodeAllocatable();
        Set<String> seen = new HashSet<>();
        for (String value : enforcements) {
            if (!seen.add(value)) {
                r.error("duplicated enforcements \"%s\" in enforceNodeAllocatable (--enforce-node-allocatable)",
                        value);
                continue;
            }
            switch (value) {
                case "pods" -> {
                }
                case "system-reserved" -> r.check(kc.systemReservedCgroup().isEmpty(),
                        "systemReservedCgroup (--system-reserved-cgroup) must be specified when \"system-reserved\" "
                                + "contained in enforceNodeAllocatable (--enforce-node-allocatable)");
                case "kube-reserved" -> r.check(kc.kubeReservedCgroup().isEmpty(),
                        "kubeReservedCgroup (--kube-reserved-cgroup) must be specified when \"kube-reserved\" "
                                + "contained in enforceNodeAllocatable (--enforce-node-allocatable)");
                case "none" -> {
                    r.check(enforcements.size() > 1, "enforceNodeAllocatable (--enforce-node-allocatable) may not "
                            + "contain additional enforcements when \"none\" is specified");
                    continue;
                }
                default -> {
                    r.error("option \"%s\" specified for enforceNodeAllocatable (--enforce-node-allocatable). "
                            + "Valid options are \"pods\", \"system-reserved\", \"kube-reserved\", or \"none\"", value);
                    continue;
                }
            }
            r.check(!Boolean.TRUE.equals(kc.cgroupsPerQOS()), "cgroupsPerQOS (--cgroups-per-qos) must be set to "
                    + "true when \"%s\" contained in enforceNodeAllocatable (--enforce-node-allocatable)", value);
        }
    }

    static void validateReservedMemory(KubeletConfiguration kc, ConfigRules r) {
        if (kc.reservedMemory() == null) {
            return;
        }
        Set<String> seen = new HashSet<>();
        for (MemoryReservation reservation : kc.reservedMemory()) {
            for (Map.Entry<String, String> limit : reservation.limits().entrySet()) {
                String key = reservation.numaNode() + "/" + limit.getKey();
                r.check(!seen.add(key), "the reserved memory has a duplicate value for NUMA node %d and resource %s",
                        reservation.numaNode(), limit.getKey());
                Quantity quantity = parseQuantity(limit.getValue());
                r.check(quantity == null, "reservedMemory limit \"%s\" for NUMA node %d and resource %s is not a "
                        + "valid quantity", limit.getValue(), reservation.numaNode(), limit.getKey());
                r.check(quantity != null && quantity.getNumericalAmount().signum() == 0,
                        "reserved memory may not be zero for NUMA node %d and resource %s",
                        reservation.numaNode(), limit.getKey());
            }
        }
    }

    /** Parses a Kubernetes quantity, or null if it is not one. */
    static Quantity parseQuantity(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            Quantity quantity = Quantity.parse(text);
            quantity.getNumericalAmount();
            return quantity;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Parses a Linux CPU list ("0-3,5"); returns the error, or null when it is valid. */
    static String cpusetError(String list) {
        try {
            CpuSet.parse(list);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }
}
