package io.jkubelet.core.eviction;

import io.jkubelet.core.apis.config.GoDuration;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads the eviction settings into thresholds (upstream {@code ParseThresholdConfig}), with upstream's rules and
 * messages, each error prefixed with the field (and flag) it is about: signals upstream knows only, quantities that are
 * positive or percentages from 0% to 100% ({@code 0%} and {@code 100%} switch a threshold off), a grace period for
 * every soft threshold, minimum reclaims that are not negative. When node allocatable is enforced on pods, a hard
 * {@code memory.available} threshold is copied to {@code allocatableMemory.available}. Thresholds come out in a
 * fixed order (hard before soft, then by signal) where upstream's follow Go's map order. Stateless.
 */
public final class ThresholdParser {
    static final String UNSUPPORTED_SIGNAL = "unsupported eviction signal %s";
    /** {@code kubetypes.NodeAllocatableEnforcementKey}. */
    static final String NODE_ALLOCATABLE_ENFORCEMENT_KEY = "pods";
    /** Go's {@code strconv.ParseFloat} syntax (decimal, with exponent; Inf and NaN). */
    private static final Pattern GO_FLOAT =
            Pattern.compile("[+-]?(([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?|(?i:inf|infinity|nan))");

    private ThresholdParser() {
    }

    /**
     * @param enforceNodeAllocatable {@code enforceNodeAllocatable}
     * @throws IllegalArgumentException naming the field and what is wrong
     */
    public static List<Threshold> parseThresholdConfig(List<String> enforceNodeAllocatable, Map<String, String> hard,
            Map<String, String> soft, Map<String, String> softGracePeriod, Map<String, String> minimumReclaim) {
        List<Threshold> results = new ArrayList<>(in("evictionHard (--eviction-hard)", () -> parseStatements(hard)));
        List<Threshold> softThresholds = in("evictionSoft (--eviction-soft)", () -> parseStatements(soft));
        Map<Signal, Duration> gracePeriods = in("evictionSoftGracePeriod (--eviction-soft-grace-period)",
                () -> parseGracePeriods(softGracePeriod));
        Map<Signal, ThresholdValue> minReclaims = in("evictionMinimumReclaim (--eviction-minimum-reclaim)",
                () -> parseMinimumReclaims(minimumReclaim));
        for (Threshold t : softThresholds) {
            Duration period = gracePeriods.get(t.signal());
            if (period == null) {
                throw new IllegalArgumentException("evictionSoftGracePeriod (--eviction-soft-grace-period): grace period "
                        + "must be specified for the soft eviction threshold " + t.signal());
            }
            results.add(t.withGracePeriod(period));
        }
        results.replaceAll(t -> minReclaims.containsKey(t.signal()) ? t.withMinReclaim(minReclaims.get(t.signal())) : t);
        if (enforceNodeAllocatable != null && enforceNodeAllocatable.contains(NODE_ALLOCATABLE_ENFORCEMENT_KEY)) {
            results = addAllocatableThresholds(results);
        }
        return List.copyOf(results);
    }

    /** Upstream {@code addAllocatableThresholds}: the pods' cgroup gets the node's hard memory threshold. */
    private static List<Threshold> addAllocatableThresholds(List<Threshold> thresholds) {
        List<Threshold> out = new ArrayList<>(thresholds);
        for (Threshold t : thresholds) {
            if (t.signal() == Signal.MEMORY_AVAILABLE && t.isHard()) {
                out.add(new Threshold(Signal.ALLOCATABLE_MEMORY_AVAILABLE, t.value(), Duration.ZERO, t.minReclaim()));
            }
        }
        return out;
    }

    private interface Parse<T> {
        T get();
    }

    private static <T> T in(String field, Parse<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(field + ": " + e.getMessage(), e);
        }
    }

    private static List<Threshold> parseStatements(Map<String, String> statements) {
        List<Threshold> results = new ArrayList<>();
        if (statements == null) {
            return results;
        }
        statements.forEach((name, value) -> {
            Threshold t = parseStatement(signal(name), value);
            if (t != null) {
                results.add(t);
            }
        });
        results.sort(Comparator.comparing(Threshold::signal));
        return results;
    }

    /** A hard threshold, or null when the value switches it off (0% and 100%). */
    static Threshold parseStatement(Signal signal, String value) {
        if (value.endsWith("%")) {
            if (value.equals("0%") || value.equals("100%")) {
                return null;
            }
            float percentage = parsePercentage(value);
            if (percentage < 0) {
                throw new IllegalArgumentException("eviction percentage threshold " + signal + " must be >= 0%: " + value);
            }
            if (percentage > 1) {
                throw new IllegalArgumentException("eviction percentage threshold " + signal + " must be <= 100%: " + value);
            }
            return new Threshold(signal, ThresholdValue.ofPercentage(percentage), Duration.ZERO, null);
        }
        Quantities.Parsed quantity = Quantities.parse(value);
        if (quantity.value().signum() <= 0) {
            throw new IllegalArgumentException("eviction threshold " + signal + " must be positive: " + quantity.text());
        }
        return new Threshold(signal, ThresholdValue.ofQuantity(quantity), Duration.ZERO, null);
    }

    /** Upstream {@code parsePercentage}: a 32-bit float, divided by 100 in 32 bits. */
    private static float parsePercentage(String value) {
        String number = value.replaceAll("%+$", "");
        if (!GO_FLOAT.matcher(number).matches()) {
            throw new IllegalArgumentException("strconv.ParseFloat: parsing \"" + number + "\": invalid syntax");
        }
        String javaNumber = number.toLowerCase().replace("infinity", "inf").replace("inf", "Infinity").replace("nan", "NaN");
        return (float) Double.parseDouble(javaNumber) / 100f;
    }

    private static Map<Signal, Duration> parseGracePeriods(Map<String, String> statements) {
        Map<Signal, Duration> results = new EnumMap<>(Signal.class);
        if (statements == null) {
            return results;
        }
        statements.forEach((name, value) -> {
            Signal signal = signal(name);
            Duration period = GoDuration.parse(value);
            if (period.isNegative()) {
                throw new IllegalArgumentException("invalid eviction grace period specified: " + value
                        + ", must be a positive value");
            }
            results.put(signal, period);
        });
        return results;
    }

    private static Map<Signal, ThresholdValue> parseMinimumReclaims(Map<String, String> statements) {
        Map<Signal, ThresholdValue> results = new EnumMap<>(Signal.class);
        if (statements == null) {
            return results;
        }
        statements.forEach((name, value) -> {
            Signal signal = signal(name);
            if (value.endsWith("%")) {
                float percentage = parsePercentage(value);
                if (percentage <= 0) {
                    throw new IllegalArgumentException("eviction percentage minimum reclaim " + signal
                            + " must be positive: " + value);
                }
                results.put(signal, ThresholdValue.ofPercentage(percentage));
                return;
            }
            Quantities.Parsed quantity = Quantities.parse(value);
            if (quantity.value().signum() < 0) {
                throw new IllegalArgumentException("negative eviction minimum reclaim specified for " + signal);
            }
            results.put(signal, ThresholdValue.ofQuantity(quantity));
        });
        return results;
    }

    private static Signal signal(String name) {
        return Signal.of(name).orElseThrow(() -> new IllegalArgumentException(UNSUPPORTED_SIGNAL.formatted(name)));
    }
}
