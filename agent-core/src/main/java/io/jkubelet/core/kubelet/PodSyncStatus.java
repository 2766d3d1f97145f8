package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * One pod's worker as {@link PodSyncStatuses} keeps it (upstream {@code podSyncStatus}): its state, the work waiting
 * for it and what the kills asked. Not thread-safe: only {@link PodSyncStatuses} touches it, under its lock.
 */
final class PodSyncStatus {
    private final String uid;
    private PodWorkerState state = PodWorkerState.SYNCING;
    /** The latest pod handed over: every update replaces it, whatever its type. */
    Pod pod;
    /** The work waiting for the worker (the strongest update since it last looked; a kill is never replaced); null: none. */
    SyncPodType pending;
    /** A thread runs the worker: the next update waits for it instead of starting another. */
    boolean working;
    /** The same UID was wanted again while it was torn down (upstream's {@code restartRequested}). */
    boolean restartRequested;
    /** Until when a failed stage backs off (a SYNC waits for it), or null after one that went well. */
    Instant backOffUntil;
    /** Taken as the last stage ended: the next one needs a runtime state read after it. */
    long lastSyncMark;
    /** What the kills asked while the pod was syncing or terminating (upstream's {@code KillPodOptions}). */
    private final Kill kill = new Kill();

    PodSyncStatus(String uid) {
        this.uid = uid;
    }

    PodWorkerState state() {
        return state;
    }

    /**
     * Moves to {@code next}, as upstream's pod workers may (see {@link PodWorkerState}); a back-off belongs to the
     * stage that failed, and a restarted pod starts with nothing of its previous life.
     *
     * @throws IllegalStateException for a move upstream never makes: the pod workers' own logic is broken
     */
    void moveTo(PodWorkerState next) {
        if (!state.canMoveTo(next)) {
            throw new IllegalStateException("pod worker of " + uid + " cannot move from " + state + " to " + next);
        }
        state = next;
        backOffUntil = null;
        if (next == PodWorkerState.SYNCING) {
            restartRequested = false;
            kill.clear();
        }
    }

    /** A SYNC now would cut short the back-off of a stage that failed. */
    boolean backingOff(SyncPodType type, Instant now) {
        return type == SyncPodType.SYNC && backOffUntil != null && now.isBefore(backOffUntil);
    }

    /** Adds a kill's grace period, status change and waiter to those asked before. */
    void addKill(Long gracePeriodOverride, Consumer<PodStatus> podStatusFn, CompletableFuture<Void> completed) {
        if (gracePeriodOverride != null) {
            // A grace period can only get shorter (upstream calculateEffectiveGracePeriod).
            kill.gracePeriodOverride = kill.gracePeriodOverride == null ? gracePeriodOverride
                    : Math.min(kill.gracePeriodOverride, gracePeriodOverride);
        }
        if (podStatusFn != null) {
            // Applied in the order asked, as upstream's statusPostTerminating.
            kill.podStatusFn = kill.podStatusFn == null ? podStatusFn : kill.podStatusFn.andThen(podStatusFn);
        }
        if (completed != null) {
            kill.completed.add(completed);
        }
    }

    Long gracePeriodOverride() {
        return kill.gracePeriodOverride;
    }

    Consumer<PodStatus> podStatusFn() {
        return kill.podStatusFn;
    }

    /** Takes the kills' waiters, to be told the containers are stopped (upstream's {@code CompletedCh}). */
    List<CompletableFuture<Void>> takeKillWaiters() {
        List<CompletableFuture<Void>> waiters = List.copyOf(kill.completed);
        kill.completed.clear();
        return waiters;
    }

    private static final class Kill {
        Long gracePeriodOverride;
        Consumer<PodStatus> podStatusFn;
        final List<CompletableFuture<Void>> completed = new ArrayList<>();

        void clear() {
            gracePeriodOverride = null;
            podStatusFn = null;
            completed.clear();
        }
    }
}
