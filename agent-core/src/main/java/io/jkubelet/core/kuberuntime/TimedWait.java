package io.jkubelet.core.kuberuntime;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Waits for a latch at most a while: how the runtime manager bounds preStop hooks and the sidecar
 * termination order by the grace period. Tests replace it to let a deadline pass without waiting.
 */
@FunctionalInterface
interface TimedWait {
    TimedWait REAL = (latch, timeout) -> latch.await(timeout.toNanos(), TimeUnit.NANOSECONDS);

    /** @return whether the latch opened within {@code timeout} */
    boolean await(CountDownLatch latch, Duration timeout) throws InterruptedException;
}
