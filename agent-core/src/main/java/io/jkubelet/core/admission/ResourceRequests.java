package io.jkubelet.core.admission;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A pod's effective resource request as the scheduler and the kubelet's admission compute it (upstream
 * {@code resourcehelper.PodRequests}): the sum of the app containers and the sidecars (restartable init
 * containers), or the largest an init container needs while it runs (with the sidecars started before
 * it), whichever is larger, plus {@code spec.overhead}.
 *
 * <p>Amounts are in the units upstream compares: {@code cpu} in millicores, everything else in its
 * base unit (bytes for memory, ephemeral-storage and hugepages), rounded up as {@code MilliValue()} and
 * {@code Value()} round. Requests only: API defaulting has already copied limits into absent requests.
 */
public final class ResourceRequests {
    public static final String CPU = "cpu";
    public static final String MEMORY = "memory";
    public static final String EPHEMERAL_STORAGE = "ephemeral-storage";
    public static final String PODS = "pods";

    private ResourceRequests() {}

    public static Map<String, Long> of(Pod pod) {
        Map<String, Long> reqs = new LinkedHashMap<>();
        for (Container c : containers(pod.getSpec().getContainers())) {
            add(reqs, amounts(c.getResources() == null ? null : c.getResources().getRequests()));
        }
        Map<String, Long> sidecars = new LinkedHashMap<>();
        Map<String, Long> initMax = new LinkedHashMap<>();
        for (Container c : containers(pod.getSpec().getInitContainers())) {
            Map<String, Long> own = amounts(c.getResources() == null ? null : c.getResources().getRequests());
            Map<String, Long> whileRunning;
            if ("Always".equals(c.getRestartPolicy())) {
                // A sidecar keeps running beside the app containers, and beside every init container after it.
                add(reqs, own);
                add(sidecars, own);
                whileRunning = new LinkedHashMap<>(sidecars);
            } else {
                whileRunning = new LinkedHashMap<>(own);
                add(whileRunning, sidecars);
            }
            max(initMax, whileRunning);
        }
        max(reqs, initMax);
        add(reqs, amounts(pod.getSpec().getOverhead()));
        return reqs;
    }

    /** A quantity in the unit upstream compares for {@code resource}. */
    public static long amount(String resource, Quantity q) {
        BigDecimal v = Quantity.getAmountInBytes(q);
        if (CPU.equals(resource)) {
            v = v.multiply(BigDecimal.valueOf(1000));
        }
        return v.setScale(0, RoundingMode.CEILING).longValueExact();
    }

    static Map<String, Long> amounts(Map<String, Quantity> list) {
        Map<String, Long> out = new LinkedHashMap<>();
        if (list != null) {
            list.forEach((name, q) -> out.put(name, amount(name, q)));
        }
        return out;
    }

    private static List<Container> containers(List<Container> l) {
        return l == null ? List.of() : l;
    }

    private static void add(Map<String, Long> to, Map<String, Long> more) {
        more.forEach((k, v) -> to.merge(k, v, Long::sum));
    }

    private static void max(Map<String, Long> to, Map<String, Long> other) {
        other.forEach((k, v) -> to.merge(k, v, Math::max));
    }
}
