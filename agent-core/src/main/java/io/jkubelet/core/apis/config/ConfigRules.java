package io.jkubelet.core.apis.config;

import java.util.List;

/** Collects messages; every message gets upstream's "invalid configuration: " prefix. */
record ConfigRules(List<String> errors) {
    static final String PREFIX = "invalid configuration: ";

    void check(boolean broken, String format, Object... args) {
        if (broken) {
            error(format, args);
        }
    }

    void error(String format, Object... args) {
        errors.add(PREFIX + String.format(format, args));
    }
}
