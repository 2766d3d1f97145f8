package io.jkubelet.cmd;

import io.jkubelet.cmd.FlagValues.BadValue;
import io.jkubelet.core.apis.config.GoDuration;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A flag that sets a {@link KubeletConfiguration} field (upstream {@code AddKubeletConfigFlags}): how one occurrence
 * sets the configuration being built, and which field it shows, whose value in the flags' starting configuration
 * ({@link ConfigFlagDefaults}) is the default its help prints, so that the help says what the agent applies.
 *
 * @param spec   the flag as the user sees it
 * @param field  the field the flag sets, read off a configuration (its value as a Java value: a boolean, number,
 *               duration, string, list or map)
 * @param setter how one occurrence sets it
 */
record ConfigFlag(FlagSpec spec, Function<KubeletConfiguration, ?> field, Setter setter) {

    /**
     * Sets one occurrence of a flag on the configuration being built; {@code earlier} holds the flag's
     * earlier occurrences on the command line, already set.
     */
    @FunctionalInterface
    interface Setter {
        void set(KubeletConfiguration.Builder config, String value, List<String> earlier) throws BadValue;
    }

    static ConfigFlag flag(FlagSpec spec, Function<KubeletConfiguration, ?> field, Setter setter) {
        return new ConfigFlag(spec, field, setter);
    }

    /** This flag, deprecated with {@code notice}. */
    ConfigFlag deprecated(String notice) {
        return new ConfigFlag(spec.deprecated(notice), field, setter);
    }

    /** The flag's default as pflag prints its value ({@code DefValue}): the field's value in {@code defaults}. */
    String defaultValue(KubeletConfiguration defaults) {
        return pflagString(field.apply(defaults));
    }

    /**
     * How pflag's values print themselves: a duration as Go's {@code Duration.String}, a string slice as
     * {@code [a,b]}, cliflag's maps as {@code k=v} pairs sorted by key ({@code k<v} for the eviction thresholds'
     * {@code LangleSeparatedMapStringString}, whose value label holds a {@code <}); nothing for no value.
     */
    private String pflagString(Object value) {
        return switch (value) {
            case null -> "";
            case Duration d -> GoDuration.format(d);
            case Collection<?> list -> list.stream().map(String::valueOf).collect(Collectors.joining(",", "[", "]"));
            case Map<?, ?> map -> {
                String separator = spec.paramLabel().contains("<") ? "<" : "=";
                yield new TreeMap<>(map).entrySet().stream().map(e -> e.getKey() + separator + e.getValue())
                        .collect(Collectors.joining(","));
            }
            default -> String.valueOf(value);
        };
    }

    /**
     * A flag of {@code key<separator>value} pairs (cliflag's mapStringString): its first occurrence replaces the file's
     * (or the default) map, later ones add to it.
     */
    static void pairs(Consumer<Map<String, String>> replace, Consumer<Map<String, String>> add, String value,
                      char separator, List<String> earlier) throws BadValue {
        pairs(replace, add, FlagValues.pairs(value, separator), earlier);
    }

    /** The pairs of one occurrence of a map flag: the first occurrence replaces the map, later ones add to it. */
    static void pairs(Consumer<Map<String, String>> replace, Consumer<Map<String, String>> add, Map<String, String> pairs,
                      List<String> earlier) {
        if (earlier.isEmpty()) {
            replace.accept(pairs);
        } else {
            add.accept(pairs);
        }
    }

    /** pflag's StringSlice: the first occurrence replaces the file's (or the default) list, later ones add to it. */
    static void list(Consumer<List<String>> replace, Consumer<List<String>> add, String value, List<String> earlier) {
        if (earlier.isEmpty()) {
            replace.accept(FlagValues.csv(value));
        } else {
            add.accept(FlagValues.csv(value));
        }
    }
}
