package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.container.RuntimePodStatus;

/**
 * What a pod worker calls (upstream {@code podSyncer}): one call at a time per pod, on that pod's worker thread
 * only, so each may take as long as the runtime does. Each gets the pod's runtime state as read after the
 * worker's previous call, so that it never acts twice on what it did itself.
 */
public interface PodSyncer {
    /** Syncs a pod that should run; returns what to do next. */
    PodWorkers.SyncOutcome syncPod(PodWorkers.UpdateType type, Pod pod, RuntimePodStatus podStatus) throws Exception;

    /** Stops every container of the pod. */
    void syncTerminatingPod(Pod pod, RuntimePodStatus podStatus, Long gracePeriodOverride) throws Exception;

    /** Releases what the stopped pod still holds (volumes). */
    void syncTerminatedPod(Pod pod, RuntimePodStatus podStatus) throws Exception;
}
