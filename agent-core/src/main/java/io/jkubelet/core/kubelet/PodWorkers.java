package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.podutil.PodSpecs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * One serial worker per pod UID (upstream {@code podWorkers}). A pod moves through syncing, terminating and
 * terminated; updates that arrive while its worker runs are coalesced so that the latest pod wins, and a
 * requested kill is never lost. After each sync the pod is queued again: after {@code resyncInterval}
 * (jittered) on success, sooner when the handler asks (a back-off that ends), or after {@code backOffPeriod}
 * (jittered) when the sync failed. A failed pod is not synced again before its back-off ends on what the runtime,
 * the probes or the ticks report (SYNC), only on a change of the pod itself or a kill: what a failed attempt
 * leaves behind (a dead sandbox) is itself a runtime event, and reacting to it would retry at once, for ever.
 * Thread-safe.
 */
public final class PodWorkers {
    private static final Logger log = LoggerFactory.getLogger(PodWorkers.class);

    public enum UpdateType { CREATE, UPDATE, SYNC, KILL }

    /**
     * @param terminal the pod will never run again (Succeeded or Failed)
     * @param retryAfter when to sync again sooner than the resync interval (a back-off ending), or null
     * @param failed the sync failed as a whole (upstream's error from {@code SyncPod}): the pod backs off
     */
    public record SyncOutcome(boolean terminal, Duration retryAfter, boolean failed) {
        public static final SyncOutcome OK = new SyncOutcome(false, null);
        public static final SyncOutcome TERMINAL = new SyncOutcome(true, null);
        public static final SyncOutcome FAILED = new SyncOutcome(false, null, true);

        public SyncOutcome(boolean terminal, Duration retryAfter) {
            this(terminal, retryAfter, false);
        }
    }

    private enum Phase { SYNCING, TERMINATING, TERMINATED }

    private static final class Worker {
        Pod pod;
        Phase phase = Phase.SYNCING;
        UpdateType pendingType;
        boolean working;
        boolean terminationRequested;
        Long gracePeriodOverride;
        /** What a kill asked of the pod's status (an eviction), applied as its termination begins. */
        Consumer<PodStatus> podStatusFn;
        /** Completed once the pod's containers are stopped, for those who asked for the kill and wait. */
        final List<CompletableFuture<Void>> killCompleted = new ArrayList<>();
        boolean finished;
        /** The source wants the pod again while it was being torn down: run it afresh once that is done. */
        boolean restartAfterTermination;
        /** Taken as the last sync ended: the next one needs a runtime state read after it. */
        long lastSyncMark;
        /** Until when a failed sync backs off (SYNC updates wait for it), or null after a sync that went well. */
        Instant backOffUntil;

        void resetToSyncing() {
            phase = Phase.SYNCING;
            terminationRequested = false;
            gracePeriodOverride = null;
            podStatusFn = null;
            finished = false;
            restartAfterTermination = false;
            pendingType = UpdateType.CREATE;
            backOffUntil = null;
        }

        /** A SYNC now would cut short the back-off of a failed sync. */
        boolean backingOff(UpdateType type, Instant now) {
            return type == UpdateType.SYNC && phase == Phase.SYNCING && !terminationRequested
                    && backOffUntil != null && now.isBefore(backOffUntil);
        }
    }

    private final PodSyncer handler;
    private final PodStatusSource statuses;
    private final Clock clock;
    private final Duration resyncInterval;
    private final Duration backOffPeriod;
    private final Executor executor;
    private final Map<String, Worker> workers = new HashMap<>();
    private final Map<String, Instant> workQueue = new ConcurrentHashMap<>();

    public PodWorkers(PodSyncer handler, PodStatusSource statuses, Clock clock, Duration resyncInterval, Duration backOffPeriod, Executor executor) {
        this.handler = handler;
        this.statuses = statuses;
        this.clock = clock;
        this.resyncInterval = resyncInterval;
        this.backOffPeriod = backOffPeriod;
        this.executor = executor;
    }

    /**
     * Hands the pod to its worker.
     *
     * @param gracePeriodOverride with KILL, seconds replacing the pod's grace period, or null
     */
    public void updatePod(UpdateType type, Pod pod, Long gracePeriodOverride) {
        update(type, pod, gracePeriodOverride, null, null);
    }

