package io.jkubelet.core.lifecycle;

import java.util.List;

/** The two Go verbs upstream's hook messages use, so that messages read the same as the kubelet's. */
final class GoFormat {
    private GoFormat() {}

    /** Go's {@code %v} of a {@code []string}: {@code [sh -c echo hi]}. */
    static String list(List<String> l) {
        return "[" + String.join(" ", l) + "]";
    }

    /** Go's {@code %q} of a string: double-quoted with Go escapes. */
    static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        s.codePoints().forEach(cp -> {
            switch (cp) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case 0x07 -> b.append("\\a");
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                case 0x0b -> b.append("\\v");
                default -> {
                    if (cp < 0x20 || cp == 0x7f) {
                        b.append(String.format("\\x%02x", cp));
                    } else if (Character.isISOControl(cp)) {
                        b.append(String.format("\\u%04x", cp));
                    } else {
                        b.appendCodePoint(cp);
                    }
                }
            }
        });
        return b.append('"').toString();
    }
}
