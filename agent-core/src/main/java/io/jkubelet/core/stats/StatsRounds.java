package io.jkubelet.core.stats;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The stats rounds: a first one at {@link #start()}, then one every period on the collector thread (upstream's stats
 * are as fresh as cAdvisor's housekeeping makes them, every 10 s by default), the latest round's snapshot kept for any
 * reader, and the listeners told after each periodic round that succeeded. A failed round keeps the previous round's
 * data with the failure's message. Rounds never run at once: they share the CPU-rate cache and the volume usage.
 * Thread-safe.
 */
final class StatsRounds implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StatsRounds.class);

    private final ScheduledExecutorService scheduler;
    private final Duration period;
    private final Supplier<StatsSnapshot> round;
    private final AtomicReference<StatsSnapshot> latest = new AtomicReference<>();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private boolean started;

    /**
     * @param scheduler the thread rounds run on from {@link #start()}; shut down by {@link #close()}
     * @param round one round: reads everything and returns the snapshot, or throws
     */
    StatsRounds(ScheduledExecutorService scheduler, Duration period, Supplier<StatsSnapshot> round) {
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("stats period must be positive, got " + period);
        }
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.period = period;
        this.round = round;
    }

    /** Starts the periodic rounds: a first one at once, then one every period. Idempotent. */
    synchronized void start() {
        if (!started) {
            started = true;
            scheduler.scheduleWithFixedDelay(this::runRound, 0, period.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** The latest round's snapshot, or empty before the first round has completed. */
    Optional<StatsSnapshot> latest() {
        return Optional.ofNullable(latest.get());
    }

    /** Runs {@code listener} after each periodic round that succeeds, on the collector thread: it must not block. */
    void onRound(Runnable listener) {
        listeners.add(listener);
    }

    /** One round now, kept as the latest. */
    synchronized StatsSnapshot collect() {
        StatsSnapshot snapshot = round.get();
        latest.set(snapshot);
        return snapshot;
    }

    /** A periodic round: on failure the latest data stays, marked with why, and no listener is told. */
    void runRound() {
        try {
            collect();
        } catch (RuntimeException e) {
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            log.warn("Stats collection failed: {}", message);
            latest.updateAndGet(s -> s == null ? null : s.failed(message));
            return;
        }
        listeners.forEach(Runnable::run);
    }

    @Override
    public synchronized void close() {
        scheduler.shutdownNow();
    }
}
