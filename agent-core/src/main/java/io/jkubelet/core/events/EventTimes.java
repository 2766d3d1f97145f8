package io.jkubelet.core.events;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** How an event's times are written: {@code metav1.Time} (RFC 3339, whole seconds, UTC) and the name suffix. */
final class EventTimes {
    private EventTimes() {}

    static String format(Instant t) {
        return DateTimeFormatter.ISO_INSTANT.format(t.truncatedTo(ChronoUnit.SECONDS));
    }

    /** The Unix time in nanoseconds in lower-case hex, as Go's {@code %x} of {@code UnixNano()}. */
    static String hexNanos(Instant t) {
        return Long.toHexString(unixNanos(t));
    }

    static long unixNanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }
}
