package io.jkubelet.core.admission;

import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;

/**
 * Decides whether a new pod may run on this node (upstream {@code lifecycle.PodAdmitHandler}); the kubelet asks each
 * of its handlers in turn and the first refusal fails the pod. Implementations must be thread-safe.
 */
@FunctionalInterface
public interface PodAdmitHandler {
    /** @param otherPods the pods admitted before and still active */
    PodAdmitResult admit(Pod pod, List<Pod> otherPods);
}
