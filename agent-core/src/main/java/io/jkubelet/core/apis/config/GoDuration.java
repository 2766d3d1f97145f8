package io.jkubelet.core.apis.config;

import java.math.BigInteger;
import java.time.Duration;

/**
 * Go's {@code time.Duration} text form, which every duration in a {@code KubeletConfiguration} file
 * and on the kubelet command line uses ({@code "1m0s"}, {@code "20s"}, {@code "300ms"}, {@code "1h30m"}).
 *
 * <p>{@link #parse} accepts exactly what Go's {@code time.ParseDuration} accepts and {@link #format}
 * prints exactly what Go's {@code Duration.String()} prints, so that a value read from a file is
 * shown back (for example by {@code /configz}) the way the upstream kubelet shows it. Stateless and
 * thread-safe.
 */
public final class GoDuration {

    private static final long NANOS_PER_MICRO = 1_000L;
    private static final long NANOS_PER_MILLI = 1_000_000L;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long NANOS_PER_MINUTE = 60 * NANOS_PER_SECOND;
    private static final long NANOS_PER_HOUR = 60 * NANOS_PER_MINUTE;
    /** Go durations are int64 nanoseconds; 1<<63 is allowed only for a leading minus sign. */
    private static final BigInteger MAX_MAGNITUDE = BigInteger.ONE.shiftLeft(63);

    private GoDuration() {
    }

    /**
     * Parses a Go duration string: an optional sign, then one or more decimal numbers each with an
     * optional fraction and a unit ({@code ns}, {@code us}, {@code µs}, {@code ms}, {@code s},
     * {@code m}, {@code h}); {@code "0"} alone is allowed.
     *
     * @throws IllegalArgumentException with Go's own message, e.g. {@code time: invalid duration "abc"}
     */
    public static Duration parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("time: invalid duration \"\"");
        }
        String s = text;
        int i = 0;
        boolean negative = false;
        if (!s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+')) {
            negative = s.charAt(0) == '-';
            i++;
        }
        if (s.substring(i).equals("0")) {
            return Duration.ZERO;
        }
        if (i == s.length()) {
            throw invalid(text);
        }
        BigInteger totalNanos = BigInteger.ZERO;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (!(c == '.' || isDigit(c))) {
                throw invalid(text);
            }
            int start = i;
            while (i < s.length() && isDigit(s.charAt(i))) {
                i++;
            }
            String whole = s.substring(start, i);
            String fraction = "";
            if (i < s.length() && s.charAt(i) == '.') {
                i++;
                int fracStart = i;
                while (i < s.length() && isDigit(s.charAt(i))) {
                    i++;
                }
                fraction = s.substring(fracStart, i);
            }
            if (whole.isEmpty() && fraction.isEmpty()) {
                throw invalid(text); // "." or ".s"
            }
            int unitStart = i;
            while (i < s.length() && s.charAt(i) != '.' && !isDigit(s.charAt(i))) {
                i++;
            }
            if (unitStart == i) {
                throw new IllegalArgumentException("time: missing unit in duration " + quote(text));
            }
            String unit = s.substring(unitStart, i);
            long unitNanos = unitNanos(unit);
            if (unitNanos < 0) {
                throw new IllegalArgumentException(
                        "time: unknown unit " + quote(unit) + " in duration " + quote(text));
            }
            BigInteger unitValue = BigInteger.valueOf(unitNanos);
            BigInteger component = whole.isEmpty() ? BigInteger.ZERO : new BigInteger(whole).multiply(unitValue);
            if (!fraction.isEmpty()) {
                // Go truncates the fractional part towards zero at nanosecond precision.
                BigInteger scale = BigInteger.TEN.pow(fraction.length());
                component = component.add(new BigInteger(fraction).multiply(unitValue).divide(scale));
            }
            totalNanos = totalNanos.add(component);
            if (totalNanos.compareTo(MAX_MAGNITUDE) > 0) {
                throw invalid(text);
            }
        }
        if (!negative && totalNanos.compareTo(MAX_MAGNITUDE) == 0) {
            throw invalid(text);
        }
        BigInteger signed = negative ? totalNanos.negate() : totalNanos;
        return Duration.ofNanos(signed.longValue());
    }

    /**
     * Formats like Go's {@code Duration.String()}: {@code "0s"}, {@code "300ms"}, {@code "1.5µs"},
     * {@code "20s"}, {@code "1m0s"}, {@code "1h30m0s"}.
     *
     * @throws ArithmeticException if the duration does not fit in Go's int64 nanoseconds
     */
    public static String format(Duration duration) {
        long nanos = duration.toNanos();
        if (nanos == 0) {
            return "0s";
        }
        boolean negative = nanos < 0;
        // Long.MIN_VALUE has no positive counterpart: work with the unsigned magnitude.
        BigInteger magnitude = BigInteger.valueOf(nanos).abs();
        StringBuilder out = new StringBuilder();
        if (magnitude.compareTo(BigInteger.valueOf(NANOS_PER_SECOND)) < 0) {
            long u = magnitude.longValue();
            if (u < NANOS_PER_MICRO) {
                out.append(u).append("ns");
            } else if (u < NANOS_PER_MILLI) {
                out.append(decimal(u, NANOS_PER_MICRO, 3)).append("µs");
            } else {
                out.append(decimal(u, NANOS_PER_MILLI, 6)).append("ms");
            }
        } else {
            BigInteger[] hoursAndRest = magnitude.divideAndRemainder(BigInteger.valueOf(NANOS_PER_HOUR));
            BigInteger hours = hoursAndRest[0];
            long rest = hoursAndRest[1].longValue();
            long minutes = rest / NANOS_PER_MINUTE;
            long secondNanos = rest % NANOS_PER_MINUTE;
            if (hours.signum() > 0) {
                out.append(hours).append('h').append(minutes).append('m');
            } else if (minutes > 0) {
                out.append(minutes).append('m');
            }
            out.append(decimal(secondNanos, NANOS_PER_SECOND, 9)).append('s');
        }
        return negative ? "-" + out : out.toString();
    }

    private static String decimal(long value, long unit, int fractionDigits) {
        long whole = value / unit;
        long fraction = value % unit;
        if (fraction == 0) {
            return Long.toString(whole);
        }
        String digits = String.format("%0" + fractionDigits + "d", fraction);
        int end = digits.length();
        while (digits.charAt(end - 1) == '0') {
            end--;
        }
        return whole + "." + digits.substring(0, end);
    }

    private static long unitNanos(String unit) {
        return switch (unit) {
            case "ns" -> 1L;
            case "us", "µs", "μs" -> NANOS_PER_MICRO; // U+00B5 micro sign and U+03BC Greek mu
            case "ms" -> NANOS_PER_MILLI;
            case "s" -> NANOS_PER_SECOND;
            case "m" -> NANOS_PER_MINUTE;
            case "h" -> NANOS_PER_HOUR;
            default -> -1L;
        };
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static IllegalArgumentException invalid(String text) {
        return new IllegalArgumentException("time: invalid duration " + quote(text));
    }

    /** Quotes like Go's {@code strconv.Quote} for the plain text that appears in durations. */
    static String quote(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
