package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;

/**
 * What the sync loop calls (upstream {@code SyncHandler}). Called on the loop thread only, one call at a time;
 * each must be quick: it hands pods to their workers and never waits for the runtime, the disk or the apiserver.
 */
public interface SyncHandler {
    /** New pods from a source: admitted, then started. */
    void handlePodAdditions(List<Pod> pods);

    /** Changed pods: their workers sync them again. */
    void handlePodUpdates(List<Pod> pods);

    /** Pods a source dropped: killed, cleaned up by housekeeping. */
    void handlePodRemoves(List<Pod> pods);

    /** Pods marked for graceful deletion in the apiserver: killed with their deletion grace period. */
    void handlePodDeletes(List<Pod> pods);

    /** Pods whose status alone changed: remembered, not synced. */
    void handlePodReconcile(List<Pod> pods);

    /** Pods to sync again: a PLEG event, a probe result, a resync or a back-off that ended. */
    void handlePodSyncs(List<Pod> pods);

    /** Housekeeping: kill what should not run, clean up what removed pods left (upstream {@code HandlePodCleanups}). */
    void handlePodCleanups();
}
