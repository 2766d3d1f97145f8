package io.jkubelet.server.stats;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/**
 * A minimal JSON writer that produces what Go's {@code json.MarshalIndent(v, "", " ")} produces (go-restful's
 * pretty-printed responses, which {@code /stats/summary} is): one space per level, {@code "key": value},
 * {@code []} and {@code {}} for empty containers, {@code <>&} escaped as Go escapes them, no trailing newline.
 * Not thread-safe; one per encoding.
 */
final class GoIndentJson {
    /** {@code metav1.Time}'s JSON form: RFC 3339 in UTC, whole seconds. */
    private static final DateTimeFormatter RFC3339 = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'")
            .withZone(ZoneOffset.UTC);

    private final StringBuilder out = new StringBuilder(4096);
    private int depth;
    /** Per level: whether the container has no member yet. */
    private final boolean[] empty = new boolean[64];

    GoIndentJson beginObject() {
        return open('{');
    }

    GoIndentJson endObject() {
        return close('}');
    }

    GoIndentJson beginArray() {
        return open('[');
    }

    GoIndentJson endArray() {
        return close(']');
    }

    /** Starts a member of the current object: the value follows. */
    GoIndentJson name(String name) {
        member();
        string(name);
        out.append(": ");
        return this;
    }

    /** Starts an element of the current array: the value follows. */
    GoIndentJson element() {
        member();
        return this;
    }

    GoIndentJson value(String s) {
        if (s == null) {
            out.append("null");
        } else {
            string(s);
        }
        return this;
    }

    GoIndentJson value(long n) {
        out.append(n);
        return this;
    }

    /** A {@code metav1.Time}: {@code null} for the zero time. */
    GoIndentJson time(Instant t) {
        return t == null ? nullValue() : value(RFC3339.format(t.truncatedTo(ChronoUnit.SECONDS)));
    }

    GoIndentJson nullValue() {
        out.append("null");
        return this;
    }

    /** A field with {@code omitempty} on a pointer: written only when set. */
    GoIndentJson optional(String name, Long value) {
        if (value != null) {
            name(name).value(value);
        }
        return this;
    }

    @Override
    public String toString() {
        return out.toString();
    }

    private GoIndentJson open(char c) {
        out.append(c);
        depth++;
        empty[depth] = true;
        return this;
    }

    private GoIndentJson close(char c) {
        boolean wasEmpty = empty[depth];
        depth--;
        if (!wasEmpty) {
            newline();
        }
        out.append(c);
        return this;
    }

    private void member() {
        if (!empty[depth]) {
            out.append(',');
        }
        empty[depth] = false;
        newline();
    }

    private void newline() {
        out.append('\n');
        out.append(" ".repeat(depth));
    }

    private void string(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '<', '>', '&', '\u2028', '\u2029' -> out.append(String.format("\\u%04x", (int) c));
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
