package io.jkubelet.cmd;

import io.jkubelet.cmd.FlagValues.BadValue;
import java.util.Set;

/**
 * One command-line flag as the user sees it: its name, optional one-letter shorthand, value label (pflag's type name),
 * whether it is a boolean ({@code --flag} alone means true), its help text, for a deprecated flag what to use instead
 * (pflag's {@code MarkDeprecated}: the flag still works, warns when used, and upstream keeps it in the help), and its
 * default as pflag prints it ({@code DefValue}; null when the help shows none).
 */
record FlagSpec(String name, String shorthand, String paramLabel, boolean isBoolean, String description,
                String deprecation, String defaultValue) {

    /** pflag's {@code defaultIsZeroValue}: the defaults its help leaves out. */
    private static final Set<String> ZERO_VALUES = Set.of("", "false", "0", "0s", "[]", "<nil>");

    FlagSpec(String name, String shorthand, String paramLabel, boolean isBoolean, String description) {
        this(name, shorthand, paramLabel, isBoolean, description, null, null);
    }

    static FlagSpec of(String name, String paramLabel, String description) {
        return new FlagSpec(name, null, paramLabel, false, description);
    }

    static FlagSpec bool(String name, String description) {
        return new FlagSpec(name, null, "bool", true, description);
    }

    /** This flag, deprecated with {@code notice}. */
    FlagSpec deprecated(String notice) {
        return new FlagSpec(name, shorthand, paramLabel, isBoolean, description, notice, defaultValue);
    }

    /** This flag with {@code value} as its default, as pflag prints it. */
    FlagSpec withDefault(String value) {
        return new FlagSpec(name, shorthand, paramLabel, isBoolean, description, deprecation, value);
    }

    /** pflag's warning when a deprecated flag is used: {@code Flag --name has been deprecated, <notice>}. */
    String deprecationWarning() {
        return "Flag " + longName() + " has been deprecated, " + deprecation;
    }

    /** The long form, {@code --name}. */
    String longName() {
        return "--" + name;
    }

    /** How pflag names the flag in its errors: {@code --port}, or {@code -v, --v} when there is a shorthand. */
    String display() {
        return shorthand == null ? longName() : "-" + shorthand + ", " + longName();
    }

    /**
     * The flag's line of help as pflag's {@code FlagUsages} writes it: the description, then {@code (default X)} unless
     * the default is its type's zero value (quoted for a string flag), then {@code (DEPRECATED: notice)}.
     */
    String usage() {
        StringBuilder line = new StringBuilder(description);
        if (defaultValue != null && !ZERO_VALUES.contains(defaultValue)) {
            line.append(" (default ").append(paramLabel.equals("string") ? FlagValues.quote(defaultValue) : defaultValue)
                    .append(')');
        }
        if (deprecation != null) {
            line.append(" (DEPRECATED: ").append(deprecation).append(')');
        }
        return line.toString();
    }

    /** pflag's wording: {@code invalid argument "abc" for "--port" flag: strconv.ParseInt: ...}. */
    FlagsException invalidArgument(String value, BadValue e) {
        return new FlagsException("invalid argument " + FlagValues.quote(value) + " for \"" + display() + "\" flag: "
                + e.getMessage(), e);
    }
}
