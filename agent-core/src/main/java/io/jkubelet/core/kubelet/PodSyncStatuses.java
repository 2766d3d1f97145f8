package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.podutil.PodSpecs;

import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Every pod worker's state and the decisions that move it (upstream {@code podWorkers.podSyncStatuses} and the
 * bookkeeping of {@code UpdatePod}, {@code startPodSync} and {@code completeWork}), apart from the threads that do
 * the work ({@link PodWorkers}): the other parts of the kubelet read here whether a pod may still have running
 * containers or is terminated, and the state machine is tested without threads. Each pod's state moves only as
 * {@link PodWorkerState} allows; an illegal move throws. Thread-safe.
 */
public final class PodSyncStatuses {
    /**
     * What a worker does next.
     *
     * @param stage the state whose work it is ({@code SyncPod}, {@code SyncTerminatingPod} or {@code SyncTerminatedPod})
     * @param type the update behind a sync
     * @param gracePeriodOverride with termination, the shortest grace period a kill asked for, or null
     * @param podStatusFn with termination, what the kills asked of the pod's status, or null
     * @param lastSyncMark the runtime state must be read after this mark
     */
    record PodWork(PodWorkerState stage, SyncPodType type, Pod pod, Long gracePeriodOverride,
                   Consumer<PodStatus> podStatusFn, long lastSyncMark) {}

    private final Map<String, PodSyncStatus> statuses = new HashMap<>();

    /**
     * Records an update (upstream {@code UpdatePod}): a kill, or a pod being deleted, moves a syncing pod to
     * terminating; a pod wanted again once finished syncs afresh; other updates of a pod being torn down only retry a
     * stage that failed; a SYNC waits for a back-off. Nothing replaces a pending kill.
     *
     * @param killCompleted with a kill, told once the containers are stopped (at once when they are already), or null
     * @return true when the caller must start the pod's worker: it has work and no thread runs it
     */
    synchronized boolean update(SyncPodType type, Pod pod, Long gracePeriodOverride, Consumer<PodStatus> podStatusFn,
                                CompletableFuture<Void> killCompleted, Instant now) {
        PodSyncStatus s = statuses.computeIfAbsent(pod.getMetadata().getUid(), PodSyncStatus::new);
        s.pod = pod;
        if (type == SyncPodType.KILL || PodSpecs.isBeingDeleted(pod)) {
            s.restartRequested = false;
            if (s.state() == PodWorkerState.SYNCING) {
                s.moveTo(PodWorkerState.TERMINATING);
            }
            if (s.state() == PodWorkerState.TERMINATING) {
                s.addKill(gracePeriodOverride, podStatusFn, killCompleted);
            } else if (killCompleted != null) {
                killCompleted.complete(null); // its containers are stopped already
            }
            s.pending = SyncPodType.KILL;
        } else if (s.state().terminationRequested()) {
            if (type == SyncPodType.CREATE) {
                // The pod is wanted again (its manifest came back): like upstream's static pods, it starts afresh once
                // the previous instance has finished terminating.
                if (s.state() != PodWorkerState.FINISHED) {
                    s.restartRequested = true;
                    return false;
                }
                s.moveTo(PodWorkerState.SYNCING);
                s.pending = SyncPodType.CREATE;
            } else if (s.working || s.state() == PodWorkerState.FINISHED || s.backingOff(type, now)) {
                return false; // updates of a pod being torn down change nothing
            } else {
                s.pending = type; // an idle worker short of finished: its last stage failed, try it again
            }
        } else if (s.backingOff(type, now)) {
            return false; // the queued retry at the back-off's end syncs it
        } else if (s.pending == null || s.pending == SyncPodType.SYNC) {
            s.pending = type;
        }
        boolean start = !s.working && s.state() != PodWorkerState.FINISHED && s.pending != null;
        if (start) {
            s.working = true;
        }
        return start;
    }

    /**
     * Takes the pod's pending work for its worker (upstream {@code startPodSync}); a SYNC that came in while a stage that
     * then failed was running is dropped, the back-off's retry brings it.
     *
     * @return empty when there is nothing to do: the worker stops, and the next update starts it again
     */
    synchronized Optional<PodWork> next(String uid, Instant now) {
        PodSyncStatus s = statuses.get(uid);
        if (s == null) {
            return Optional.empty();
        }
        if (s.backingOff(s.pending, now)) {
            s.pending = null;
        }
        if (s.pending == null || s.state() == PodWorkerState.FINISHED) {
            s.working = false;
            return Optional.empty();
        }
        PodWork work = new PodWork(s.state(), s.pending, s.pod, s.gracePeriodOverride(), s.podStatusFn(), s.lastSyncMark);
        s.pending = null;
        return Optional.of(work);
    }

