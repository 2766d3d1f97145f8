package io.jkubelet.core.volume.util.operationexecutor;

import io.jkubelet.core.apis.config.GoDuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * Upstream {@code nestedpendingoperations}: at most one operation at a time on a volume for a pod (an operation with
 * no pod, such as a volume's global mount, excludes every other operation on that volume), and an operation that failed
 * is not started again before its exponential back-off ends: 500 ms, doubled at each failure up to 2 min 2 s, reset by
 * a success, or by another operation on the same volume and pod (an unmount after a failed mount starts at once, as
 * upstream's). Thread-safe.
 */
public final class NestedPendingOperations {
    private static final Logger log = LoggerFactory.getLogger(NestedPendingOperations.class);

    /** Upstream's {@code initialDurationBeforeRetry}. */
    static final Duration INITIAL_DURATION_BEFORE_RETRY = Duration.ofMillis(500);
    /** Upstream's {@code maxDurationBeforeRetry}: offset from 2 minutes so that it can be recognised. */
    static final Duration MAX_DURATION_BEFORE_RETRY = Duration.ofMinutes(2).plusSeconds(2);

    /** An operation's key: a volume, and a pod or none (the empty pod name). */
    private record Key(String volumeName, String podName) {}

    private static final class Operation {
        boolean pending;
        String name;
        Instant lastErrorTime;
        Duration durationBeforeRetry;
    }

    /** Something an operation runs; it may fail. */
    @FunctionalInterface
    public interface Op {
        void run() throws Exception;
    }

    private final Map<Key, Operation> operations = new HashMap<>();
    private final Executor executor;
    private final Clock clock;

    public NestedPendingOperations(Executor executor, Clock clock) {
        this.executor = executor;
        this.clock = clock;
    }

    /**
     * Starts {@code op} on the executor unless one conflicting with it is pending or its back-off is still running.
     *
     * @param podName the pod's name, or "" for an operation on the whole volume
     * @param operationName what it is, for the log ({@code volume_mount})
     * @return whether it was started
     */
    public boolean run(String volumeName, String podName, String operationName, Op op) {
        Key key = new Key(volumeName, podName);
        synchronized (this) {
            for (Map.Entry<Key, Operation> e : operations.entrySet()) {
                if (e.getValue().pending && conflicts(e.getKey(), key)) {
                    return false;
                }
            }
            Operation existing = operations.get(key);
            Instant now = clock.instant();
            if (existing != null && existing.lastErrorTime != null
                    && now.isBefore(existing.lastErrorTime.plus(existing.durationBeforeRetry))) {
                if (operationName.equals(existing.name)) {
                    log.trace("Operation {} for {} of pod {} not retried before {}", operationName, volumeName, podName,
                            existing.lastErrorTime.plus(existing.durationBeforeRetry));
                    return false;
                }
                // Upstream's: another operation (the unmount of a mount that failed) is not held by the failed one's
                // back-off; it starts with a back-off of its own.
                existing.lastErrorTime = null;
                existing.durationBeforeRetry = null;
            }
            Operation o = existing == null ? new Operation() : existing;
            o.pending = true;
            o.name = operationName;
            operations.put(key, o);
        }
        executor.execute(() -> {
            Exception failure = null;
            try {
                op.run();
            } catch (Exception e) {
                failure = e;
            }
            completed(key, failure);
        });
        return true;
    }

    /** Whether an operation on the volume (for the pod, or for any pod when {@code podName} is "") is under way. */
    public synchronized boolean isOperationPending(String volumeName, String podName) {
        Key key = new Key(volumeName, podName);
        for (Map.Entry<Key, Operation> e : operations.entrySet()) {
            if (e.getValue().pending && conflicts(e.getKey(), key)) {
                return true;
            }
        }
        return false;
    }

    private static boolean conflicts(Key a, Key b) {
        return a.volumeName().equals(b.volumeName())
                && (a.podName().isEmpty() || b.podName().isEmpty() || Objects.equals(a.podName(), b.podName()));
    }

    private synchronized void completed(Key key, Exception failure) {
        Operation o = operations.get(key);
        if (failure == null) {
            operations.remove(key);
            return;
        }
        o.pending = false;
        o.lastErrorTime = clock.instant();
        o.durationBeforeRetry = o.durationBeforeRetry == null ? INITIAL_DURATION_BEFORE_RETRY
                : min(o.durationBeforeRetry.multipliedBy(2), MAX_DURATION_BEFORE_RETRY);
        log.error("Operation for \"{{volumeName:{} podName:{}}}\" failed. No retries permitted until {} "
                        + "(durationBeforeRetry {}). Error: {}", key.volumeName(), key.podName(),
                o.lastErrorTime.plus(o.durationBeforeRetry), GoDuration.format(o.durationBeforeRetry),
                failure.getMessage());
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) < 0 ? a : b;
    }
}
