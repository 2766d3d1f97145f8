package io.jkubelet.core.kubelet;

/**
 * Why a pod is handed to its worker (upstream {@code kubetypes.SyncPodType}); the lower-case name labels the
 * pod worker's duration metric as upstream's {@code operation_type}.
 */
public enum SyncPodType {
    /** A pod admitted for the first time, or wanted again after it finished. */
    CREATE,
    /** The pod's spec or metadata changed. */
    UPDATE,
    /** Nothing changed in the pod: the runtime, a probe or a timer asks for another look. */
    SYNC,
    /** The pod must stop: removed by its source, deleted, evicted or unwanted. */
    KILL
}
