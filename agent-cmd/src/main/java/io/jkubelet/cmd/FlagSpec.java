package io.jkubelet.cmd;

/**
 * One command-line flag as the user sees it: its name, optional one-letter shorthand, value label,
 * whether it is a boolean ({@code --flag} alone means true) and its help text.
 */
record FlagSpec(String name, String shorthand, String paramLabel, boolean isBoolean, String description) {

    static FlagSpec of(String name, String paramLabel, String description) {
        return new FlagSpec(name, null, paramLabel, false, description);
    }

    static FlagSpec bool(String name, String description) {
        return new FlagSpec(name, null, "bool", true, description);
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
