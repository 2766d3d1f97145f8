package io.jkubelet.core.kubelet;

/**
 * Where a pod's worker is in the pod's life (upstream {@code podSyncStatus}: syncing until {@code terminatingAt},
 * terminating until {@code terminatedAt}, terminated until {@code finished}). Each state names the work its
 * worker does next; the moves between them are the only ones upstream's pod workers make:
 *
 * <pre>
 *   SYNCING --kill, deletion or a terminal phase--> TERMINATING --containers stopped--> TERMINATED
 *      ^                                                                                     |
 *      +------- the same UID wanted again (a static pod's manifest back) --- FINISHED <--resources released
 * </pre>
 */
public enum PodWorkerState {
    /** The pod should run: its worker brings the runtime to the spec ({@code SyncPod}). */
    SYNCING,
    /** The pod must stop: its worker stops its containers ({@code SyncTerminatingPod}). */
    TERMINATING,
    /** Its containers are stopped: its worker releases what the pod still holds ({@code SyncTerminatedPod}). */
    TERMINATED,
    /** Nothing is left to do; the worker waits for housekeeping to forget it, or for the pod to be wanted again. */
    FINISHED;

    /** Whether upstream's pod workers move from this state to {@code next}. */
    public boolean canMoveTo(PodWorkerState next) {
        return switch (this) {
            case SYNCING -> next == TERMINATING;
            case TERMINATING -> next == TERMINATED;
            case TERMINATED -> next == FINISHED;
            case FINISHED -> next == SYNCING;
        };
    }

    /** Upstream {@code IsTerminationRequested}: the pod will not be started again under this worker. */
    public boolean terminationRequested() {
        return this != SYNCING;
    }

    /** Upstream {@code CouldHaveRunningContainers}: its containers may still run until its worker stopped them. */
    public boolean couldHaveRunningContainers() {
        return this == SYNCING || this == TERMINATING;
    }
}
