package io.jkubelet.core.config.validation;

import java.math.BigDecimal;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The grammar of a resource quantity ({@code k8s.io/apimachinery/pkg/api/resource.ParseQuantity}):
 * a signed decimal number followed by a binary SI suffix ({@code Ki}..{@code Ei}), a decimal SI suffix
 * ({@code n u m "" k M G T P E}) or a decimal exponent ({@code e3}, {@code E-2}).
 *
 * <p>fabric8's {@code Quantity} accepts any string ({@code "abc"} becomes amount {@code "abc"}), so a
 * static pod's quantities are checked here, where the apiserver would have refused to decode them.
 */
public final class QuantityFormat {

    /** The apiserver's message when a quantity does not have the shape of one. */
    public static final String FORMAT_ERROR =
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
    /** The apiserver's message when the number is fine but the suffix is not one it knows. */
    public static final String SUFFIX_ERROR = "unable to parse quantity's suffix";

    private static final Pattern SHAPE = Pattern.compile("([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)");
    private static final Pattern NUMBER = Pattern.compile("[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)");
    private static final Pattern EXPONENT = Pattern.compile("[eE][-+]?[0-9]+");

    private static final Map<String, BigDecimal> SUFFIXES = Map.ofEntries(
            Map.entry("", BigDecimal.ONE),
            Map.entry("n", new BigDecimal("1e-9")),
            Map.entry("u", new BigDecimal("1e-6")),
            Map.entry("m", new BigDecimal("1e-3")),
            Map.entry("k", new BigDecimal("1e3")),
            Map.entry("M", new BigDecimal("1e6")),
            Map.entry("G", new BigDecimal("1e9")),
            Map.entry("T", new BigDecimal("1e12")),
            Map.entry("P", new BigDecimal("1e15")),
            Map.entry("E", new BigDecimal("1e18")),
            Map.entry("Ki", BigDecimal.valueOf(1L << 10)),
            Map.entry("Mi", BigDecimal.valueOf(1L << 20)),
            Map.entry("Gi", BigDecimal.valueOf(1L << 30)),
            Map.entry("Ti", BigDecimal.valueOf(1L << 40)),
            Map.entry("Pi", BigDecimal.valueOf(1L << 50)),
            Map.entry("Ei", BigDecimal.valueOf(1L << 60)));

    private QuantityFormat() {
    }

    /**
     * The quantity's value in base units (cores, bytes).
     *
     * @throws IllegalArgumentException with the apiserver's message when {@code text} is not a quantity
     */
    public static BigDecimal parse(String text) {
        Matcher shape = SHAPE.matcher(text);
        if (!shape.matches() || !NUMBER.matcher(shape.group(1)).matches()) {
            throw new IllegalArgumentException(FORMAT_ERROR);
        }
        BigDecimal number = new BigDecimal(shape.group(1));
        String suffix = shape.group(2);
        BigDecimal multiplier = SUFFIXES.get(suffix);
        if (multiplier != null) {
            return number.multiply(multiplier);
        }
        if (EXPONENT.matcher(suffix).matches()) {
            int exponent;
            try {
                exponent = Integer.parseInt(suffix.substring(1).replace("+", ""));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(SUFFIX_ERROR);
            }
            return number.scaleByPowerOfTen(exponent);
        }
        throw new IllegalArgumentException(SUFFIX_ERROR);
    }
}
