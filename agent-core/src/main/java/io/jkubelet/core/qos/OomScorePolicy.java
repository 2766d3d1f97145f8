package io.jkubelet.core.qos;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;

/**
 * The {@code oom_score_adj} the kubelet gives its own process, pod sandboxes and containers (upstream
 * {@code pkg/kubelet/qos/policy.go}, v1.30, and dockershim for the sandbox). Lower values are killed
 * later by the kernel's OOM killer. Stateless and thread-safe.
 */
public final class OomScorePolicy {

    /** The kubelet process: after nothing but the kernel's own -1000. */
    public static final int KUBELET_OOM_SCORE_ADJ = -999;
    /** kube-proxy, as the kubelet. */
    public static final int KUBE_PROXY_OOM_SCORE_ADJ = -999;
    /** The pod sandbox ("pause") container, as dockershim set it: after the kubelet, before pods. */
    public static final int POD_INFRA_OOM_SCORE_ADJ = -998;
    /** Guaranteed and node-critical pods. */
    public static final int GUARANTEED_OOM_SCORE_ADJ = -997;
    /** Best-effort pods: first to go. */
    public static final int BEST_EFFORT_OOM_SCORE_ADJ = 1000;

    private OomScorePolicy() {
    }

    /**
     * {@code GetContainerOOMScoreAdjust}: -997 for node-critical and Guaranteed pods, 1000 for
     * BestEffort pods; for Burstable pods {@code 1000 - 1000 * memoryRequest / memoryCapacity}, kept in
     * [3, 999] so that Burstable containers always sit between the other two classes. A sidecar (an
     * init container with {@code restartPolicy: Always}) never gets a higher score than the regular
     * container with the smallest memory request.
     *
     * @param memoryCapacity the node's memory capacity in bytes; must be positive
     */
    public static int containerOomScoreAdjust(Pod pod, Container container, long memoryCapacity) {
        if (memoryCapacity <= 0) {
            throw new IllegalArgumentException("memoryCapacity must be positive, got " + memoryCapacity);
        }
        if (CriticalPods.isNodeCriticalPod(pod)) {
            return GUARANTEED_OOM_SCORE_ADJ;
        }
        switch (QosClass.of(pod)) {
            case GUARANTEED -> {
                return GUARANTEED_OOM_SCORE_ADJ;
            }
            case BEST_EFFORT -> {
                return BEST_EFFORT_OOM_SCORE_ADJ;
            }
            case BURSTABLE -> {
                // computed below
            }
        }
        // Java long arithmetic wraps and truncates exactly as Go's int64 does.
        long oomScoreAdjust = 1000 - (1000 * memoryRequest(container)) / memoryCapacity;
        if (isSidecarContainer(pod, container)) {
            long minRegular = 1000 - (1000 * minRegularContainerMemory(pod)) / memoryCapacity;
            oomScoreAdjust = Math.min(oomScoreAdjust, minRegular);
        }
        // A Guaranteed pod using all memory can score 10: keep Burstable above it.
        if (oomScoreAdjust < 1000 + GUARANTEED_OOM_SCORE_ADJ) {
            return 1000 + GUARANTEED_OOM_SCORE_ADJ;
        }
        // Give Burstable pods a better chance than BestEffort ones.
        if (oomScoreAdjust == BEST_EFFORT_OOM_SCORE_ADJ) {
            return BEST_EFFORT_OOM_SCORE_ADJ - 1;
        }
        return (int) oomScoreAdjust;
    }

    private static boolean isSidecarContainer(Pod pod, Container container) {
        List<Container> initContainers = pod.getSpec() == null ? null : pod.getSpec().getInitContainers();
        if (initContainers == null) {
            return false;
        }
        for (Container init : initContainers) {
            if (init.getName() != null && init.getName().equals(container.getName())) {
                return "Always".equals(container.getRestartPolicy());
            }
        }
        return false;
    }

    private static long minRegularContainerMemory(Pod pod) {
        List<Container> containers = pod.getSpec().getContainers();
        if (containers == null || containers.isEmpty()) {
            return 0;
        }
        long min = memoryRequest(containers.get(0));
        for (Container c : containers.subList(1, containers.size())) {
            min = Math.min(min, memoryRequest(c));
        }
        return min;
    }

    /** {@code Requests.Memory().Value()}: bytes, rounded up; 0 when absent. */
    static long memoryRequest(Container container) {
        if (container.getResources() == null) {
            return 0;
        }
        Map<String, Quantity> requests = container.getResources().getRequests();
        Quantity memory = requests == null ? null : requests.get("memory");
        if (memory == null) {
            return 0;
        }
        return memory.getNumericalAmount().setScale(0, RoundingMode.CEILING).longValue();
    }
}
