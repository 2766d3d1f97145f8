package io.jkubelet.core.eviction;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.jkubelet.core.admission.PodAdmitHandler;
import io.jkubelet.core.admission.PodAdmitResult;
import io.jkubelet.core.admission.Taints;
import io.jkubelet.core.nodestatus.NodeConditions;
import io.jkubelet.core.podutil.PodSpecs;
import io.jkubelet.core.qos.CriticalPods;
import io.jkubelet.core.qos.QosClass;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.function.Supplier;

/**
 * Refuses new pods the node under pressure cannot take (upstream eviction manager's {@code Admit}): under memory
 * pressure alone, BestEffort pods (unless they tolerate the memory-pressure taint); under any other pressure, every pod.
 * Critical pods are always admitted. A refused pod fails with reason {@code Evicted} and "The node had condition:
 * [MemoryPressure]. ". Thread-safe.
 */
public final class EvictionAdmitHandler implements PodAdmitHandler {
    private static final Logger log = LoggerFactory.getLogger(EvictionAdmitHandler.class);
    static final String NODE_CONDITION_MESSAGE = "The node had condition: %s. ";
    /** {@code v1.TaintNodeMemoryPressure} with the effect the node lifecycle controller gives it. */
    private static final Taint MEMORY_PRESSURE_TAINT = new TaintBuilder().withKey("node.kubernetes.io/memory-pressure")
            .withEffect("NoSchedule").build();

    private final Supplier<List<String>> nodeConditions;

    /** @param nodeConditions the node's pressure conditions now ({@link EvictionManager#nodeConditions()}) */
    public EvictionAdmitHandler(Supplier<List<String>> nodeConditions) {
        this.nodeConditions = nodeConditions;
    }

    @Override
    public PodAdmitResult admit(Pod pod, List<Pod> otherPods) {
        return admit(pod);
    }

    public PodAdmitResult admit(Pod pod) {
        List<String> conditions = nodeConditions.get();
        if (conditions.isEmpty() || CriticalPods.isCriticalPod(pod)) {
            return PodAdmitResult.ADMIT;
        }
        if (conditions.equals(List.of(NodeConditions.MEMORY_PRESSURE))) {
            if (QosClass.of(pod) != QosClass.BEST_EFFORT) {
                return PodAdmitResult.ADMIT;
            }
            if (Taints.findUntolerated(List.of(MEMORY_PRESSURE_TAINT), pod.getSpec().getTolerations(), t -> true).isEmpty()) {
                return PodAdmitResult.ADMIT;
            }
        }
        log.info("Failed to admit pod {} to node, node conditions {}", PodSpecs.format(pod), conditions);
        // Go prints a list of conditions as [A B].
        return PodAdmitResult.reject(EvictionManager.REASON,
                NODE_CONDITION_MESSAGE.formatted("[" + String.join(" ", conditions) + "]"));
    }
}
