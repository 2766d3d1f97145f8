package io.jkubelet.core.checkpointmanager;

import java.util.List;
import java.util.Map;

/**
 * The pieces of go-spew's {@code %#v} (with upstream's {@code SortKeys}, {@code DisableMethods}, {@code SpewKeys}), which
 * a checkpoint's checksum is taken over: a checkpoint type prints its data with these in the order of its Go fields.
 * A value is printed with its Go type in parentheses where go-spew prints one (a struct's fields, the top level), and
 * without inside slices and maps; strings are printed raw, {@code nil} slices and maps as {@code <nil>}.
 */
public final class GoSpew {
    private static final String NIL = "<nil>";

    private GoSpew() {}

    /** A value with its type: {@code (type)value}. */
    public static String typed(String goType, String value) {
        return "(" + goType + ")" + value;
    }

    /** A struct of printed fields ({@link #field}): {@code {A:(t)x B:(t)y}}. */
    public static String struct(String... fields) {
        return "{" + String.join(" ", fields) + "}";
    }

    /** One field of a struct: {@code Name:(type)value}. */
    public static String field(String name, String goType, String value) {
        return name + ":" + typed(goType, value);
    }

    /** A slice of printed elements: {@code [a b]}, {@code []} when empty, {@code <nil>} for {@code null}. */
    public static String slice(List<String> printed) {
        return printed == null ? NIL : "[" + String.join(" ", printed) + "]";
    }

    /** A slice of strings. */
    public static String strings(List<String> values) {
        return slice(values);
    }

    /** A {@code []byte}: each byte as an unsigned decimal, {@code <nil>} for {@code null}. */
    public static String bytes(byte[] value) {
        if (value == null) {
            return NIL;
        }
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < value.length; i++) {
            out.append(i > 0 ? " " : "").append(value[i] & 0xff);
        }
        return out.append(']').toString();
    }

    /**
     * A map of printed keys to printed values, in the order given: go-spew sorts the keys (numbers by value, strings
     * byte by byte), so the caller passes them sorted. {@code map[k:v k2:v2]}; {@code <nil>} for {@code null}.
     */
    public static String map(Map<String, String> printedSorted) {
        if (printedSorted == null) {
            return NIL;
        }
        StringBuilder out = new StringBuilder("map[");
        boolean first = true;
        for (var e : printedSorted.entrySet()) {
            out.append(first ? "" : " ").append(e.getKey()).append(':').append(e.getValue());
            first = false;
        }
        return out.append(']').toString();
    }
}
