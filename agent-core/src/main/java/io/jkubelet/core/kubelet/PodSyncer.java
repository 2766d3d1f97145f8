package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.container.RuntimePodStatus;

import java.util.function.Consumer;

/**
 * What a pod worker calls (upstream {@code podSyncer}): one call at a time per pod, on that pod's worker thread
 * only, so each may take as long as the runtime does. Each gets the pod's runtime state as read after the
 * worker's previous call, so that it never acts twice on what it did itself.
 */
public interface PodSyncer {
    /** Syncs a pod that should run; returns what to do next. */
    SyncOutcome syncPod(SyncPodType type, Pod pod, RuntimePodStatus podStatus) throws Exception;

    /**
     * Stops every container of the pod.
     *
     * @param podStatusFn changes the pod's status before its containers are stopped (an eviction fails it), or null
     */
    void syncTerminatingPod(Pod pod, RuntimePodStatus podStatus, Long gracePeriodOverride,
                            Consumer<PodStatus> podStatusFn) throws Exception;

    /** Releases what the stopped pod still holds (volumes). */
    void syncTerminatedPod(Pod pod, RuntimePodStatus podStatus) throws Exception;
}
