package io.jkubelet.core.util;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * Per-key exponential backoff (upstream client-go {@code flowcontrol.Backoff}): the first delay is
 * {@code initial}, each further one doubles up to {@code max}, and an entry not updated for more than
 * {@code 2 × max} starts over, so that a container that ran fine for ten minutes restarts at once again.
 * Thread-safe.
 */
public final class Backoff {
    private final Clock clock;
    private final Duration initial;
    private final Duration max;
    private final Map<String, Entry> entries = new HashMap<>();

    private record Entry(Duration backoff, Instant lastUpdate) {}

    public Backoff(Clock clock, Duration initial, Duration max) {
        this.clock = clock;
        this.initial = initial;
        this.max = max;
    }

    /** The current delay of a key, or zero when it has none. */
    public synchronized Duration get(String key) {
        Entry e = entries.get(key);
        return e == null ? Duration.ZERO : e.backoff;
    }

    /** Records one more failure at {@code eventTime}: starts at the initial delay or doubles it. */
    public synchronized void next(String key, Instant eventTime) {
        Entry e = entries.get(key);
        Instant now = clock.instant();
        if (e == null || hasExpired(eventTime, e.lastUpdate)) {
            entries.put(key, new Entry(initial, now));
        } else {
            Duration doubled = e.backoff.multipliedBy(2);
            entries.put(key, new Entry(doubled.compareTo(max) > 0 ? max : doubled, now));
        }
    }

    /** Whether less than the key's current delay has passed since {@code eventTime}. */
    public synchronized boolean isInBackOffSince(String key, Instant eventTime) {
        Entry e = entries.get(key);
        if (e == null || hasExpired(eventTime, e.lastUpdate)) {
            return false;
        }
        return Duration.between(eventTime, clock.instant()).compareTo(e.backoff) < 0;
    }

    /** Time left until the key's delay since {@code eventTime} has passed (zero when not backing off). */
    public synchronized Duration remaining(String key, Instant eventTime) {
        Entry e = entries.get(key);
        if (e == null || hasExpired(eventTime, e.lastUpdate)) {
            return Duration.ZERO;
        }
        Duration left = e.backoff.minus(Duration.between(eventTime, clock.instant()));
        return left.isNegative() ? Duration.ZERO : left;
    }

    public synchronized void reset(String key) {
        entries.remove(key);
    }

    /** Drops entries that have expired, as upstream's periodic GC does. */
    public synchronized void gc() {
        Instant now = clock.instant();
        entries.values().removeIf(e -> hasExpired(now, e.lastUpdate));
    }

    private boolean hasExpired(Instant eventTime, Instant lastUpdate) {
        return Duration.between(lastUpdate, eventTime).compareTo(max.multipliedBy(2)) > 0;
    }
}
