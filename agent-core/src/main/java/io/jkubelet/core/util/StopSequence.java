package io.jkubelet.core.util;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The parts of a running agent in the order they were started, stopped in reverse within one deadline. Each
 * stop gets what is left of the deadline; one that overruns it is left behind (its thread is a daemon) and the
 * next is stopped, so that one stuck part (a runtime call that hangs) never keeps the agent from exiting.
 * Not thread-safe: parts are added by the thread that starts them.
 */
public final class StopSequence {
    private static final Logger log = LoggerFactory.getLogger(StopSequence.class);

    /** A part's stop, given the time it may take. */
    @FunctionalInterface
    public interface Stop {
        void stop(Duration within) throws Exception;
    }

    private record Part(String name, Stop stop) {}

    private final List<Part> parts = new ArrayList<>();

    /** Adds a part started after those already added; it is stopped before them. */
    public void add(String name, Stop stop) {
        parts.add(new Part(name, stop));
    }

    /** Adds a part whose stop is {@link AutoCloseable#close()}. */
    public void add(String name, AutoCloseable closeable) {
        add(name, within -> closeable.close());
    }

    /** Stops every part, the last added first, and forgets them; returns the parts that did not stop in time. */
    public List<String> stopAll(Duration deadline) {
        long end = System.nanoTime() + deadline.toNanos();
        List<String> late = new ArrayList<>();
        for (int i = parts.size() - 1; i >= 0; i--) {
            Part p = parts.get(i);
            Duration left = Duration.ofNanos(Math.max(0, end - System.nanoTime()));
            if (!stopOne(p, left)) {
                late.add(p.name());
            }
        }
        parts.clear();
        if (!late.isEmpty()) {
            log.warn("Did not stop within {}: {}", deadline, late);
        }
        return late;
    }

    private static boolean stopOne(Part p, Duration left) {
        Thread t = Thread.ofPlatform().daemon().name("stop-" + p.name()).start(() -> {
            try {
                p.stop().stop(left);
            } catch (Exception e) {
                log.warn("Stopping {} failed: {}", p.name(), e.toString());
            }
        });
        try {
            // A part with no time left still gets a moment: most stops are quick and a late one is worth doing.
            t.join(left.isZero() ? Duration.ofMillis(50) : left);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        log.debug("Stopped {}", p.name());
        return !t.isAlive();
    }
}
