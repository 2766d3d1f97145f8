package io.jkubelet.server.streaming;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bounds on streaming sessions (exec, attach, port-forward): how many may be open at once, and how
 * long one may stay without traffic before it is closed.
 *
 * <p>Upstream's kubelet bounds neither the number of sessions nor, beyond {@code
 * streamingConnectionIdleTimeout}, their life; each one holds a connection, threads and a runtime
 * stream, so a cap keeps a flood of sessions from exhausting the node. A session over the cap gets the
 * answer upstream's streaming server gives when its request cache is full: {@code 429} "maximum number of
 * in-flight requests exceeded" with {@code Retry-After}.
 *
 * <p>Thread-safe.
 */
public final class StreamingSessions {

    /** The default cap; generous for interactive use, small next to the server's thread and file limits. */
    public static final int DEFAULT_MAX_SESSIONS = 256;

    /** Upstream's {@code streamingConnectionIdleTimeout} default. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofHours(4);

    private final int maxSessions;
    private final Duration idleTimeout;
    private final Semaphore permits;
    /** When a refusal was last logged as a warning (nanoTime), so that a flood of sessions does not flood the log. */
    private final AtomicLong lastRefusalWarning = new AtomicLong();
    private static final long REFUSAL_WARNING_INTERVAL_NANOS = Duration.ofMinutes(1).toNanos();

    /**
     * @param maxSessions the most sessions open at once, at least 1
     * @param idleTimeout how long a session may see no frame in either direction; zero for no limit
     */
    public StreamingSessions(int maxSessions, Duration idleTimeout) {
        if (maxSessions < 1) {
            throw new IllegalArgumentException("the maximum number of streaming sessions must be at least 1, got " + maxSessions);
        }
        if (idleTimeout == null || idleTimeout.isNegative()) {
            throw new IllegalArgumentException("streamingConnectionIdleTimeout must not be negative, got " + idleTimeout);
        }
        this.maxSessions = maxSessions;
        this.idleTimeout = idleTimeout;
        this.permits = new Semaphore(maxSessions);
    }

    public static StreamingSessions defaults() {
        return new StreamingSessions(DEFAULT_MAX_SESSIONS, DEFAULT_IDLE_TIMEOUT);
    }

    /** Takes a place for a new session; false when {@link #maxSessions()} are open. */
    boolean tryOpen() {
        return permits.tryAcquire();
    }

    /** Whether a refusal now should be logged as a warning: the first one, then at most one a minute. */
    boolean warnAboutRefusal() {
        long now = System.nanoTime();
        long last = lastRefusalWarning.get();
        return (last == 0 || now - last >= REFUSAL_WARNING_INTERVAL_NANOS) && lastRefusalWarning.compareAndSet(last, now == 0 ? 1 : now);
    }

    /** Gives back the place of a session that has ended. */
    void closed() {
        permits.release();
    }

    public int maxSessions() {
        return maxSessions;
    }

    public Duration idleTimeout() {
        return idleTimeout;
    }

    /** Sessions open now. */
    public int open() {
        return maxSessions - permits.availablePermits();
    }
}
