package io.jkubelet.core.probe;

/**
 * The bits of Go's {@code fmt} that upstream's probe messages use, so that users see the same text
 * as from the kubelet: {@code %q} of a string.
 */
final class GoFormat {
    private GoFormat() {}

    /** Go's {@code %q} for a string: double-quoted with Go escapes. */
    static String quote(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        s.codePoints().forEach(cp -> {
            switch (cp) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case 0x07 -> out.append("\\a");
                case 0x08 -> out.append("\\b");
                case 0x0c -> out.append("\\f");
                case 0x0b -> out.append("\\v");
                default -> {
                    if (cp < 0x20 || cp == 0x7f) {
                        out.append(String.format("\\x%02x", cp));
                    } else if (Character.isISOControl(cp) || !Character.isDefined(cp)) {
                        out.append(cp <= 0xffff ? String.format("\\u%04x", cp) : String.format("\\U%08x", cp));
                    } else {
                        out.appendCodePoint(cp);
                    }
                }
            }
        });
        return out.append('"').toString();
    }

    /** {@code net.JoinHostPort}: brackets an IPv6 literal. */
    static String joinHostPort(String host, int port) {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
