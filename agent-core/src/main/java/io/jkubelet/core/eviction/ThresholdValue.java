package io.jkubelet.core.eviction;

/**
 * A threshold's amount (upstream {@code evictionapi.ThresholdValue}): an absolute quantity, or a fraction of the
 * signal's capacity.
 *
 * @param quantity the absolute amount in the signal's unit, when {@code text} is set
 * @param text the quantity as written, printed as Go prints it; null for a percentage
 * @param percentage the fraction of capacity (0.1 for {@code 10%}), a {@code float} as upstream keeps it
 */
public record ThresholdValue(long quantity, String text, float percentage) {

    static ThresholdValue ofQuantity(Quantities.Parsed parsed) {
        return new ThresholdValue(parsed.ceil(), parsed.text(), 0);
    }

    static ThresholdValue ofPercentage(float fraction) {
        return new ThresholdValue(0, null, fraction);
    }

    public boolean isPercentage() {
        return text == null;
    }

    /**
     * The amount against {@code capacity} (upstream {@code GetThresholdQuantity}): the quantity, or the percentage of
     * the capacity, rounded down as upstream's {@code int64(float64(capacity) * float64(percentage))}.
     */
    long quantity(long capacity) {
        return isPercentage() ? (long) (capacity * (double) percentage) : quantity;
    }

    /**
     * How the eviction message prints the amount against {@code capacity}: as written, or, for a percentage, in
     * binary form whatever the resource (upstream makes that quantity {@code BinarySI}, inodes too).
     */
    String format(long capacity) {
        return isPercentage() ? Quantities.binary(quantity(capacity)) : text;
    }

    @Override
    public String toString() {
        return isPercentage() ? percentage * 100 + "%" : text;
    }
}
