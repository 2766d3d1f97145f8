package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.container.RuntimePodStatus;
import io.jkubelet.core.podutil.PodSpecs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * One serial worker per pod UID (upstream {@code podWorkers}): runs the {@link PodSyncer} for each pod as its state in
 * {@link PodSyncStatuses} says, one call at a time, on the executor. Updates that arrive while a worker runs are
 * coalesced so that the latest pod wins, and a requested kill is carried out after the sync under way and never lost.
 * After each sync the pod is queued again: after {@code resyncInterval} (jittered) on success, sooner when the syncer
 * asks (a back-off that ends), or after {@code backOffPeriod} (jittered) when the sync failed. A failed pod is not
 * synced again before its back-off ends on what the runtime, the probes or the ticks report (SYNC), only on a change of
 * the pod itself or a kill: what a failed attempt leaves behind (a dead sandbox) is itself a runtime event, and
 * reacting to it would retry at once, for ever. A failed termination is tried again once its back-off ends, whether or
 * not a source still has the pod. Thread-safe.
 */
public final class PodWorkers {
    private static final Logger log = LoggerFactory.getLogger(PodWorkers.class);

    private final PodSyncStatuses statuses;
    private final PodSyncer syncer;
    private final PodStatusSource runtimeStatuses;
    private final Clock clock;
    private final Duration resyncInterval;
    private final Duration backOffPeriod;
    private final Executor executor;
    /** When each pod is due for its next sync (upstream's {@code workQueue}). */
    private final Map<String, Instant> workQueue = new ConcurrentHashMap<>();

    /**
     * @param statuses the workers' states, which this runs and others read
     * @param runtimeStatuses each pod's runtime state, as read after the worker's previous stage
     */
    public PodWorkers(PodSyncStatuses statuses, PodSyncer syncer, PodStatusSource runtimeStatuses, Clock clock,
                      Duration resyncInterval, Duration backOffPeriod, Executor executor) {
        this.statuses = statuses;
        this.syncer = syncer;
        this.runtimeStatuses = runtimeStatuses;
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
    public void updatePod(SyncPodType type, Pod pod, Long gracePeriodOverride) {
        dispatch(pod, statuses.update(type, pod, gracePeriodOverride, null, null, clock.instant()));
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
        dispatch(pod, statuses.update(SyncPodType.KILL, pod, gracePeriodOverride, podStatusFn, completed, clock.instant()));
        return completed;
    }

    private void dispatch(Pod pod, boolean start) {
        if (start) {
            String uid = pod.getMetadata().getUid();
            executor.execute(() -> run(uid));
        }
    }

    /** The worker's loop (upstream {@code podWorkerLoop}): each pending piece of work in turn, until there is none. */
    private void run(String uid) {
        for (Optional<PodSyncStatuses.PodWork> next; (next = statuses.next(uid, clock.instant())).isPresent(); ) {
            PodSyncStatuses.PodWork work = next.get();
            workQueue.remove(uid);
            try {
                RuntimePodStatus podStatus = runtimeStatuses.newerThan(work.pod(), work.lastSyncMark());
                switch (work.stage()) {
                    case SYNCING -> completeSync(uid, syncer.syncPod(work.type(), work.pod(), podStatus));
                    case TERMINATING -> {
                        syncer.syncTerminatingPod(work.pod(), podStatus, work.gracePeriodOverride(), work.podStatusFn());
                        statuses.containersStopped(uid).forEach(waiter -> waiter.complete(null));
                    }
                    case TERMINATED -> {
                        syncer.syncTerminatedPod(work.pod(), podStatus);
                        statuses.resourcesReleased(uid);
                    }
                    case FINISHED -> throw new IllegalStateException("a finished pod worker was given work: " + uid);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                statuses.stoppedWorking(uid);
                return; // the kubelet is stopping
            } catch (Exception e) {
                log.error("Error syncing pod {}, skipping: {}", PodSpecs.format(work.pod()), e.toString(), e);
                backOff(uid);
            }
            statuses.synced(uid, runtimeStatuses.mark());
        }
    }

    /** Upstream {@code completeSync}: when the pod is synced next, or its termination begins. */
    private void completeSync(String uid, SyncOutcome outcome) {
        if (outcome.failed()) {
            backOff(uid);
            return;
        }
        statuses.clearBackOff(uid);
        if (outcome.terminal()) {
            statuses.becameTerminal(uid);
        } else if (outcome.retryAfter() != null && outcome.retryAfter().compareTo(resyncInterval) < 0) {
            workQueue.put(uid, clock.instant().plus(outcome.retryAfter()));
        } else {
            workQueue.put(uid, clock.instant().plus(jitter(resyncInterval)));
        }
    }

    /** Upstream's retry after a failed stage: {@code backOffPeriod} with up to 50 % jitter. */
    private void backOff(String uid) {
        Instant until = clock.instant().plus(jitter(backOffPeriod));
        statuses.backOff(uid, until);
        workQueue.put(uid, until);
    }

    /** Jitter of up to 50% more, as upstream's {@code wait.Jitter(d, 0.5)}. */
    private static Duration jitter(Duration d) {
        return d.plusMillis((long) (d.toMillis() * 0.5 * ThreadLocalRandom.current().nextDouble()));
    }

    /**
     * Takes the UIDs whose requeue time has come (upstream {@code getPodsToSync}) for the loop to sync. A pod being torn
     * down whose last stage failed is tried again here, from the pod its worker holds: its source may have forgotten
     * it, and its containers must stop all the same.
     */
    public List<String> takeDue() {
        Instant now = clock.instant();
        List<String> due = new ArrayList<>();
        workQueue.forEach((uid, at) -> {
            if (!at.isAfter(now) && workQueue.remove(uid, at)) {
                statuses.tornDownPod(uid).ifPresentOrElse(pod -> updatePod(SyncPodType.SYNC, pod, null), () -> due.add(uid));
            }
        });
        return due;
    }

    /** Drops a finished worker; later updates for the UID start afresh. */
    public void forget(String uid) {
        if (statuses.forget(uid)) {
            workQueue.remove(uid);
        }
    }
}
