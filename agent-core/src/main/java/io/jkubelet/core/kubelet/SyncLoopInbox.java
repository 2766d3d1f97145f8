package io.jkubelet.core.kubelet;

import io.jkubelet.core.config.PodConfig;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Where every channel of the sync loop puts its events, in arrival order. Made before the parts that feed it
 * and before the loop, so that those parts and the loop need not know each other. The pod config's updates
 * hold one of {@value PodConfig#UPDATES_CAPACITY} slots until the loop takes them, as upstream's buffered
 * {@code configCh}: a source that runs ahead of the loop waits. Thread-safe.
 */
public final class SyncLoopInbox {
    private final BlockingQueue<SyncLoopEvent> events = new LinkedBlockingQueue<>();
    private final Semaphore configSlots = new Semaphore(PodConfig.UPDATES_CAPACITY);

    /** Where the pod config puts its merged updates: blocks while {@value PodConfig#UPDATES_CAPACITY} wait. */
    public PodConfig.Output podConfigOutput() {
        return update -> {
            configSlots.acquire();
            events.add(new SyncLoopEvent.PodConfigUpdate(update));
        };
    }

    /** Queues an event from a channel other than the pod config (PLEG, probes, ticks). */
    public void post(SyncLoopEvent event) {
        events.add(event);
    }

    /** The next event, waiting at most {@code timeout}; null when none came. */
    SyncLoopEvent poll(Duration timeout) throws InterruptedException {
        SyncLoopEvent e = events.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
        if (e instanceof SyncLoopEvent.PodConfigUpdate) {
            configSlots.release();
        }
        return e;
    }
}
