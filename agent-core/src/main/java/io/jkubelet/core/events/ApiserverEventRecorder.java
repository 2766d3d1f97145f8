package io.jkubelet.core.events;

import io.jkubelet.core.util.TokenBucket;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.jkubelet.core.apierrors.ApiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Records events to the apiserver as the kubelet's event broadcaster does (client-go {@code tools/record}
 * with {@code StartRecordingToSink}): each event is also given to a local recorder (the log), then queued;
 * one sender thread correlates it ({@link EventCorrelator}: aggregate, count duplicates, drop spam), waits
 * for the {@code eventRecordQPS}/{@code eventBurst} limiter and writes it: a create, or a patch of the
 * existing event's count (a create again when that event is gone).
 *
 * <p>The caller never blocks: the queue holds {@value #MAX_QUEUED_EVENTS} events and a full queue drops
 * the new one with an error in the log, as client-go's broadcaster does. A write that cannot reach the
 * apiserver is tried {@value #MAX_TRIES_PER_EVENT} times, {@code 10 s} apart (the first pause jittered so
 * that nodes do not retry in step). An answer the apiserver gave is final (invalid, forbidden, already
 * exists, namespace terminating), except 429 and 5xx, which are retried like an unreachable apiserver
 * (client-go retries those only when the apiserver sends Retry-After, which the sink does not show).
 */
public final class ApiserverEventRecorder implements EventRecorder, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ApiserverEventRecorder.class);

    public static final String COMPONENT = "kubelet";
    static final int MAX_QUEUED_EVENTS = 1000;
    static final int MAX_TRIES_PER_EVENT = 12;
    static final Duration SLEEP_DURATION = Duration.ofSeconds(10);

    /** Waits for the right to send one request (the event client's QPS limiter). */
    @FunctionalInterface
    public interface RateLimiter {
        RateLimiter UNLIMITED = () -> {};

        void acquire() throws InterruptedException;
    }

    /** Pauses the sender between tries (injected so tests need not wait). */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration d) throws InterruptedException;
    }

    private final EventSink sink;
    private final String nodeName;
    private final EventRecorder local;
    private final Clock clock;
    private final RateLimiter limiter;
    private final Sleeper sleeper;
    private final EventCorrelator correlator;
    private final BlockingQueue<Event> queue;
    private final Thread sender;
    /** The last name suffix used: names stay unique when two events share a clock reading. */
    private final AtomicLong lastNameNanos = new AtomicLong();

    public ApiserverEventRecorder(EventSink sink, String nodeName, EventRecorder local, Clock clock, RateLimiter limiter,
            Sleeper sleeper, int queueCapacity) {
        this.sink = sink;
        this.nodeName = nodeName;
        this.local = local;
        this.clock = clock;
        this.limiter = limiter;
        this.sleeper = sleeper;
        this.correlator = new EventCorrelator(clock);
        this.queue = new ArrayBlockingQueue<>(queueCapacity);
        this.sender = Thread.ofPlatform().daemon().name("event-sink").unstarted(this::sendLoop);
    }

    /** The kubelet's recorder: client-go's queue depth, 10 s between tries, a token bucket of {@code qps}/{@code burst}. */
    public static ApiserverEventRecorder start(EventSink sink, String nodeName, EventRecorder local, Clock clock,
            RateLimiter limiter) {
        ApiserverEventRecorder r = new ApiserverEventRecorder(sink, nodeName, local, clock, limiter,
                d -> Thread.sleep(d), MAX_QUEUED_EVENTS);
        r.start();
        return r;
    }

    /**
     * The event client's limiter from {@code eventRecordQPS}/{@code eventBurst} as client-go reads a rest
     * config: QPS 0 is its default of 5, burst 0 its default of 10, a negative QPS no limit.
     */
    public static RateLimiter limiter(int qps, int burst, Clock clock) {
        if (qps < 0) {
            return RateLimiter.UNLIMITED;
        }
        TokenBucket bucket = new TokenBucket(qps == 0 ? 5 : qps, burst == 0 ? 10 : burst, clock);
        return () -> {
            Duration wait = bucket.reserve();
            if (!wait.isZero()) {
                Thread.sleep(wait);
            }
        };
    }

    public void start() {
        sender.start();
    }

    @Override
    public void event(ObjectReference involved, String type, String reason, String message) {
        local.event(involved, type, reason, message);
        if (!NORMAL.equals(type) && !WARNING.equals(type)) {
            log.error("Unsupported event type: '{}'", type);
            return;
        }
        Event e = makeEvent(involved, type, reason, message);
        if (!queue.offer(e)) {
            log.error("Unable to record event: too many queued events, dropped event {} {} {}: {}", e.getType(),
                    e.getReason(), describe(involved), message);
        }
    }

    /** client-go's {@code makeEvent} with the kubelet's source. */
    Event makeEvent(ObjectReference involved, String type, String reason, String message) {
        Instant now = clock.instant();
        String ts = EventTimes.format(now);
        String namespace = involved.getNamespace() == null || involved.getNamespace().isEmpty() ? "default"
                : involved.getNamespace();
        long nanos = EventTimes.unixNanos(now);
        long unique = lastNameNanos.updateAndGet(last -> Math.max(last + 1, nanos));
        return new EventBuilder().withNewMetadata().withName(involved.getName() + "." + Long.toHexString(unique))
                .withNamespace(namespace).endMetadata()
                .withInvolvedObject(new ObjectReferenceBuilder(involved).build())
                .withReason(reason).withMessage(message).withFirstTimestamp(ts).withLastTimestamp(ts).withCount(1)
                .withType(type).withNewSource().withComponent(COMPONENT).withHost(nodeName).endSource()
                .withReportingComponent(COMPONENT).withReportingInstance(nodeName).build();
    }

    private void sendLoop() {
        while (!Thread.currentThread().isInterrupted()) {
            Event e;
            try {
                e = queue.take();
            } catch (InterruptedException ie) {
                return;
            }
            try {
                recordToSink(e);
            } catch (InterruptedException ie) {
                return;
            } catch (RuntimeException re) {
                log.error("Unable to write event {}: {}", describe(e), re.toString());
            }
        }
    }

    private void recordToSink(Event e) throws InterruptedException {
        Optional<EventCorrelator.Result> result = correlator.correlate(e);
        if (result.isEmpty()) {
            log.debug("Event {} dropped by the spam filter", describe(e));
            return;
        }
        for (int tries = 0; ; ) {
            if (recordEvent(result.get())) {
                return;
            }
            tries++;
            if (tries >= MAX_TRIES_PER_EVENT) {
                log.error("Unable to write event {} (retry limit exceeded!)", describe(e));
                return;
            }
            Duration delay = tries == 1
                    ? Duration.ofNanos((long) (SLEEP_DURATION.toNanos() * ThreadLocalRandom.current().nextDouble()))
                    : SLEEP_DURATION;
            sleeper.sleep(delay);
        }
    }

    /** One try; true when done (written, or rejected for good). */
    private boolean recordEvent(EventCorrelator.Result r) throws InterruptedException {
        Event event = r.event();
        boolean update = event.getCount() != null && event.getCount() > 1 && r.patch().isPresent();
        try {
            Event stored = null;
            if (update) {
                try {
                    limiter.acquire();
                    stored = sink.patch(event, r.patch().get());
                } catch (ApiException ke) {
                    if (ke.code() != 404) {
                        throw ke;
                    }
                    // The event was deleted (or expired): create it again, with its count so far.
                }
            }
            if (stored == null) {
                event.getMetadata().setResourceVersion(null);
                limiter.acquire();
                stored = sink.create(event);
            }
            correlator.updateState(stored);
            return true;
        } catch (ApiException ke) {
            int code = ke.code();
            if (code > 0 && code != 429 && code < 500) {
                if (code == 409 || String.valueOf(ke.getMessage()).contains("NamespaceTerminating")) {
                    log.debug("Server rejected event {} (will not retry!): {}", describe(event), ke.getMessage());
                } else {
                    log.error("Server rejected event {} (will not retry!): {}", describe(event), ke.getMessage());
                }
                return true;
            }
            log.error("Unable to write event {} (may retry after sleeping): {}", describe(event), message(ke));
            return false;
        }
    }

    private static String message(ApiException ke) {
        Throwable cause = ke.getCause();
        return cause instanceof IOException ? ke.getMessage() + ": " + cause : ke.getMessage();
    }

    private static String describe(Event e) {
        return e.getType() + " " + e.getReason() + " " + describe(e.getInvolvedObject());
    }

    private static String describe(ObjectReference r) {
        return r.getKind() + " " + (r.getNamespace() == null || r.getNamespace().isEmpty() ? "" : r.getNamespace() + "/")
                + r.getName();
    }

    @Override
    public void close() {
        sender.interrupt();
    }
}
