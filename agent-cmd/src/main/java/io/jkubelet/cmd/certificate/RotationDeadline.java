package io.jkubelet.cmd.certificate;

import java.time.Duration;
import java.time.Instant;

/**
 * When a certificate is renewed (client-go's {@code nextRotationDeadline} and {@code jitteryDuration}): at 70 to 90 %
 * of its lifetime from {@code NotBefore}, uniformly, so that nodes that joined together do not all renew together
 * for the rest of the cluster's life.
 */
public final class RotationDeadline {
    private RotationDeadline() {
    }

    /**
     * @param random uniform in [0, 1): where in the 70-90 % band the deadline falls
     */
    public static Instant of(Instant notBefore, Instant notAfter, double random) {
        long total = Duration.between(notBefore, notAfter).toNanos();
        // 70 % in whole tenths (no rounding at the band's start), then up to 20 % more.
        return notBefore.plusNanos(total / 10 * 7 + (long) (total / 5 * random));
    }
}
