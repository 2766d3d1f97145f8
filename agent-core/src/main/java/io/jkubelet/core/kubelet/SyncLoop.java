package io.jkubelet.core.kubelet;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The kubelet's main loop (upstream {@code syncLoop}): one thread takes, in arrival order, what every
 * source hands it (pod updates, PLEG events, the sync tick, housekeeping) and dispatches it. Handlers are
 * quick: they only hand pods to their workers. Records its last iteration for {@code /healthz}.
 */
public final class SyncLoop implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SyncLoop.class);

    private final BlockingQueue<Runnable> mailbox = new LinkedBlockingQueue<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile long lastIterationNanos = System.nanoTime();

    public SyncLoop() {
        thread = new Thread(this::loop, "sync-loop");
        thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    /** Queues work for the loop thread. */
    public void submit(Runnable r) {
        mailbox.add(r);
    }

    private void loop() {
        while (running) {
            Runnable r;
            try {
                r = mailbox.poll(1, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                return;
            }
            lastIterationNanos = System.nanoTime();
            if (r == null) {
                continue;
            }
            try {
                r.run();
            } catch (RuntimeException e) {
                log.error("sync loop handler failed: {}", e.toString(), e);
            }
        }
    }

    /** Seconds since the loop last came round; the loop is stuck when this grows. */
    public long secondsSinceLastIteration() {
        return TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - lastIterationNanos);
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
