package io.jkubelet.core.volumemanager.cache;

import java.time.Duration;

/**
 * A wake-up for what waits on a state of the world: the pods' syncs wait for their volumes, the loops for work. Each
 * signal starts a new generation; a waiter that read the generation before it looked at the state wakes at once for a
 * change made since, so none is lost between the look and the wait. Thread-safe.
 */
public final class StateChanges {
    private long generation;

    public synchronized void signal() {
        generation++;
        notifyAll();
    }

    /** The current generation: read it before looking at the state. */
    public synchronized long generation() {
        return generation;
    }

    /** Waits until the generation moves on from {@code seen}, or {@code timeout} passes. */
    public synchronized void await(long seen, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (generation == seen) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }
}
