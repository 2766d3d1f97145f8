package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.config.PodUpdate;
import io.jkubelet.core.config.SourcesReady;
import io.jkubelet.core.kubelet.SyncLoopEvent.HousekeepingTick;
import io.jkubelet.core.kubelet.SyncLoopEvent.PlegEvent;
import io.jkubelet.core.kubelet.SyncLoopEvent.PodConfigUpdate;
import io.jkubelet.core.kubelet.SyncLoopEvent.ProbeEvent;
import io.jkubelet.core.kubelet.SyncLoopEvent.SyncTick;
import io.jkubelet.core.pleg.PodLifecycleEvent;
import io.jkubelet.core.probe.ProbeResult;
import io.jkubelet.core.prober.ProbeType;
import io.jkubelet.core.prober.ProbeUpdate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The kubelet's main loop (upstream {@code syncLoop}): one thread takes, in arrival order, the typed events of
 * every channel from its {@link SyncLoopInbox} and hands each to {@link #iteration}, which calls the
 * {@link SyncHandler}. The ticks are coalesced, so a slow iteration never piles them up.
 * Records its last iteration on the injected clock for {@code /healthz}.
 */
public final class SyncLoop implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SyncLoop.class);

    static final Duration SYNC_TICK_PERIOD = Duration.ofSeconds(1);
    static final Duration HOUSEKEEPING_PERIOD = Duration.ofSeconds(2);

    private final SyncHandler handler;
    private final Function<String, Optional<Pod>> podByUid;
    private final Supplier<List<String>> podsToSync;
    private final SourcesReady sourcesReady;
    private final Clock clock;
    private final ScheduledExecutorService ticker;
    private final SyncLoopInbox inbox;
    private final AtomicBoolean syncTickPending = new AtomicBoolean();
    private final AtomicBoolean housekeepingPending = new AtomicBoolean();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Instant lastIteration;

    /**
     * @param podByUid   the pod manager's pods, for events that name a UID
     * @param podsToSync the UIDs whose workers are due for a sync (upstream {@code getPodsToSync}); taken
     * @param ticker     where the sync and housekeeping ticks are scheduled; owned by the caller
     */
    public SyncLoop(SyncLoopInbox inbox, SyncHandler handler, Function<String, Optional<Pod>> podByUid, Supplier<List<String>> podsToSync,
                    SourcesReady sourcesReady, Clock clock, ScheduledExecutorService ticker) {
        this.inbox = inbox;
        this.handler = handler;
        this.podByUid = podByUid;
        this.podsToSync = podsToSync;
        this.sourcesReady = sourcesReady;
        this.clock = clock;
        this.ticker = ticker;
        this.lastIteration = clock.instant();
        this.thread = Thread.ofPlatform().daemon().name("sync-loop").unstarted(this::loop);
    }

    public void start() {
        thread.start();
        ticker.scheduleWithFixedDelay(() -> tick(syncTickPending, SyncLoopEvent.SYNC_TICK),
                SYNC_TICK_PERIOD.toMillis(), SYNC_TICK_PERIOD.toMillis(), TimeUnit.MILLISECONDS);
        ticker.scheduleWithFixedDelay(() -> tick(housekeepingPending, SyncLoopEvent.HOUSEKEEPING_TICK),
                HOUSEKEEPING_PERIOD.toMillis(), HOUSEKEEPING_PERIOD.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void tick(AtomicBoolean pending, SyncLoopEvent event) {
        // As a Go ticker's channel holds one tick: none is queued while one waits.
        if (pending.compareAndSet(false, true)) {
            inbox.post(event);
        }
    }

    private void loop() {
        while (running) {
            SyncLoopEvent event;
            try {
                event = inbox.poll(Duration.ofSeconds(1));
            } catch (InterruptedException e) {
                return;
            }
            if (!running) {
                return;
            }
            if (event == null) {
                lastIteration = clock.instant();
                continue;
            }
            try {
                iteration(event);
            } catch (RuntimeException e) {
                log.error("sync loop iteration failed on {}: {}", event, e.toString(), e);
            }
        }
    }

    /** One pass of the loop over one event (upstream {@code syncLoopIteration}). */
    void iteration(SyncLoopEvent event) {
        lastIteration = clock.instant();
        switch (event) {
            case PodConfigUpdate(PodUpdate u) -> {
                log.debug("SyncLoop {}", u);
                switch (u.op()) {
                    case ADD -> handler.handlePodAdditions(u.pods());
                    case UPDATE -> handler.handlePodUpdates(u.pods());
                    case REMOVE -> handler.handlePodRemoves(u.pods());
                    case DELETE -> handler.handlePodDeletes(u.pods());
                    case RECONCILE -> handler.handlePodReconcile(u.pods());
                    case SET -> log.error("Kubelet does not support snapshot update");
                }
                // Seen only once its pods are in the pod manager: a housekeeping pass before this must not
                // find the runtime's pods of this source and kill them as unwanted.
                sourcesReady.addSource(u.source());
            }
            case PlegEvent(PodLifecycleEvent e) -> {
                // Removals are the kubelet's own clean-up (upstream isSyncPodWorthy).
                if (e.type() != PodLifecycleEvent.Type.CONTAINER_REMOVED) {
                    syncPods(List.of(e.podUid()));
                }
            }
            case ProbeEvent(ProbeUpdate u) -> {
                // A liveness success changes nothing the kubelet shows or does; every other change is a sync
                // of the pod, which kills what failed and regenerates the status from the results.
                if (u.type() != ProbeType.LIVENESS || u.result() == ProbeResult.FAILURE) {
                    syncPods(List.of(u.podUid()));
                }
            }
            case SyncTick t -> {
                syncTickPending.set(false);
                syncPods(podsToSync.get());
            }
            case HousekeepingTick t -> {
                housekeepingPending.set(false);
                if (sourcesReady.allReady()) {
                    handler.handlePodCleanups();
                } else {
                    log.debug("SyncLoop (housekeeping, skipped): sources aren't ready yet");
                }
            }
        }
    }

    private void syncPods(List<String> uids) {
        List<Pod> pods = new ArrayList<>(uids.size());
        for (String uid : uids) {
            podByUid.apply(uid).ifPresent(pods::add);
        }
        if (!pods.isEmpty()) {
            handler.handlePodSyncs(pods);
        }
    }

    /** Seconds since the loop last came round; the loop is stuck when this grows. */
    public long secondsSinceLastIteration() {
        return Duration.between(lastIteration, clock.instant()).toSeconds();
    }

    /**
     * Stops taking events: the iteration under way finishes, queued events are dropped (their sources are
     * stopped first). Waits for the loop thread up to {@code timeout}.
     */
    public void stop(Duration timeout) {
        running = false;
        if (thread.getState() == Thread.State.NEW) {
            return;
        }
        inbox.post(SyncLoopEvent.SYNC_TICK); // wakes the loop, which then sees it should stop
        try {
            thread.join(timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            log.warn("The sync loop did not stop within {}", timeout);
            thread.interrupt();
        }
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(1));
    }
}
