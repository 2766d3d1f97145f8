package io.jkubelet.core.podutil;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A pod's effective requests and limits (upstream {@code resourcehelper.PodRequests} and {@code PodLimits}): the sum
 * of the app containers and the sidecars (restartable init containers), or the most an init container needs while
 * it runs (with the sidecars started before it), whichever is larger, plus {@code spec.overhead}: added to every
 * request, and to the limits that are set.
 *
 * <p>Amounts are in the units upstream compares: {@code cpu} in millicores, everything else in its base unit
 * (bytes for memory, ephemeral-storage and hugepages), rounded up as {@code MilliValue()} and {@code Value()}
 * round.
 */
public final class PodResources {
    public static final String CPU = "cpu";
    public static final String MEMORY = "memory";

    private PodResources() {}

    /** The pod's requests. API defaulting has already copied limits into absent requests. */
    public static Map<String, Long> requests(Pod pod) {
        Map<String, Long> reqs = aggregate(pod, ResourceRequirements::getRequests, each -> { });
        add(reqs, amounts(pod.getSpec().getOverhead()));
        return reqs;
    }

    /**
     * The pod's limits.
     *
     * @param eachContainer sees the limits in force while each container runs, as upstream's {@code ContainerFn}:
     *     an app container's own, an init container's together with the sidecars started before it
     */
    public static Map<String, Long> limits(Pod pod, Consumer<Map<String, Long>> eachContainer) {
        Map<String, Long> limits = aggregate(pod, ResourceRequirements::getLimits, eachContainer);
        amounts(pod.getSpec().getOverhead()).forEach((name, overhead) -> {
            if (limits.getOrDefault(name, 0L) != 0) {
                limits.merge(name, overhead, Long::sum);
            }
        });
        return limits;
    }

    private static Map<String, Long> aggregate(Pod pod, Function<ResourceRequirements, Map<String, Quantity>> list,
            Consumer<Map<String, Long>> eachContainer) {
        Map<String, Long> total = new LinkedHashMap<>();
        for (Container c : PodSpecs.containers(pod)) {
            Map<String, Long> own = amounts(c, list);
            eachContainer.accept(own);
            add(total, own);
        }
        Map<String, Long> sidecars = new LinkedHashMap<>();
        Map<String, Long> initMax = new LinkedHashMap<>();
        for (Container c : PodSpecs.initContainers(pod)) {
            Map<String, Long> own = amounts(c, list);
            Map<String, Long> whileRunning;
            if (PodSpecs.isRestartableInitContainer(c)) {
                // A sidecar keeps running beside the app containers, and beside every init container after it.
                add(total, own);
                add(sidecars, own);
                whileRunning = new LinkedHashMap<>(sidecars);
            } else {
                whileRunning = new LinkedHashMap<>(own);
                add(whileRunning, sidecars);
            }
            eachContainer.accept(whileRunning);
            max(initMax, whileRunning);
        }
        max(total, initMax);
        return total;
    }

    /** A quantity in the unit upstream compares for {@code resource}. */
    public static long amount(String resource, Quantity q) {
        BigDecimal v = Quantity.getAmountInBytes(q);
        if (CPU.equals(resource)) {
            v = v.multiply(BigDecimal.valueOf(1000));
        }
        return v.setScale(0, RoundingMode.CEILING).longValueExact();
    }

    /** Every quantity of a resource list in its unit; an absent list is empty. */
    public static Map<String, Long> amounts(Map<String, Quantity> list) {
        Map<String, Long> out = new LinkedHashMap<>();
        if (list != null) {
            list.forEach((name, q) -> out.put(name, amount(name, q)));
        }
        return out;
    }

    private static Map<String, Long> amounts(Container c, Function<ResourceRequirements, Map<String, Quantity>> list) {
        return amounts(c.getResources() == null ? null : list.apply(c.getResources()));
    }

    private static void add(Map<String, Long> to, Map<String, Long> more) {
        more.forEach((k, v) -> to.merge(k, v, Long::sum));
    }

    private static void max(Map<String, Long> to, Map<String, Long> other) {
        other.forEach((k, v) -> to.merge(k, v, Math::max));
    }

    /** Upstream's {@code res.Cpu().IsZero()}-style question: whether a resource list sets {@code resource} above zero. */
    public static boolean sets(Map<String, Long> amounts, String resource) {
        return amounts.getOrDefault(resource, 0L) != 0;
    }
}
