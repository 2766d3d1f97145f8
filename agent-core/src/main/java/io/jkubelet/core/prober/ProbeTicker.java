package io.jkubelet.core.prober;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Tells probe workers when to probe: a tick after a first delay, then one every period, until cancelled
 * (upstream: each worker's {@code time.Ticker}). Tests use a ticker they fire by hand.
 */
@FunctionalInterface
public interface ProbeTicker {
    /** A scheduled tick; cancelling is idempotent. */
    @FunctionalInterface
    interface Ticking {
        void cancel();
    }

    /** Calls {@code tick} after {@code firstDelay}, then every {@code period}. {@code tick} must not block. */
    Ticking schedule(Runnable tick, Duration firstDelay, Duration period);

    /**
     * Ticks on a shared scheduler at a fixed rate. A tick only hands the probe to another executor, so one
     * scheduler thread serves every worker of the node.
     */
    static ProbeTicker on(ScheduledExecutorService scheduler) {
        return (tick, firstDelay, period) -> {
            ScheduledFuture<?> future = scheduler.scheduleAtFixedRate(
                    tick, firstDelay.toNanos(), period.toNanos(), TimeUnit.NANOSECONDS);
            return () -> future.cancel(false);
        };
    }
}
