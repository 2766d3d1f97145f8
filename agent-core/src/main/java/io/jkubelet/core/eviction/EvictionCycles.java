package io.jkubelet.core.eviction;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.podutil.PodSpecs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * When the eviction manager synchronizes (upstream's monitoring loop in {@code Start}): one cycle per request, on the
 * manager's own thread; a request while a cycle runs is dropped. After an eviction the next cycle follows at once when
 * the evicted pod is cleaned up, polled every second for at most {@link #POD_CLEANUP_TIMEOUT}
 * ({@code waitForPodsCleanup}), so that the next pod is not ranked on numbers that still count the last one.
 * Thread-safe.
 */
final class EvictionCycles {
    private static final Logger log = LoggerFactory.getLogger(EvictionCycles.class);
    /** How long an evicted pod may take to be cleaned up before the next cycle (upstream {@code podCleanupTimeout}). */
    static final Duration POD_CLEANUP_TIMEOUT = Duration.ofSeconds(30);
    static final Duration POD_CLEANUP_POLL = Duration.ofSeconds(1);

    private final Supplier<List<Pod>> synchronize;
    private final Predicate<Pod> cleanedUp;
    private final Clock clock;
    private final ScheduledExecutorService executor;
    /** A cycle runs, or waits for an evicted pod's clean-up. */
    private final AtomicBoolean busy = new AtomicBoolean();

    /**
     * @param synchronize one cycle, returning the pods it evicted
     * @param cleanedUp whether an evicted pod's resources are released
     */
    EvictionCycles(Supplier<List<Pod>> synchronize, Predicate<Pod> cleanedUp, Clock clock,
                   ScheduledExecutorService executor) {
        this.synchronize = synchronize;
        this.cleanedUp = cleanedUp;
        this.clock = clock;
        this.executor = executor;
    }

    void request() {
        if (busy.compareAndSet(false, true)) {
            schedule(this::cycle, Duration.ZERO);
        }
    }

    private void cycle() {
        List<Pod> evicted;
        try {
            evicted = synchronize.get();
        } catch (RuntimeException e) {
            log.error("Eviction manager: failed to synchronize", e);
            evicted = List.of();
        }
        if (evicted.isEmpty()) {
            busy.set(false);
            return;
        }
        log.info("Eviction manager: pods evicted, waiting for pod to be cleaned up: {}", names(evicted));
        List<Pod> waitingFor = evicted;
        Instant deadline = clock.instant().plus(POD_CLEANUP_TIMEOUT);
        schedule(() -> awaitCleanup(waitingFor, deadline), POD_CLEANUP_POLL);
    }

    /** One poll at a time, so that the thread is free in between. */
    private void awaitCleanup(List<Pod> evicted, Instant deadline) {
        if (evicted.stream().allMatch(cleanedUp)) {
            log.info("Eviction manager: pods successfully cleaned up: {}", names(evicted));
            cycle();
        } else if (!clock.instant().isBefore(deadline)) {
            log.info("Eviction manager: timed out waiting for pods to be cleaned up: {}", names(evicted));
            cycle();
        } else {
            schedule(() -> awaitCleanup(evicted, deadline), POD_CLEANUP_POLL);
        }
    }

    private void schedule(Runnable task, Duration after) {
        try {
            executor.schedule(task, after.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            busy.set(false);
            log.debug("Eviction manager stopped: {}", e.toString()); // the executor is shut down: the kubelet stops
        }
    }

    static List<String> names(List<Pod> pods) {
        return pods.stream().map(PodSpecs::format).toList();
    }
}
