package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;

/**
 * What a pod worker calls (upstream {@code podSyncer}): one call at a time per pod, on that pod's worker thread
 * only, so each may take as long as the runtime does.
 */
public interface PodSyncer {
    /** Syncs a pod that should run; returns what to do next. */
    PodWorkers.SyncOutcome syncPod(PodWorkers.UpdateType type, Pod pod) throws Exception;

    /** Stops every container of the pod. */
    void syncTerminatingPod(Pod pod, Long gracePeriodOverride) throws Exception;

    /** Releases what the stopped pod still holds (volumes). */
    void syncTerminatedPod(Pod pod) throws Exception;
}
