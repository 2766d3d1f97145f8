package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.container.RuntimePodStatus;

/**
 * A node manager's part in a pod worker's stages (upstream's calls out of {@code SyncPod}, {@code SyncTerminatingPod}
 * and {@code SyncTerminatedPod}: the pod cgroup, and next the volumes' {@code WaitForAttachAndMount} and
 * {@code WaitForUnmount}). The kubelet calls its hooks in the order the assembly lists them, on the pod's worker
 * thread, one pod stage at a time; a hook may take as long as its I/O does.
 */
public interface PodSyncHook {
    /**
     * Before the runtime brings the pod's containers to its spec (after its status was generated and stored).
     *
     * @return false when the pod cannot run now: the hook reported why (an event, a log line) and the sync is tried
     *     again after the pod workers' back-off period; the hooks after it are not called
     */
    default boolean beforeSync(Pod pod, PodStatus apiStatus, RuntimePodStatus podStatus) {
        return true;
    }

    /** After the pod's containers were stopped; a failure is the hook's to log. */
    default void afterKill(Pod pod) {}

    /**
     * Once the pod is terminated: releases what it still holds.
     *
     * @throws Exception when that failed: the worker tries the terminated stage again after its back-off
     */
    default void terminated(Pod pod) throws Exception {}
}
