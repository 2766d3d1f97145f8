package io.jkubelet.core.eviction;

import io.jkubelet.core.apis.config.GoDuration;

import java.time.Duration;

/**
 * One eviction threshold (upstream {@code evictionapi.Threshold}): the signal is met when what is available is less
 * than the value. Hard thresholds have no grace period; soft ones must be met for their grace period before pods are
 * evicted.
 *
 * @param minReclaim how much more than the threshold must be available again before the threshold counts as
 *     resolved ({@code evictionMinimumReclaim}); null for none
 */
public record Threshold(Signal signal, ThresholdValue value, Duration gracePeriod, ThresholdValue minReclaim) {

    /** A hard threshold: acted on at once, pods get no more than a second to stop. */
    public boolean isHard() {
        return gracePeriod.isZero();
    }

    Threshold withMinReclaim(ThresholdValue reclaim) {
        return new Threshold(signal, value, gracePeriod, reclaim);
    }

    Threshold withGracePeriod(Duration grace) {
        return new Threshold(signal, value, grace, minReclaim);
    }

    /** Upstream {@code formatThreshold}, for the log. */
    @Override
    public String toString() {
        return "threshold(signal=" + signal + ", operator=LessThan, value=" + value + ", gracePeriod="
                + GoDuration.format(gracePeriod) + ")";
    }
}
