package io.jkubelet.core.images;

import java.time.Duration;
import java.util.Objects;

/**
 * The band image GC keeps the image file system in (upstream {@code ImageGCPolicy}), from
 * {@code imageGCHighThresholdPercent}, {@code imageGCLowThresholdPercent}, {@code imageMinimumGCAge} and
 * {@code imageMaximumGCAge}.
 *
 * @param highThresholdPercent at or above this usage, unused images are removed
 * @param lowThresholdPercent ... down to this usage
 * @param minAge an image first seen less than this ago is never removed: it may have just been pulled for a
 *     container about to start
 * @param maxAge an image unused for longer than this is removed whatever the usage; zero: never
 */
public record ImageGCPolicy(int highThresholdPercent, int lowThresholdPercent, Duration minAge, Duration maxAge) {
    /** The v1beta1 defaults: 85 %, 80 %, 2 minutes, no maximum age. */
    public static final ImageGCPolicy DEFAULT = new ImageGCPolicy(85, 80, Duration.ofMinutes(2), Duration.ZERO);

    /** @throws IllegalArgumentException with upstream's message ({@code NewImageGCManager}) for a policy it refuses */
    public ImageGCPolicy {
        Objects.requireNonNull(minAge, "minAge");
        Objects.requireNonNull(maxAge, "maxAge");
        if (highThresholdPercent < 0 || highThresholdPercent > 100) {
            throw new IllegalArgumentException("invalid HighThresholdPercent " + highThresholdPercent
                    + ", must be in range [0-100]");
        }
        if (lowThresholdPercent < 0 || lowThresholdPercent > 100) {
            throw new IllegalArgumentException("invalid LowThresholdPercent " + lowThresholdPercent
                    + ", must be in range [0-100]");
        }
        if (lowThresholdPercent > highThresholdPercent) {
            throw new IllegalArgumentException("LowThresholdPercent " + lowThresholdPercent
                    + " can not be higher than HighThresholdPercent " + highThresholdPercent);
        }
    }

    /**
     * Whether periodic image GC runs at all: upstream does not start it when the high threshold is 100 % and there
     * is no maximum age (the manager still frees space when the node is short of disk).
     */
    public boolean periodic() {
        return highThresholdPercent < 100 || !maxAge.isZero();
    }
}
