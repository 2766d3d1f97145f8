package io.jkubelet.core.util;

import java.util.Map;

/**
 * {@code $(VAR)} references in env values, commands and args (upstream {@code third_party/forked/golang/expansion}):
 * a defined variable is replaced, {@code $$} escapes to {@code $}, and an undefined or malformed
 * reference is left as written.
 */
public final class Expansion {
    private Expansion() {}

    public static String expand(String input, Map<String, String> vars) {
        if (input == null || input.indexOf('$') < 0) {
            return input;
        }
        StringBuilder out = new StringBuilder(input.length());
        int i = 0;
        int n = input.length();
        while (i < n) {
            char c = input.charAt(i);
            if (c != '$' || i + 1 >= n) {
                out.append(c);
                i++;
                continue;
            }
            char next = input.charAt(i + 1);
            if (next == '$') {
                out.append('$');
                i += 2;
            } else if (next == '(') {
                int close = input.indexOf(')', i + 2);
                if (close < 0) {
                    out.append(input, i, n);
                    break;
                }
                String name = input.substring(i + 2, close);
                String value = vars.get(name);
                out.append(value != null ? value : input.substring(i, close + 1));
                i = close + 1;
            } else {
                out.append(c).append(next);
                i += 2;
            }
        }
        return out.toString();
    }
}
