package io.jkubelet.core.config;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Go's {@code time.RFC3339Nano} layout, which the kubelet uses for {@code kubernetes.io/config.seen}. */
final class Timestamps {

    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss")
            .withZone(ZoneOffset.UTC);

    private Timestamps() {
    }

    /**
     * Formats in UTC as Go's RFC3339Nano does: the fraction has its trailing zeros removed (and is
     * left out when zero), e.g. {@code 2024-05-01T10:00:00.12Z}.
     */
    static String rfc3339Nano(Instant instant) {
        StringBuilder out = new StringBuilder(SECONDS.format(instant));
        int nanos = instant.getNano();
        if (nanos != 0) {
            String fraction = String.format("%09d", nanos);
            int end = fraction.length();
            while (fraction.charAt(end - 1) == '0') {
                end--;
            }
            out.append('.').append(fraction, 0, end);
        }
        return out.append('Z').toString();
    }
}
