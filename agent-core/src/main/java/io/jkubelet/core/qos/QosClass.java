package io.jkubelet.core.qos;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A pod's quality-of-service class, computed as upstream {@code GetPodQOS} (v1.30,
 * {@code pkg/apis/core/v1/helper/qos}): only cpu and memory count, summed over regular and init
 * containers; a quantity of zero counts as absent.
 */
public enum QosClass {
    /** Every container has cpu and memory limits, and the summed requests equal the summed limits. */
    GUARANTEED("Guaranteed"),
    /** Neither guaranteed nor best-effort. */
    BURSTABLE("Burstable"),
    /** No container has a cpu or memory request or limit. */
    BEST_EFFORT("BestEffort");

    private static final Set<String> COMPUTE_RESOURCES = Set.of("cpu", "memory");

    private final String value;

    QosClass(String value) {
        this.value = value;
    }

    /** The API value ({@code status.qosClass}): {@code Guaranteed}, {@code Burstable} or {@code BestEffort}. */
    public String value() {
        return value;
    }

    /** The class named by an API value. */
    public static QosClass fromValue(String value) {
        for (QosClass qos : values()) {
            if (qos.value.equals(value)) {
                return qos;
            }
        }
        throw new IllegalArgumentException("unknown QoS class \"" + value + "\"");
    }

    /**
     * {@code GetPodQOS}: the class recorded in {@code status.qosClass} when there is one (it never
     * changes once set), else {@link #compute}.
     */
    public static QosClass of(Pod pod) {
        PodStatus status = pod.getStatus();
        if (status != null && status.getQosClass() != null && !status.getQosClass().isEmpty()) {
            return fromValue(status.getQosClass());
        }
        return compute(pod);
    }

    /** {@code ComputePodQOS}: the class from the containers' resources, ignoring {@code status}. */
    public static QosClass compute(Pod pod) {
        Map<String, BigDecimal> requests = new HashMap<>();
        Map<String, BigDecimal> limits = new HashMap<>();
        boolean guaranteed = true;
        for (Container container : regularThenInitContainers(pod.getSpec())) {
            ResourceRequirements resources = container.getResources();
            Map<String, Quantity> containerRequests = resources == null ? null : resources.getRequests();
            Map<String, Quantity> containerLimits = resources == null ? null : resources.getLimits();
            sumPositive(containerRequests, requests, null);
            Set<String> limitsFound = new HashSet<>();
            sumPositive(containerLimits, limits, limitsFound);
            if (!limitsFound.containsAll(COMPUTE_RESOURCES)) {
                guaranteed = false;
            }
        }
        if (requests.isEmpty() && limits.isEmpty()) {
            return BEST_EFFORT;
        }
        if (guaranteed) {
            for (Map.Entry<String, BigDecimal> request : requests.entrySet()) {
                BigDecimal limit = limits.get(request.getKey());
                if (limit == null || limit.compareTo(request.getValue()) != 0) {
                    guaranteed = false;
                    break;
                }
            }
        }
        // Limits without requests (a pod not defaulted by an apiserver) are not Guaranteed upstream either.
        return guaranteed && requests.size() == limits.size() ? GUARANTEED : BURSTABLE;
    }

    private static void sumPositive(Map<String, Quantity> quantities, Map<String, BigDecimal> sums,
            Set<String> found) {
        if (quantities == null) {
            return;
        }
        for (Map.Entry<String, Quantity> entry : quantities.entrySet()) {
            if (!COMPUTE_RESOURCES.contains(entry.getKey()) || entry.getValue() == null) {
                continue;
            }
            BigDecimal amount = entry.getValue().getNumericalAmount();
            if (amount.signum() > 0) {
                if (found != null) {
                    found.add(entry.getKey());
                }
                sums.merge(entry.getKey(), amount, BigDecimal::add);
            }
        }
    }

    private static List<Container> regularThenInitContainers(PodSpec spec) {
        List<Container> all = new ArrayList<>();
        if (spec != null) {
            if (spec.getContainers() != null) {
                all.addAll(spec.getContainers());
            }
            if (spec.getInitContainers() != null) {
                all.addAll(spec.getInitContainers());
            }
        }
        return all;
    }
}
