package io.jkubelet.core.qos;

import io.jkubelet.core.config.ConfigAnnotations;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Map;

/**
 * Which pods the kubelet treats as critical (upstream {@code pkg/kubelet/types/pod_update.go}):
 * static and mirror pods, and pods whose priority is at least {@link #SYSTEM_CRITICAL_PRIORITY}.
 * Stateless and thread-safe.
 */
public final class CriticalPods {

    /** scheduling.SystemCriticalPriority: 2 * HighestUserDefinablePriority (1e9). */
    public static final int SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;
    /** The priority class of pods that must never be evicted from their node. */
    public static final String SYSTEM_NODE_CRITICAL = "system-node-critical";
    /** Annotation naming the pod's source ("file", "http", "api"). */

    private CriticalPods() {
    }

    /** A pod that did not come from the apiserver (its source annotation says file or http). */
    public static boolean isStaticPod(Pod pod) {
        return ConfigAnnotations.isStaticPod(pod);
    }

    public static boolean isMirrorPod(Pod pod) {
        return ConfigAnnotations.isMirrorPod(pod);
    }

    /** {@code IsCriticalPod}: static, mirror, or priority at least {@link #SYSTEM_CRITICAL_PRIORITY}. */
    public static boolean isCriticalPod(Pod pod) {
        if (isStaticPod(pod) || isMirrorPod(pod)) {
            return true;
        }
        Integer priority = pod.getSpec() == null ? null : pod.getSpec().getPriority();
        return priority != null && priority >= SYSTEM_CRITICAL_PRIORITY;
    }

    /** {@code IsNodeCriticalPod}: critical and of priority class {@value #SYSTEM_NODE_CRITICAL}. */
    public static boolean isNodeCriticalPod(Pod pod) {
        return isCriticalPod(pod) && pod.getSpec() != null
                && SYSTEM_NODE_CRITICAL.equals(pod.getSpec().getPriorityClassName());
    }

    private static Map<String, String> annotations(Pod pod) {
        ObjectMeta meta = pod.getMetadata();
        return meta == null || meta.getAnnotations() == null ? Map.of() : meta.getAnnotations();
    }
}
