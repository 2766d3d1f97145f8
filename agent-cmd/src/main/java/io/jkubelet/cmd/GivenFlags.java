package io.jkubelet.cmd;

import io.jkubelet.cmd.FlagValues.BadValue;
import java.util.List;
import java.util.Map;

/**
 * The flags given on the command line, each with its values in the order given (pflag's {@code Changed} flags): what
 * the command line's tokenizer hands to the precedence pipeline. Values are raw strings; they are parsed with Go's
 * rules where they are used. Immutable.
 */
final class GivenFlags {

    /** Parses one flag value, or says why it is bad. */
    @FunctionalInterface
    interface Parser<T> {
        T parse(String value) throws BadValue;
    }

    /** By flag name ({@link FlagSpec#name()}), the values given, in order; a flag not given has no entry. */
    private final Map<String, List<String>> values;

    GivenFlags(Map<String, List<String>> values) {
        this.values = Map.copyOf(values);
    }

    /** Whether {@code flag} was given (a value is required for all but booleans, which default to true). */
    boolean given(FlagSpec flag) {
        return given(flag.name());
    }

    /** Whether the flag named {@code name} was given. */
    boolean given(String name) {
        return values.containsKey(name);
    }

    /** Every value given to {@code flag}, in order; empty when it was not given. */
    List<String> values(FlagSpec flag) {
        return values.getOrDefault(flag.name(), List.of());
    }

    /** The last value given to {@code flag} (a repeated flag's last value wins), or {@code fallback}. */
    String last(FlagSpec flag, String fallback) {
        List<String> given = values(flag);
        return given.isEmpty() ? fallback : given.get(given.size() - 1);
    }

    /** The last value given to {@code flag}, else its default (or "" when it has none). */
    String last(FlagSpec flag) {
        return last(flag, flag.defaultValue() == null ? "" : flag.defaultValue());
    }

    /** {@link #last(FlagSpec)} parsed, a bad value refused with pflag's message naming the flag. */
    <T> T parse(FlagSpec flag, Parser<T> parser) throws FlagsException {
        String value = last(flag);
        try {
            return parser.parse(value);
        } catch (BadValue e) {
            throw flag.invalidArgument(value, e);
        }
    }
}
