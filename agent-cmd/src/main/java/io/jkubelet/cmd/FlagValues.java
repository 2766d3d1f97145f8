package io.jkubelet.cmd;

import io.jkubelet.core.apis.config.GoDuration;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parsers for flag values with the syntax and the error messages of Go's {@code strconv}, {@code time}
 * and the kubelet's {@code cliflag} types, so that a value that a kubelet accepts is accepted here and
 * a rejected one is explained the same way. Each parser throws {@link BadValue} with the reason only;
 * the caller names the flag.
 */
final class FlagValues {

    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
    private static final Pattern IPV6_CHARS = Pattern.compile("[0-9A-Fa-f:][0-9A-Fa-f:.]*");

    private FlagValues() {
    }

    /** A value the parser rejects; the message is the reason, as Go phrases it. */
    static final class BadValue extends Exception {
        BadValue(String reason) {
            super(reason);
        }
    }

    /** Go's {@code strconv.ParseInt(s, 0, 32)}: decimal, 0x hex, 0o/0 octal, 0b binary. */
    static int int32(String s) throws BadValue {
        return parseInt(s, 32).intValueExact();
    }

    /** Go's {@code strconv.ParseInt(s, 0, 64)}: pflag's int64 flags. */
    static long int64(String s) throws BadValue {
        return parseInt(s, 64).longValueExact();
    }

    private static BigInteger parseInt(String s, int bits) throws BadValue {
        String text = s;
        boolean negative = false;
        if (!text.isEmpty() && (text.charAt(0) == '+' || text.charAt(0) == '-')) {
            negative = text.charAt(0) == '-';
            text = text.substring(1);
        }
        int base = 10;
        String digits = text;
        String lower = text.toLowerCase(Locale.ROOT);
        if (lower.startsWith("0x")) {
            base = 16;
            digits = text.substring(2);
        } else if (lower.startsWith("0o")) {
            base = 8;
            digits = text.substring(2);
        } else if (lower.startsWith("0b")) {
            base = 2;
            digits = text.substring(2);
        } else if (text.length() > 1 && text.charAt(0) == '0') {
            base = 8;
            digits = text.substring(1);
        }
        if (base != 10) {
            // Go allows '_' after the base prefix and between digits, never doubled or trailing.
            if (digits.endsWith("_") || digits.contains("__")) {
                throw syntax("ParseInt", s);
            }
            digits = digits.replace("_", "");
        }
        if (digits.isEmpty() || !digits.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw syntax("ParseInt", s);
        }
        BigInteger value;
        try {
            value = new BigInteger(digits, base);
        } catch (NumberFormatException e) {
            throw syntax("ParseInt", s);
        }
        if (negative) {
            value = value.negate();
        }
        if (value.bitLength() > bits - 1) {
            throw new BadValue("strconv.ParseInt: parsing " + quote(s) + ": value out of range");
        }
        return value;
    }

    /** Go's {@code strconv.ParseUint(s, 10, 32)}: the syntax of klog's {@code -v}. */
    static long uint32(String s) throws BadValue {
        if (s.isEmpty() || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw syntax("ParseUint", s);
        }
        BigInteger value = new BigInteger(s);
        if (value.bitLength() > 32) {
            throw new BadValue("strconv.ParseUint: parsing " + quote(s) + ": value out of range");
        }
        return value.longValue();
    }

    /** Go's {@code strconv.ParseBool}. */
    static boolean bool(String s) throws BadValue {
        return switch (s) {
            case "1", "t", "T", "TRUE", "true", "True" -> true;
            case "0", "f", "F", "FALSE", "false", "False" -> false;
            default -> throw syntax("ParseBool", s);
        };
    }

    /** Go's {@code time.ParseDuration}. */
    static Duration duration(String s) throws BadValue {
        try {
            return GoDuration.parse(s);
        } catch (IllegalArgumentException e) {
            throw new BadValue(e.getMessage());
        }
    }

    /** An IP address literal (pflag's IPVar): IPv4, or IPv6 with or without an embedded IPv4 tail. */
    static String ip(String s) throws BadValue {
        if (!isIpLiteral(s)) {
            throw new BadValue(quote(s) + " is not a valid IP address");
        }
        return s;
    }

    static boolean isIpLiteral(String s) {
        Matcher v4 = IPV4.matcher(s);
        if (v4.matches()) {
            for (int i = 1; i <= 4; i++) {
                if (Integer.parseInt(v4.group(i)) > 255) {
                    return false;
                }
            }
            return true;
        }
        if (!s.contains(":") || !IPV6_CHARS.matcher(s).matches()) {
            return false;
        }
        try {
            // Starting with a hex digit or ':' and holding a ':', the JDK parses it as an IPv6 literal and
            // never asks DNS; an invalid literal fails at once.
            InetAddress.getByName(s);
            return true;
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** pflag's StringSlice: comma-separated values (an empty value is an empty list). */
    static List<String> csv(String s) {
        List<String> out = new ArrayList<>();
        if (s.isEmpty()) {
            return out;
        }
        for (String part : s.split(",", -1)) {
            out.add(part);
        }
        return out;
    }

    /**
     * cliflag's MapStringString ({@code separator} '=') and LangleSeparatedMapStringString ('&lt;'):
     * comma-separated {@code key<sep>value} pairs, keys and values trimmed, empty items skipped.
     */
    static Map<String, String> pairs(String s, char separator) throws BadValue {
        Map<String, String> out = new LinkedHashMap<>();
        for (String item : s.split(",", -1)) {
            String pair = item.trim();
            if (pair.isEmpty()) {
                continue;
            }
            int at = pair.indexOf(separator);
            if (at < 0) {
                throw new BadValue("malformed pair, expect string" + separator + "string");
            }
            out.put(pair.substring(0, at).trim(), pair.substring(at + 1).trim());
        }
        return out;
    }

    /**
     * cliflag's MapStringBool ({@code --feature-gates}): comma-separated {@code key=bool} pairs, keys and values
     * trimmed, empty items skipped, values with Go's {@code strconv.ParseBool}.
     */
    static Map<String, Boolean> boolPairs(String s) throws BadValue {
        Map<String, Boolean> out = new LinkedHashMap<>();
        for (String item : s.split(",", -1)) {
            if (item.isEmpty()) {
                continue;
            }
            int at = item.indexOf('=');
            if (at < 0) {
                throw new BadValue("missing bool value for " + item);
            }
            String key = item.substring(0, at).trim();
            String value = item.substring(at + 1).trim();
            try {
                out.put(key, bool(value));
            } catch (BadValue e) {
                throw new BadValue("invalid value of " + key + "=" + value + ", err: " + e.getMessage());
            }
        }
        return out;
    }

    /** cliflag's ColonSeparatedMultimapStringString: {@code key:value} pairs, values under a key accumulate. */
    static void headers(String s, Map<String, List<String>> into) throws BadValue {
        for (String pair : s.split(",", -1)) {
            if (pair.isEmpty()) {
                continue;
            }
            int at = pair.indexOf(':');
            if (at < 0) {
                throw new BadValue("malformed pair, expect string:string");
            }
            into.computeIfAbsent(pair.substring(0, at).trim(), k -> new ArrayList<>())
                    .add(pair.substring(at + 1).trim());
        }
    }

    private static BadValue syntax(String function, String s) {
        return new BadValue("strconv." + function + ": parsing " + quote(s) + ": invalid syntax");
    }

    static String quote(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
