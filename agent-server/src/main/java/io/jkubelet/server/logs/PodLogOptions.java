package io.jkubelet.server.logs;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The query of {@code GET /containerLogs/...}, as the kubelet decodes it into a {@code v1.PodLogOptions}
 * (locked to API version v1). Absent numbers are null; absent booleans false.
 *
 * @param sinceTime null when absent; {@link Instant#EPOCH}-like zero ({@link #ZERO_TIME}) for an empty value,
 *     as Go's {@code metav1.Time} decodes {@code sinceTime=}
 * @param stream {@code All}, {@code Stdout} or {@code Stderr}; null when absent
 */
public record PodLogOptions(
        boolean follow,
        boolean previous,
        boolean timestamps,
        Long sinceSeconds,
        Instant sinceTime,
        Long tailLines,
        Long limitBytes,
        String stream) {

    /** Go's zero {@code time.Time} (year 1), what an empty {@code sinceTime} decodes to. */
    public static final Instant ZERO_TIME = Instant.parse("0001-01-01T00:00:00Z");

    /** {@code v1.LogStreamAll}, the only stream a kubelet without the PodLogsQuerySplitStreams gate returns. */
    public static final String STREAM_ALL = "All";

    /** A query value that does not decode; the kubelet answers 400 {@code Unable to decode query.}. */
    public static final class DecodeException extends Exception {
        public DecodeException(String message) {
            super(message);
        }
    }

    /**
     * Decodes {@code query} as the kubelet does: the legacy {@code tail} first replaces {@code tailLines}
     * ({@code tail=all} removes it); a boolean is false only when absent, {@code false} (any case) or {@code
     * 0}; numbers are base-10 64-bit integers; {@code sinceTime} is RFC 3339. Only the first value of a
     * repeated parameter counts; unknown parameters are ignored.
     *
     * @throws DecodeException naming the parameter that does not decode
     */
    public static PodLogOptions decode(Map<String, List<String>> query) throws DecodeException {
        String tailLines = first(query, "tailLines");
        String tail = first(query, "tail");
        if (tail != null && !tail.isEmpty()) {
            tailLines = tail.equals("all") ? null : tail;
        }
        return new PodLogOptions(
                bool(first(query, "follow")),
                bool(first(query, "previous")),
                bool(first(query, "timestamps")),
                int64("sinceSeconds", first(query, "sinceSeconds")),
                time("sinceTime", first(query, "sinceTime")),
                int64("tailLines", tailLines),
                int64("limitBytes", first(query, "limitBytes")),
                first(query, "stream"));
    }

    /**
     * Upstream's {@code ValidatePodLogOptions}: the field errors (empty when valid). The kubelet answers
     * any of them with 422 {@code Invalid request.}.
     */
    public List<String> validate() {
        List<String> errors = new ArrayList<>();
        if (tailLines != null && tailLines < 0) {
            errors.add("tailLines: Invalid value: " + tailLines + ": must be greater than or equal to 0");
        }
        if (limitBytes != null && limitBytes < 1) {
            errors.add("limitBytes: Invalid value: " + limitBytes + ": must be greater than 0");
        }
        if (sinceSeconds != null && sinceTime != null) {
            errors.add("Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified");
        } else if (sinceSeconds != null && sinceSeconds < 1) {
            errors.add("sinceSeconds: Invalid value: " + sinceSeconds + ": must be greater than 0");
        }
        if (stream != null) {
            if (!List.of("Stdout", "Stderr", STREAM_ALL).contains(stream)) {
                errors.add("stream: Unsupported value: \"" + stream + "\": supported values: \"All\", \"Stderr\", \"Stdout\"");
            }
            if (!stream.equals(STREAM_ALL) && tailLines != null) {
                errors.add("Forbidden: `tailLines` and specific `stream` are mutually exclusive for now");
            }
        }
        return errors;
    }

    /**
     * The oldest log time to return (upstream {@code NewLogOptions}): now minus {@code sinceSeconds}, or
     * {@code sinceTime} when that is later; null when neither is given.
     */
    public Instant since(Instant now) {
        Instant since = null;
        if (sinceSeconds != null) {
            since = now.minusSeconds(sinceSeconds);
        }
        if (sinceTime != null && (since == null || sinceTime.isAfter(since))) {
            since = sinceTime;
        }
        return since;
    }

    private static String first(Map<String, List<String>> query, String name) {
        List<String> values = query.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    private static boolean bool(String value) {
        return value != null && !value.equals("0") && !value.equalsIgnoreCase("false");
    }

    private static Long int64(String name, String value) throws DecodeException {
        if (value == null) {
            return null;
        }
        // Go's strconv.ParseInt: an optional sign and decimal digits only.
        if (!value.matches("[+-]?[0-9]+")) {
            throw new DecodeException(name + ": invalid syntax: " + value);
        }
        try {
            return Long.parseLong(value.startsWith("+") ? value.substring(1) : value);
        } catch (NumberFormatException e) {
            throw new DecodeException(name + ": value out of range: " + value);
        }
    }

    private static Instant time(String name, String value) throws DecodeException {
        if (value == null) {
            return null;
        }
        if (value.isEmpty() || value.equals("null")) {
            return ZERO_TIME;
        }
        try {
            return OffsetDateTime.parse(value, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
        } catch (DateTimeParseException e) {
            throw new DecodeException(name + ": not an RFC 3339 time: " + value);
        }
    }
}
