package io.jkubelet.core.events;

import io.jkubelet.core.util.TokenBucket;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.EventSource;
import io.fabric8.kubernetes.api.model.ObjectReference;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * client-go's {@code EventCorrelator} with its defaults, deciding what the apiserver sees of each event:
 * <ol>
 *   <li>aggregation: once 10 events with the same source, object, type and reason but different messages
 *       came within 10 minutes of each other, further ones become one event
 *       "(combined from similar events): &lt;message&gt;";</li>
 *   <li>deduplication: an event identical to one already sent (source, object with field path, type,
 *       reason, message) becomes a patch of that event's {@code count} and {@code lastTimestamp};</li>
 *   <li>spam filter: at most 25 events per source and object at once, refilled one per 5 minutes; the rest
 *       are dropped (after step 2 has counted them, as upstream).</li>
 * </ol>
 * Each cache holds the 4096 most recently used keys. Not thread-safe: one sender thread uses it.
 */
public final class EventCorrelator {
    static final int MAX_LRU_CACHE_ENTRIES = 4096;
    static final int AGGREGATE_MAX_EVENTS = 10;
    static final Duration AGGREGATE_INTERVAL = Duration.ofSeconds(600);
    static final int SPAM_BURST = 25;
    static final double SPAM_QPS = 1.0 / 300.0;
    static final String COMBINED_PREFIX = "(combined from similar events): ";

    /** What to send: a new event, or a patch of an existing one (when {@code count > 1}). */
    public record Result(Event event, Optional<Map<String, Object>> patch) {}

    private record AggregateRecord(Set<String> localKeys, Instant lastTimestamp) {}

    private record EventLog(int count, String firstTimestamp, String name, String resourceVersion) {}

    private final Clock clock;
    private final Lru<String, AggregateRecord> aggregates = new Lru<>(MAX_LRU_CACHE_ENTRIES);
    private final Lru<String, EventLog> observed = new Lru<>(MAX_LRU_CACHE_ENTRIES);
    private final Lru<String, TokenBucket> spam = new Lru<>(MAX_LRU_CACHE_ENTRIES);

    public EventCorrelator(Clock clock) {
        this.clock = clock;
    }

    /** Empty when the spam filter drops the event. */
    public Optional<Result> correlate(Event newEvent) {
        Aggregated aggregated = aggregate(newEvent);
        Result observedResult = observe(aggregated.event(), aggregated.key());
        if (!spamFilterAccepts(observedResult.event())) {
            return Optional.empty();
        }
        return Optional.of(observedResult);
    }

    /** Remembers what the apiserver returned (its name and resourceVersion), so the next duplicate patches it. */
    public void updateState(Event sent) {
        observed.put(eventKey(sent), new EventLog(count(sent), sent.getFirstTimestamp(), sent.getMetadata().getName(),
                sent.getMetadata().getResourceVersion()));
    }

    private record Aggregated(Event event, String key) {}

    private Aggregated aggregate(Event e) {
        Instant now = clock.instant();
        String aggregateKey = key(source(e).getComponent(), source(e).getHost(), ref(e).getKind(),
                ref(e).getNamespace(), ref(e).getName(), ref(e).getUid(), ref(e).getApiVersion(), e.getType(),
                e.getReason(), e.getReportingComponent(), e.getReportingInstance());
        AggregateRecord record = aggregates.get(aggregateKey);
        if (record == null || Duration.between(record.lastTimestamp(), now).compareTo(AGGREGATE_INTERVAL) > 0) {
            record = new AggregateRecord(new LinkedHashSet<>(), now);
        }
        record.localKeys().add(nullToEmpty(e.getMessage()));
        record = new AggregateRecord(record.localKeys(), now);
        aggregates.put(aggregateKey, record);
        if (record.localKeys().size() < AGGREGATE_MAX_EVENTS) {
            return new Aggregated(e, eventKey(e));
        }
        // Do not let the set grow beyond the threshold.
        var it = record.localKeys().iterator();
        it.next();
        it.remove();
        String ts = EventTimes.format(now);
        Event combined = new EventBuilder().withNewMetadata()
                .withName(ref(e).getName() + "." + EventTimes.hexNanos(now))
                .withNamespace(e.getMetadata().getNamespace()).endMetadata()
                .withCount(1).withFirstTimestamp(ts).withLastTimestamp(ts).withInvolvedObject(ref(e))
                .withMessage(COMBINED_PREFIX + nullToEmpty(e.getMessage())).withType(e.getType())
                .withReason(e.getReason()).withSource(e.getSource()).build();
        return new Aggregated(combined, aggregateKey);
    }

    private Result observe(Event e, String key) {
        Event event = new EventBuilder(e).build();
        EventLog last = observed.get(key);
        Optional<Map<String, Object>> patch = Optional.empty();
        if (last != null && last.count() > 0) {
            event.getMetadata().setName(last.name());
            event.getMetadata().setResourceVersion(last.resourceVersion());
            event.setFirstTimestamp(last.firstTimestamp());
            event.setCount(last.count() + 1);
            // The two-way merge patch of (count 0, lastTimestamp at the epoch, no message) to this event.
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("count", event.getCount());
            p.put("lastTimestamp", event.getLastTimestamp());
            if (!nullToEmpty(event.getMessage()).isEmpty()) {
                p.put("message", event.getMessage());
            }
            patch = Optional.of(p);
        }
        observed.put(key, new EventLog(count(event), event.getFirstTimestamp(), event.getMetadata().getName(),
                event.getMetadata().getResourceVersion()));
        return new Result(event, patch);
    }

    private boolean spamFilterAccepts(Event e) {
        String key = key(source(e).getComponent(), source(e).getHost(), ref(e).getKind(),
                ref(e).getNamespace(), ref(e).getName(), ref(e).getUid(), ref(e).getApiVersion());
        TokenBucket bucket = spam.get(key);
        if (bucket == null) {
            bucket = new TokenBucket(SPAM_QPS, SPAM_BURST, clock);
        }
        spam.put(key, bucket);
        return bucket.tryAccept();
    }

    static String eventKey(Event e) {
        return key(source(e).getComponent(), source(e).getHost(), ref(e).getKind(), ref(e).getNamespace(),
                ref(e).getName(), ref(e).getFieldPath(), ref(e).getUid(), ref(e).getApiVersion(), e.getType(),
                e.getReason(), e.getMessage());
    }

    /** Go's strings.Join over fields whose zero value is the empty string. */
    private static String key(String... parts) {
        StringBuilder b = new StringBuilder();
        for (String p : parts) {
            b.append(nullToEmpty(p));
        }
        return b.toString();
    }

    private static int count(Event e) {
        return e.getCount() == null ? 0 : e.getCount();
    }

    private static EventSource source(Event e) {
        return e.getSource() == null ? new EventSource() : e.getSource();
    }

    private static ObjectReference ref(Event e) {
        return e.getInvolvedObject() == null ? new ObjectReference() : e.getInvolvedObject();
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    /** A least-recently-used map of bounded size ({@code k8s.io/utils/lru}). */
    private static final class Lru<K, V> extends LinkedHashMap<K, V> {
        private final int max;

        Lru(int max) {
            super(16, 0.75f, true);
            this.max = max;
        }

        @Override
        protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
            return size() > max;
        }
    }
}
