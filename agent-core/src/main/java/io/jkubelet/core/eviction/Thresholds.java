package io.jkubelet.core.eviction;

import io.jkubelet.core.nodestatus.NodeConditions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The decisions of one eviction cycle that need no state of their own (upstream {@code helpers.go}): which
 * thresholds the observations meet, since when, whether their grace periods have passed, which node conditions
 * follow and for how long they stay. Pure functions of their arguments; the time is an argument.
 */
final class Thresholds {
    private static final Logger log = LoggerFactory.getLogger(Thresholds.class);
    /** The order node conditions are reported and printed in (upstream follows Go's map order). */
    private static final List<String> CONDITION_ORDER = List.of(NodeConditions.MEMORY_PRESSURE,
            NodeConditions.DISK_PRESSURE, NodeConditions.PID_PRESSURE);

    private Thresholds() {
    }

    /**
     * The thresholds met now, whatever their grace periods (upstream {@code thresholdsMet}). With
     * {@code enforceMinReclaim}, a threshold counts as met until its minimum reclaim is available on top of it: a
     * threshold once met is only resolved with that margin.
     */
    static List<Threshold> met(List<Threshold> thresholds, SignalObservations observations, boolean enforceMinReclaim) {
        List<Threshold> results = new ArrayList<>();
        for (Threshold t : thresholds) {
            Optional<Observation> observed = observations.get(t.signal());
            if (observed.isEmpty()) {
                log.debug("Eviction manager: no observation found for eviction signal {}", t.signal());
                continue;
            }
            long quantity = t.value().quantity(observed.get().capacity());
            if (enforceMinReclaim && t.minReclaim() != null) {
                quantity += t.minReclaim().quantity(observed.get().capacity());
            }
            if (quantity > observed.get().available()) {
                results.add(t);
            }
        }
        return results;
    }

    /** {@code a} followed by what of {@code b} is not in it (upstream {@code mergeThresholds}). */
    static List<Threshold> merge(List<Threshold> a, List<Threshold> b) {
        List<Threshold> results = new ArrayList<>(a);
        for (Threshold t : b) {
            if (results.stream().noneMatch(r -> sameThreshold(r, t))) {
                results.add(t);
            }
        }
        return results;
    }

    /** Upstream {@code hasThreshold}: signal, value and grace period, not the minimum reclaim. */
    private static boolean sameThreshold(Threshold a, Threshold b) {
        return a.signal() == b.signal() && a.gracePeriod().equals(b.gracePeriod()) && sameValue(a.value(), b.value());
    }

    private static boolean sameValue(ThresholdValue a, ThresholdValue b) {
        if (a.isPercentage() != b.isPercentage()) {
            return false;
        }
        return a.isPercentage() ? a.percentage() == b.percentage() : a.quantity() == b.quantity();
    }

    /**
     * When each threshold met now was first met (upstream {@code thresholdsFirstObservedAt}): its earlier time if it
     * was met in the previous cycle too, else now. Thresholds no longer met are forgotten.
     */
    static Map<Threshold, Instant> firstObservedAt(List<Threshold> thresholds, Map<Threshold, Instant> last, Instant now) {
        Map<Threshold, Instant> results = new LinkedHashMap<>();
        for (Threshold t : thresholds) {
            results.put(t, last.getOrDefault(t, now));
        }
        return results;
    }

    /** The thresholds met for at least their grace period (upstream {@code thresholdsMetGracePeriod}). */
    static List<Threshold> metGracePeriod(Map<Threshold, Instant> observedAt, Instant now) {
        List<Threshold> results = new ArrayList<>();
        observedAt.forEach((t, at) -> {
            Duration duration = Duration.between(at, now);
            if (duration.compareTo(t.gracePeriod()) < 0) {
                log.debug("Eviction manager: eviction criteria not yet met for {}, duration: {}", t, duration);
                return;
            }
            results.add(t);
        });
        return results;
    }

    /** The node conditions the thresholds report, each once, in a fixed order (upstream {@code nodeConditions}). */
    static List<String> nodeConditions(List<Threshold> thresholds) {
        return CONDITION_ORDER.stream()
                .filter(c -> thresholds.stream().anyMatch(t -> t.signal().nodeCondition().equals(c))).toList();
    }

    /**
     * When each condition was last observed (upstream {@code nodeConditionsLastObservedAt}): those observed now at
     * now, the others at their earlier time.
     */
    static Map<String, Instant> nodeConditionsLastObservedAt(List<String> conditions, Map<String, Instant> last,
            Instant now) {
        Map<String, Instant> results = new LinkedHashMap<>(last);
        conditions.forEach(c -> results.put(c, now));
        return results;
    }

    /**
     * The conditions observed within {@code period} (upstream {@code nodeConditionsObservedSince}): a condition stays
     * for the pressure transition period after its threshold was last met, so that it does not flap.
     */
    static List<String> nodeConditionsObservedSince(Map<String, Instant> observedAt, Duration period, Instant now) {
        return CONDITION_ORDER.stream().filter(observedAt::containsKey)
                .filter(c -> Duration.between(observedAt.get(c), now).compareTo(period) < 0).toList();
    }

    /**
     * The thresholds whose signal was measured again since the last cycle (upstream {@code thresholdsUpdatedStats}):
     * pods are only evicted on fresh numbers, never twice on the same ones.
     */
    static List<Threshold> updatedStats(List<Threshold> thresholds, SignalObservations observations,
            SignalObservations last) {
        List<Threshold> results = new ArrayList<>();
        for (Threshold t : thresholds) {
            Optional<Observation> observed = observations.get(t.signal());
            if (observed.isEmpty()) {
                continue;
            }
            Optional<Observation> before = last == null ? Optional.empty() : last.get(t.signal());
            Instant time = observed.get().time();
            if (before.isEmpty() || time == null || before.get().time() == null || time.isAfter(before.get().time())) {
                results.add(t);
            }
        }
        return results;
    }

    /** Memory before every other resource (upstream {@code byEvictionPriority}); otherwise in the given order. */
    static List<Threshold> byEvictionPriority(List<Threshold> thresholds) {
        List<Threshold> sorted = new ArrayList<>(thresholds);
        sorted.sort(Comparator.comparing((Threshold t) -> !t.signal().isMemory()));
        return sorted;
    }

    /**
     * The threshold met for {@code resource} and its quantity and what was available, for the eviction message
     * (upstream {@code getThresholdMetInfo}): the first threshold of that resource with an observation.
     */
    static Optional<String> thresholdMetInfo(Signal.Resource resource, List<Threshold> thresholds,
            SignalObservations observations) {
        for (Threshold t : thresholds) {
            if (t.signal().resource() != resource) {
                continue;
            }
            Optional<Observation> observed = observations.get(t.signal());
            if (observed.isPresent()) {
                Observation o = observed.get();
                return Optional.of("Threshold quantity: " + t.value().format(o.capacity()) + ", available: "
                        + resource.format(o.available()) + ". ");
            }
        }
        return Optional.empty();
    }
}