    /**
     * Kills the pod as its worker's next step (upstream {@code UpdatePod} with {@code KillPodOptions}): its status first
     * goes through {@code podStatusFn}.
     *
     * @param gracePeriodOverride seconds replacing the pod's grace period, or null
     * @return completed once the pod's containers are stopped (at once when that is done already)
     */
    public CompletableFuture<Void> killPod(Pod pod, Long gracePeriodOverride, Consumer<PodStatus> podStatusFn) {
        CompletableFuture<Void> completed = new CompletableFuture<>();
        update(UpdateType.KILL, pod, gracePeriodOverride, podStatusFn, completed);
        return completed;
    }

    private void update(UpdateType type, Pod pod, Long gracePeriodOverride, Consumer<PodStatus> podStatusFn,
                        CompletableFuture<Void> killCompleted) {
        String uid = pod.getMetadata().getUid();
        boolean start;
        synchronized (this) {
            Worker w = workers.computeIfAbsent(uid, k -> new Worker());
            w.pod = pod;
            if (type == UpdateType.KILL || PodSpecs.isBeingDeleted(pod)) {
                w.terminationRequested = true;
                w.restartAfterTermination = false;
                if (gracePeriodOverride != null) {
                    w.gracePeriodOverride = w.gracePeriodOverride == null ? gracePeriodOverride
                            : Math.min(w.gracePeriodOverride, gracePeriodOverride);
                }
                if (podStatusFn != null) {
                    w.podStatusFn = podStatusFn;
                }
                if (killCompleted != null) {
                    if (w.phase == Phase.SYNCING || w.phase == Phase.TERMINATING) {
                        w.killCompleted.add(killCompleted);
                    } else {
                        killCompleted.complete(null); // its containers are stopped already
                    }
                }
                w.pendingType = UpdateType.KILL; // never overwritten by a later update
            } else if (w.terminationRequested || w.phase != Phase.SYNCING) {
                if (type != UpdateType.CREATE) {
                    return; // updates of a pod being torn down change nothing
                }
                // The pod is wanted again (its manifest came back): like upstream's static pods, it starts
                // afresh once the previous instance has finished terminating.
                if (!w.finished) {
                    w.restartAfterTermination = true;
                    return;
                }
                w.resetToSyncing();
            } else if (w.backingOff(type, clock.instant())) {
                return; // the queued retry at the back-off's end syncs it
            } else if (w.pendingType == null || w.pendingType == UpdateType.SYNC) {
                w.pendingType = type;
            }
            start = !w.working && !w.finished;
            if (start) {
                w.working = true;
            }
        }
        if (start) {
            executor.execute(() -> run(uid));
        }
    }

