package io.jkubelet.core.eviction;

import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.config.validation.QuantityFormat;
import io.jkubelet.core.nodestatus.NodeResources;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * Quantities as Go's {@code resource.Quantity} prints them ({@code String()}), which is how the eviction messages
 * show thresholds, what is available and what containers use: amounts in bytes in binary form ({@code 100Mi}, plain
 * below 1Ki or when not a whole multiple), counts in decimal form ({@code 5k}), and a parsed quantity in the form its
 * suffix chose, canonicalised ({@code 1024Mi} prints {@code 1Gi}).
 */
final class Quantities {
    private static final String[] DECIMAL_SUFFIXES = {"n", "u", "m", "", "k", "M", "G", "T", "P", "E"};
    /** The exponent of {@code DECIMAL_SUFFIXES[0]}. */
    private static final int LOWEST_EXPONENT = -9;

    private Quantities() {
    }

    /** A parsed quantity: its value in base units and how Go prints it. */
    record Parsed(BigDecimal value, String text) {
        /** The value rounded up to a whole number, as {@code Value()} rounds. */
        long ceil() {
            return value.setScale(0, RoundingMode.CEILING).longValueExact();
        }
    }

    /**
     * Parses a quantity ({@code resource.ParseQuantity}).
     *
     * @throws IllegalArgumentException with the apiserver's message when {@code text} is not a quantity
     */
    static Parsed parse(String text) {
        BigDecimal value = QuantityFormat.parse(text.strip());
        String suffix = text.strip().replaceFirst("^[+-]?[0-9.]+", "");
        String printed;
        if (suffix.endsWith("i")) {
            printed = value.signum() != 0 && isWhole(value) && value.abs().compareTo(BigDecimal.valueOf(1024)) >= 0
                    ? binary(value.longValueExact()) : decimal(value);
        } else if (suffix.startsWith("e") || suffix.startsWith("E") && suffix.length() > 1) {
            printed = exponent(value);
        } else {
            printed = decimal(value);
        }
        return new Parsed(value, printed);
    }

    /**
     * A quantity of a pod's spec. One that does not parse (only a static pod skips the apiserver's validation, and
     * static pods are never evicted) keeps its text as written.
     */
    static Parsed of(Quantity q) {
        try {
            return parse(q.toString());
        } catch (IllegalArgumentException e) {
            return new Parsed(Quantity.getAmountInBytes(q), q.toString());
        }
    }

    /** Bytes as a {@code BinarySI} quantity prints. */
    static String binary(long bytes) {
        return NodeResources.bytes(bytes).toString();
    }

    /** A count as a {@code DecimalSI} quantity prints. */
    static String decimal(long count) {
        return decimal(BigDecimal.valueOf(count));
    }

    private static String decimal(BigDecimal value) {
        if (value.signum() == 0) {
            return "0";
        }
        Scaled s = scaled(value);
        int exponent = Math.min(s.exponent, 18);
        BigInteger mantissa = s.mantissa.multiply(BigInteger.TEN.pow(s.exponent - exponent));
        return mantissa + DECIMAL_SUFFIXES[(exponent - LOWEST_EXPONENT) / 3];
    }

    private static String exponent(BigDecimal value) {
        if (value.signum() == 0) {
            return "0";
        }
        Scaled s = scaled(value);
        return s.exponent == 0 ? s.mantissa.toString() : s.mantissa + "e" + s.exponent;
    }

    /** A whole mantissa times ten to an exponent that is a multiple of 3, the exponent as large as it can be. */
    private record Scaled(BigInteger mantissa, int exponent) {}

    private static Scaled scaled(BigDecimal value) {
        // Go keeps nine decimal places at most, rounding up.
        BigDecimal v = value.setScale(Math.min(Math.max(value.scale(), 0), -LOWEST_EXPONENT), RoundingMode.CEILING)
                .stripTrailingZeros();
        int exponent = -v.scale();
        BigInteger mantissa = v.unscaledValue();
        int down = Math.floorMod(exponent, 3);
        return new Scaled(mantissa.multiply(BigInteger.TEN.pow(down)), exponent - down);
    }

    private static boolean isWhole(BigDecimal v) {
        return v.signum() == 0 || v.stripTrailingZeros().scale() <= 0;
    }
}
