package io.jkubelet.core.apis.config;

import java.time.Duration;
import java.util.Objects;

/**
 * {@code logging.flushFrequency}: a duration written either as a Go duration string ({@code "5s"}) or,
 * for backwards compatibility, as an integer number of nanoseconds; it is printed back in the form
 * it was read (upstream {@code TimeOrMetaDuration}).
 *
 * @param duration          the duration
 * @param serializeAsString whether it is printed as a string ({@code "5s"}) rather than nanoseconds
 */
public record TimeOrMetaDuration(Duration duration, boolean serializeAsString) {

    public TimeOrMetaDuration {
        Objects.requireNonNull(duration, "duration");
    }

    /** The zero value: 0 nanoseconds, printed as an integer like Go's zero value. */
    public static final TimeOrMetaDuration ZERO = new TimeOrMetaDuration(Duration.ZERO, false);
}
