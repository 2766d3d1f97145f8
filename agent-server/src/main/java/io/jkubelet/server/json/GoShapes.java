package io.jkubelet.server.json;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How Go's {@code encoding/json} lays out the Kubernetes types reachable from a v1 Pod: the field order
 * of each struct and what it writes for a field that is unset or holds its zero value.
 *
 * <p>Read from {@code core-v1-pod.goshape}, a resource made by {@code GoShapeProbe} (in this module's
 * tests) by feeding probe pods through a real Go Kubernetes client ({@code kubectl}); see that class for
 * how each rule is observed. Format: a line {@code [Type]} opens a struct; each following line is one
 * field, in Go's order: {@code name kind zero=omit|emit absent=RULE}, where kind is {@code leaf}, {@code
 * obj:Type}, {@code list:Type}, {@code map:Type} (Type is {@code -} for a leaf element) and RULE is
 * {@code omit}, {@code struct} (write the zero struct) or a JSON literal such as {@code null}, {@code 0},
 * {@code ""}, {@code false}.
 *
 * <p>Immutable and thread-safe.
 */
public final class GoShapes {

    /** The kind of value a field holds. */
    public enum Kind {
        LEAF,
        OBJECT,
        LIST,
        MAP
    }

    /** What Go writes for one struct field. */
    public record Field(String name, Kind kind, String type, String absent, boolean omitZero) {
        /** Go writes nothing for this field when it is unset. */
        public boolean omitWhenAbsent() {
            return "omit".equals(absent);
        }

        /** Go writes the zero value of the struct {@link #type()} when this field is unset. */
        public boolean zeroStructWhenAbsent() {
            return "struct".equals(absent);
        }
    }

    /** The fields of one struct, in Go's order. */
    public record Shape(String type, List<Field> fields, Map<String, Field> byName) {}

    private static final GoShapes POD = load("core-v1-pod.goshape");

    private final Map<String, Shape> shapes;

    private GoShapes(Map<String, Shape> shapes) {
        this.shapes = Map.copyOf(shapes);
    }

    /** The shapes of v1 Pod and every type it contains. */
    public static GoShapes pod() {
        return POD;
    }

    /** The shape named {@code type}, or null when the type is unknown. */
    public Shape shape(String type) {
        return shapes.get(type);
    }

    static GoShapes load(String resource) {
        try (InputStream in = GoShapes.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource + " next to " + GoShapes.class);
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), resource);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read resource " + resource, e);
        }
    }

    static GoShapes parse(String text, String source) {
        Map<String, Shape> shapes = new LinkedHashMap<>();
        String type = null;
        List<Field> fields = null;
        int lineNo = 0;
        try (BufferedReader reader = new BufferedReader(new StringReader(text))) {
            for (String line; (line = reader.readLine()) != null; ) {
                lineNo++;
                String trimmed = line.strip();
                if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                    continue;
                }
                if (trimmed.startsWith("[") && trimmed.endsWith("]")) {
                    if (type != null) {
                        shapes.put(type, shape(type, fields));
                    }
                    type = trimmed.substring(1, trimmed.length() - 1);
                    fields = new ArrayList<>();
                    continue;
                }
                if (type == null) {
                    throw new IllegalArgumentException(source + ":" + lineNo + ": field line before any [Type]");
                }
                fields.add(field(trimmed, source, lineNo));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (type != null) {
            shapes.put(type, shape(type, fields));
        }
        return new GoShapes(shapes);
    }

    private static Shape shape(String type, List<Field> fields) {
        Map<String, Field> byName = new LinkedHashMap<>();
        for (Field f : fields) {
            byName.put(f.name(), f);
        }
        return new Shape(type, Collections.unmodifiableList(fields), Collections.unmodifiableMap(byName));
    }

    private static Field field(String line, String source, int lineNo) {
        String[] parts = line.split(" ", 4);
        if (parts.length != 4 || !parts[2].startsWith("zero=") || !parts[3].startsWith("absent=")) {
            throw new IllegalArgumentException(
                    source + ":" + lineNo + ": expected 'name kind zero=omit|emit absent=RULE', got: " + line);
        }
        String name = parts[0];
        Kind kind;
        String type = null;
        if (parts[1].equals("leaf")) {
            kind = Kind.LEAF;
        } else {
            int colon = parts[1].indexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException(source + ":" + lineNo + ": bad kind " + parts[1]);
            }
            kind =
                    switch (parts[1].substring(0, colon)) {
                        case "obj" -> Kind.OBJECT;
                        case "list" -> Kind.LIST;
                        case "map" -> Kind.MAP;
                        default -> throw new IllegalArgumentException(source + ":" + lineNo + ": bad kind " + parts[1]);
                    };
            String t = parts[1].substring(colon + 1);
            type = t.equals("-") ? null : t;
        }
        boolean omitZero = parts[2].substring("zero=".length()).equals("omit");
        String absent = parts[3].substring("absent=".length());
        return new Field(name, kind, type, absent, omitZero);
    }
}