    private void run(String uid) {
        while (true) {
            Pod pod;
            Phase phase;
            UpdateType type;
            Long grace;
            Consumer<PodStatus> podStatusFn;
            long lastSyncMark;
            synchronized (this) {
                Worker w = workers.get(uid);
                if (w != null && w.backingOff(w.pendingType, clock.instant())) {
                    w.pendingType = null; // came in while the sync that failed ran
                }
                if (w == null || w.pendingType == null || w.finished) {
                    if (w != null) {
                        w.working = false;
                    }
                    return;
                }
                if (w.terminationRequested && w.phase == Phase.SYNCING) {
                    w.phase = Phase.TERMINATING;
                }
                pod = w.pod;
                phase = w.phase;
                type = w.pendingType;
                grace = w.gracePeriodOverride;
                podStatusFn = w.podStatusFn;
                lastSyncMark = w.lastSyncMark;
                w.pendingType = null;
            }
            workQueue.remove(uid);
            try {
                var podStatus = statuses.newerThan(pod, lastSyncMark);
                switch (phase) {
                    case SYNCING -> {
                        SyncOutcome out = handler.syncPod(type, pod, podStatus);
                        if (out.failed()) {
                            backOff(uid);
                        } else if (out.terminal()) {
                            clearBackOff(uid);
                            transition(uid, Phase.TERMINATING);
                        } else if (out.retryAfter() != null && out.retryAfter().compareTo(resyncInterval) < 0) {
                            clearBackOff(uid);
                            enqueue(uid, out.retryAfter());
                        } else {
                            clearBackOff(uid);
                            enqueue(uid, jitter(resyncInterval));
                        }
                    }
                    case TERMINATING -> {
                        handler.syncTerminatingPod(pod, podStatus, grace, podStatusFn);
                        transition(uid, Phase.TERMINATED);
                        completeKills(uid);
                    }
                    case TERMINATED -> {
                        handler.syncTerminatedPod(pod, podStatus);
                        synchronized (this) {
                            Worker w = workers.get(uid);
                            if (w.restartAfterTermination) {
                                w.resetToSyncing();
                            } else {
                                w.finished = true;
                            }
                        }
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                synchronized (this) {
                    workers.get(uid).working = false;
                }
                return; // the kubelet is stopping
            } catch (Exception e) {
                log.error("Error syncing pod {}, skipping: {}", PodSpecs.format(pod), e.toString(), e);
                backOff(uid);
            }
            markSynced(uid);
        }
    }

    private void markSynced(String uid) {
        long mark = statuses.mark();
        synchronized (this) {
            Worker w = workers.get(uid);
            if (w != null) {
                w.lastSyncMark = mark;
            }
        }
    }

    /** Tells whoever waits for the pod's kill that its containers are stopped (upstream's {@code CompletedCh}). */
    private void completeKills(String uid) {
        List<CompletableFuture<Void>> done;
        synchronized (this) {
            Worker w = workers.get(uid);
            done = List.copyOf(w.killCompleted);
            w.killCompleted.clear();
        }
        done.forEach(f -> f.complete(null));
    }

    /** Moves to the next phase and makes the worker run it at once. */
    private synchronized void transition(String uid, Phase next) {
        Worker w = workers.get(uid);
        w.phase = next;
        if (w.pendingType == null) {
            w.pendingType = UpdateType.SYNC;
        }
    }

    /** Upstream's retry after a failed sync: {@code backOffPeriod} with up to 50 % jitter. */
    private void backOff(String uid) {
        Instant until = clock.instant().plus(jitter(backOffPeriod));
        synchronized (this) {
            Worker w = workers.get(uid);
            if (w != null) {
                w.backOffUntil = until;
            }
        }
        workQueue.put(uid, until);
    }

    private synchronized void clearBackOff(String uid) {
        Worker w = workers.get(uid);
        if (w != null) {
            w.backOffUntil = null;
        }
    }

    private void enqueue(String uid, Duration after) {
        workQueue.put(uid, clock.instant().plus(after));
    }

    /** Jitter of up to 50% more, as upstream's {@code wait.Jitter(d, 0.5)}. */
    private static Duration jitter(Duration d) {
        return d.plusMillis((long) (d.toMillis() * 0.5 * ThreadLocalRandom.current().nextDouble()));
    }

    /** Takes the UIDs whose requeue time has come (upstream {@code getPodsToSync}). */
    public List<String> takeDue() {
        Instant now = clock.instant();
        List<String> due = new ArrayList<>();
        workQueue.forEach((uid, at) -> {
            if (!at.isAfter(now) && workQueue.remove(uid, at)) {
                due.add(uid);
            }
        });
        return due;
    }

    public synchronized boolean isTerminationRequested(String uid) {
        Worker w = workers.get(uid);
        return w != null && w.terminationRequested;
    }

    /** Whether the pod's worker finished terminating it (or it never had one). */
    public synchronized boolean isTerminated(String uid) {
        Worker w = workers.get(uid);
        return w == null || w.finished;
    }

    /** Whether the pod's worker has stopped its containers (terminated, or cleaning up after). */
    public synchronized boolean couldHaveRunningContainers(String uid) {
        Worker w = workers.get(uid);
        return w != null && (w.phase == Phase.SYNCING || w.phase == Phase.TERMINATING);
    }

    public synchronized boolean isKnown(String uid) {
        return workers.containsKey(uid);
    }

    /** Drops a finished worker; later updates for the UID start afresh. */
    public synchronized void forget(String uid) {
        Worker w = workers.get(uid);
        if (w != null && w.finished) {
            workers.remove(uid);
            workQueue.remove(uid);
        }
    }

    public synchronized java.util.Set<String> knownUids() {
        return new java.util.HashSet<>(workers.keySet());
    }
}
