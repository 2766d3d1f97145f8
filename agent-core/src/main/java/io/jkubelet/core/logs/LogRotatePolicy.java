package io.jkubelet.core.logs;

import io.fabric8.kubernetes.api.model.Quantity;

import java.math.BigDecimal;

/**
 * How big a container's log may grow and how many files of it are kept (upstream {@code LogRotatePolicy}), from
 * {@code containerLogMaxSize} and {@code containerLogMaxFiles}.
 *
 * @param maxSize bytes the live file may reach before it is rotated; negative: never rotated (upstream's stub
 *     log manager)
 * @param maxFiles files kept per container, the live one included; at least 2
 */
public record LogRotatePolicy(long maxSize, int maxFiles) {

    public LogRotatePolicy {
        if (maxFiles <= 1) {
            throw new IllegalArgumentException("containerLogMaxFiles " + maxFiles + " must be greater than 1");
        }
    }

    /**
     * The policy of the configuration's values (upstream {@code parseMaxSize}: a quantity, in whole bytes).
     *
     * @throws IllegalArgumentException naming the field when a value cannot be used
     */
    public static LogRotatePolicy of(String containerLogMaxSize, int containerLogMaxFiles) {
        BigDecimal bytes;
        try {
            bytes = Quantity.getAmountInBytes(new Quantity(containerLogMaxSize));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("containerLogMaxSize \"" + containerLogMaxSize
                    + "\" is not a quantity such as 10Mi", e);
        }
        long maxSize;
        try {
            maxSize = bytes.longValueExact();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("containerLogMaxSize \"" + containerLogMaxSize
                    + "\" is not a whole number of bytes that fits 64 bits", e);
        }
        return new LogRotatePolicy(maxSize, containerLogMaxFiles);
    }

    /** Whether logs are rotated at all. */
    public boolean rotates() {
        return maxSize >= 0;
    }
}
