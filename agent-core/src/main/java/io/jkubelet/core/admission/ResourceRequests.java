package io.jkubelet.core.admission;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.podutil.PodResources;

import java.util.Map;

/**
 * A pod's effective resource request as the scheduler and the kubelet's admission compute it (upstream
 * {@code resourcehelper.PodRequests}, see {@link PodResources#requests}), in the units upstream compares:
 * {@code cpu} in millicores, everything else in its base unit.
 */
public final class ResourceRequests {
    public static final String CPU = PodResources.CPU;
    public static final String MEMORY = PodResources.MEMORY;
    public static final String EPHEMERAL_STORAGE = "ephemeral-storage";
    public static final String PODS = "pods";

    private ResourceRequests() {}

    public static Map<String, Long> of(Pod pod) {
        return PodResources.requests(pod);
    }

    static Map<String, Long> amounts(Map<String, Quantity> list) {
        return PodResources.amounts(list);
    }
}
