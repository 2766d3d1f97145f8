package io.jkubelet.cmd;

/**
 * One command-line flag as the user sees it: its name, optional one-letter shorthand, value label,
 * whether it is a boolean ({@code --flag} alone means true), its help text and, for a deprecated flag, what to
 * use instead (pflag's {@code MarkDeprecated}: the flag still works, is left out of the help and warns when used).
 */
record FlagSpec(String name, String shorthand, String paramLabel, boolean isBoolean, String description,
                String deprecation) {

    FlagSpec(String name, String shorthand, String paramLabel, boolean isBoolean, String description) {
        this(name, shorthand, paramLabel, isBoolean, description, null);
    }

    static FlagSpec of(String name, String paramLabel, String description) {
        return new FlagSpec(name, null, paramLabel, false, description);
    }

    static FlagSpec bool(String name, String description) {
        return new FlagSpec(name, null, "bool", true, description);
    }

    /** This flag, deprecated with {@code notice}. */
    FlagSpec deprecated(String notice) {
        return new FlagSpec(name, shorthand, paramLabel, isBoolean, description, notice);
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
}
