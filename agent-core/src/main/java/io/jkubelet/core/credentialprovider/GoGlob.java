package io.jkubelet.core.credentialprovider;

import java.util.ArrayList;
import java.util.List;

/**
 * A shell pattern as Go's {@code path/filepath.Match} reads it on Linux, which upstream matches registry host labels
 * with: {@code *} is any run of characters but {@code /}, {@code ?} one character but {@code /}, {@code [a-z]} and
 * {@code [^a-z]} a character class (ranges, {@code \} escapes; {@code []a]} is not allowed, unlike in POSIX), {@code \x}
 * the character {@code x}. A malformed pattern ({@code [a}, a trailing {@code \}) is Go's {@code ErrBadPattern}.
 * Java's own {@code glob:} differs ({@code {a,b}}, {@code [!a]}), hence this class. Immutable.
 */
final class GoGlob {
    /** Go's {@code filepath.ErrBadPattern}. */
    static final class BadPatternException extends Exception {
        BadPatternException() {
            super("syntax error in pattern");
        }
    }

    private sealed interface Element permits Star, AnyChar, Literal, CharClass {}

    private record Star() implements Element {}

    private record AnyChar() implements Element {}

    private record Literal(int codePoint) implements Element {}

    private record CharClass(boolean negated, List<int[]> ranges) implements Element {
        boolean matches(int c) {
            boolean in = ranges.stream().anyMatch(r -> r[0] <= c && c <= r[1]);
            return in != negated;
        }
    }

    private final List<Element> elements;

    private GoGlob(List<Element> elements) {
        this.elements = elements;
    }

    /** {@code filepath.Match(pattern, name)}. */
    static boolean match(String pattern, String name) throws BadPatternException {
        return compile(pattern).matches(name);
    }

    static GoGlob compile(String pattern) throws BadPatternException {
        List<Element> out = new ArrayList<>();
        int[] cps = pattern.codePoints().toArray();
        int i = 0;
        while (i < cps.length) {
            int c = cps[i];
            switch (c) {
                case '*' -> {
                    out.add(new Star());
                    i++;
                }
                case '?' -> {
                    out.add(new AnyChar());
                    i++;
                }
                case '\\' -> {
                    if (i + 1 >= cps.length) {
                        throw new BadPatternException();
                    }
                    out.add(new Literal(cps[i + 1]));
                    i += 2;
                }
                case '[' -> i = charClass(cps, i + 1, out);
                default -> {
                    out.add(new Literal(c));
                    i++;
                }
            }
        }
        return new GoGlob(out);
    }

    /** Reads a class after its {@code [}; returns where the pattern goes on. */
    private static int charClass(int[] cps, int start, List<Element> out) throws BadPatternException {
        int i = start;
        boolean negated = i < cps.length && cps[i] == '^';
        if (negated) {
            i++;
        }
        List<int[]> ranges = new ArrayList<>();
        while (true) {
            if (i < cps.length && cps[i] == ']' && !ranges.isEmpty()) {
                out.add(new CharClass(negated, ranges));
                return i + 1;
            }
            int[] lo = classChar(cps, i);
            i = lo[1];
            int hi = lo[0];
            if (cps[i] == '-') {
                int[] h = classChar(cps, i + 1);
                hi = h[0];
                i = h[1];
            }
            ranges.add(new int[] {lo[0], hi});
        }
    }

    /**
     * One character of a class, perhaps escaped: {@code {char, next index}}. As in Go, an unescaped {@code -} or
     * {@code ]} is not a character here, and a class may not end the pattern unclosed.
     */
    private static int[] classChar(int[] cps, int i) throws BadPatternException {
        if (i >= cps.length || cps[i] == '-' || cps[i] == ']') {
            throw new BadPatternException();
        }
        if (cps[i] == '\\') {
            i++;
            if (i >= cps.length) {
                throw new BadPatternException();
            }
        }
        int next = i + 1;
        if (next >= cps.length) {
            throw new BadPatternException();
        }
        return new int[] {cps[i], next};
    }

    boolean matches(String name) {
        return matchFrom(0, name.codePoints().toArray(), 0);
    }

    private boolean matchFrom(int e, int[] name, int n) {
        while (e < elements.size()) {
            Element element = elements.get(e);
            if (element instanceof Star) {
                // Any run without '/': try each length, shortest first.
                for (int end = n; ; end++) {
                    if (matchFrom(e + 1, name, end)) {
                        return true;
                    }
                    if (end >= name.length || name[end] == '/') {
                        return false;
                    }
                }
            }
            if (n >= name.length) {
                return false;
            }
            int c = name[n];
            boolean ok = switch (element) {
                case AnyChar a -> c != '/';
                case Literal l -> c == l.codePoint();
                case CharClass k -> k.matches(c);
                case Star s -> throw new IllegalStateException("handled above");
            };
            if (!ok) {
                return false;
            }
            e++;
            n++;
        }
        return n == name.length;
    }
}