    /** The sync found the pod terminal (Succeeded or Failed): it is terminated next, unless a kill got there first. */
    synchronized void becameTerminal(String uid) {
        PodSyncStatus s = statuses.get(uid);
        if (s.state() == PodWorkerState.SYNCING) {
            s.moveTo(PodWorkerState.TERMINATING);
        }
        runNext(s);
    }

    /**
     * The pod's containers are stopped: it is terminated, and its worker releases what it holds next.
     *
     * @return those waiting for the kill, to be told
     */
    synchronized List<CompletableFuture<Void>> containersStopped(String uid) {
        PodSyncStatus s = statuses.get(uid);
        s.moveTo(PodWorkerState.TERMINATED);
        runNext(s);
        return s.takeKillWaiters();
    }

    /** The terminated pod released what it held: finished, or wanted again and so syncing afresh. */
    synchronized void resourcesReleased(String uid) {
        PodSyncStatus s = statuses.get(uid);
        s.moveTo(PodWorkerState.FINISHED);
        if (s.restartRequested) {
            s.moveTo(PodWorkerState.SYNCING);
            s.pending = SyncPodType.CREATE;
        }
    }

    /** Moves straight on to the next state's work, unless an update is waiting already. */
    private static void runNext(PodSyncStatus s) {
        if (s.pending == null) {
            s.pending = SyncPodType.SYNC;
        }
    }

    /** The stage failed: a SYNC waits until {@code until}. */
    synchronized void backOff(String uid, Instant until) {
        PodSyncStatus s = statuses.get(uid);
        if (s != null) {
            s.backOffUntil = until;
        }
    }

    /** The stage went well: no back-off. */
    synchronized void clearBackOff(String uid) {
        PodSyncStatus s = statuses.get(uid);
        if (s != null) {
            s.backOffUntil = null;
        }
    }

    /** The stage ended at runtime-state {@code mark}: the next one reads a state newer than it. */
    synchronized void synced(String uid, long mark) {
        PodSyncStatus s = statuses.get(uid);
        if (s != null) {
            s.lastSyncMark = mark;
        }
    }

    /** The worker was interrupted (the kubelet stops): no thread runs it any more. */
    synchronized void stoppedWorking(String uid) {
        PodSyncStatus s = statuses.get(uid);
        if (s != null) {
            s.working = false;
        }
    }

    /** The pod of a worker being torn down, whose failed stage is due again; empty for any other. */
    synchronized Optional<Pod> tornDownPod(String uid) {
        PodSyncStatus s = statuses.get(uid);
        return s == null || !s.state().terminationRequested() || s.state() == PodWorkerState.FINISHED
                ? Optional.empty() : Optional.of(s.pod);
    }

    /** The pod's worker state; empty for a pod no worker has. */
    public synchronized Optional<PodWorkerState> state(String uid) {
        PodSyncStatus s = statuses.get(uid);
        return s == null ? Optional.empty() : Optional.of(s.state());
    }

    /** Upstream {@code IsPodTerminationRequested}: the pod's worker is terminating it or has. */
    public synchronized boolean isTerminationRequested(String uid) {
        PodSyncStatus s = statuses.get(uid);
        return s != null && s.state().terminationRequested();
    }

    /** Whether the pod's worker finished with it, or it never had one. */
    public synchronized boolean isTerminated(String uid) {
        PodSyncStatus s = statuses.get(uid);
        return s == null || s.state() == PodWorkerState.FINISHED;
    }

    /**
     * Upstream {@code ShouldPodRuntimeBeRemoved} as the volume manager asks it: the pod's worker has stopped its
     * containers (terminated or finished), or no worker has the pod.
     */
    public synchronized boolean hasStoppedContainers(String uid) {
        PodSyncStatus s = statuses.get(uid);
        return s == null || s.state() == PodWorkerState.TERMINATED || s.state() == PodWorkerState.FINISHED;
    }

    /**
     * Upstream {@code CouldHaveRunningContainers}: whether the pod's worker may still have containers running (syncing,
     * or terminating until its containers are stopped). False for a pod no worker has: what the runtime holds of it is
     * an orphan's, which housekeeping kills.
     */
    public synchronized boolean couldHaveRunningContainers(String uid) {
        PodSyncStatus s = statuses.get(uid);
        return s != null && s.state().couldHaveRunningContainers();
    }

    public synchronized boolean isKnown(String uid) {
        return statuses.containsKey(uid);
    }

    public synchronized Set<String> knownUids() {
        return new HashSet<>(statuses.keySet());
    }

    /** Drops a finished worker (upstream {@code SyncKnownPods}); later updates for the UID start afresh. */
    synchronized boolean forget(String uid) {
        PodSyncStatus s = statuses.get(uid);
        if (s != null && s.state() == PodWorkerState.FINISHED) {
            statuses.remove(uid);
            return true;
        }
        return false;
    }
}
