package io.jkubelet.core.eviction;

import java.time.Duration;
import java.util.List;

/**
 * How the eviction manager is configured (upstream {@code eviction.Config}).
 *
 * @param thresholds what {@link ThresholdParser} read from {@code evictionHard}, {@code evictionSoft},
 *     {@code evictionSoftGracePeriod} and {@code evictionMinimumReclaim}
 * @param pressureTransitionPeriod {@code evictionPressureTransitionPeriod}: how long a pressure condition stays after
 *     its threshold was last met
 * @param maxPodGracePeriodSeconds {@code evictionMaxPodGracePeriod}: the grace period of pods evicted for a soft
 *     threshold, never more than the pod's own; negative: the pod's own
 * @param localStorageCapacityIsolation {@code localStorageCapacityIsolation}: pods over their emptyDir size limits or
 *     {@code ephemeral-storage} limits are evicted too
 */
public record EvictionConfig(List<Threshold> thresholds, Duration pressureTransitionPeriod, long maxPodGracePeriodSeconds,
                             boolean localStorageCapacityIsolation) {
    /** Upstream's default {@code evictionPressureTransitionPeriod}. */
    public static final Duration DEFAULT_PRESSURE_TRANSITION_PERIOD = Duration.ofMinutes(5);

    /** No thresholds, no local storage limits: the manager observes nothing and evicts nothing. */
    public static final EvictionConfig NONE = new EvictionConfig(List.of(), DEFAULT_PRESSURE_TRANSITION_PERIOD, 0, false);

    public EvictionConfig {
        thresholds = List.copyOf(thresholds);
    }

    /** Thresholds only: local storage limits are not watched. */
    public EvictionConfig(List<Threshold> thresholds, Duration pressureTransitionPeriod, long maxPodGracePeriodSeconds) {
        this(thresholds, pressureTransitionPeriod, maxPodGracePeriodSeconds, false);
    }

    /** Whether there is anything to watch at all. */
    boolean watchesAnything() {
        return !thresholds.isEmpty() || localStorageCapacityIsolation;
    }
}
