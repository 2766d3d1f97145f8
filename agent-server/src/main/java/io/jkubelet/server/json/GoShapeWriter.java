package io.jkubelet.server.json;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.JsonNode;

/**
 * Writes a Jackson tree of a Kubernetes object the way Go's {@code encoding/json} writes the same Go
 * struct: fields in Go's declaration order, unset fields that Go always writes given their zero value
 * ({@code "creationTimestamp":null}, {@code "resources":{}}, {@code "restartCount":0}), zero values of
 * {@code omitempty} fields left out, and map keys sorted.
 *
 * <p>The tree is what fabric8's annotations produce (nulls and empty collections already dropped); fields
 * the shapes do not know (newer API fields, extension properties) are kept and written after the known
 * ones, in the tree's order. Stateless and thread-safe.
 */
public final class GoShapeWriter {

    /** Go's map key order: byte order of the UTF-8 encoding, which is code point order. */
    private static final Comparator<String> GO_KEY_ORDER =
            (a, b) -> {
                int i = 0;
                int j = 0;
                while (i < a.length() && j < b.length()) {
                    int ca = a.codePointAt(i);
                    int cb = b.codePointAt(j);
                    if (ca != cb) {
                        return Integer.compare(ca, cb);
                    }
                    i += Character.charCount(ca);
                    j += Character.charCount(cb);
                }
                return Integer.compare(a.length() - i, b.length() - j);
            };

    private final GoShapes shapes;

    public GoShapeWriter(GoShapes shapes) {
        this.shapes = shapes;
    }

    /**
     * Writes {@code node} (an object, or null for the zero value) as the Go struct {@code type}.
     *
     * @throws IllegalArgumentException if {@code type} is not a known shape
     */
    public void writeStruct(JsonGenerator gen, JsonNode node, String type) {
        GoShapes.Shape shape = shapes.shape(type);
        if (shape == null) {
            throw new IllegalArgumentException("no Go shape for type " + type);
        }
        writeStruct(gen, node, shape);
    }

    private void writeStruct(JsonGenerator gen, JsonNode node, GoShapes.Shape shape) {
        gen.writeStartObject();
        for (GoShapes.Field field : shape.fields()) {
            JsonNode value = node == null ? null : node.get(field.name());
            if (value == null || value.isNull()) {
                writeAbsent(gen, field);
            } else if (!(field.omitZero() && isZero(field, value))) {
                gen.writeName(field.name());
                writeValue(gen, field, value);
            }
        }
        if (node != null) {
            for (Map.Entry<String, JsonNode> extra : node.properties()) {
                if (!shape.byName().containsKey(extra.getKey()) && !extra.getValue().isNull()) {
                    gen.writeName(extra.getKey());
                    writeTree(gen, extra.getValue());
                }
            }
        }
        gen.writeEndObject();
    }

    private void writeAbsent(JsonGenerator gen, GoShapes.Field field) {
        if (field.omitWhenAbsent()) {
            return;
        }
        gen.writeName(field.name());
        if (field.zeroStructWhenAbsent()) {
            GoShapes.Shape child = field.type() == null ? null : shapes.shape(field.type());
            if (child == null) {
                gen.writeStartObject();
                gen.writeEndObject();
            } else {
                writeStruct(gen, null, child);
            }
        } else {
            gen.writeRawValue(field.absent());
        }
    }

    private void writeValue(JsonGenerator gen, GoShapes.Field field, JsonNode value) {
        GoShapes.Shape child = field.type() == null ? null : shapes.shape(field.type());
        switch (field.kind()) {
            case OBJECT -> {
                if (child != null && value.isObject()) {
                    writeStruct(gen, value, child);
                } else {
                    writeTree(gen, value);
                }
            }
            case LIST -> {
                if (!value.isArray()) {
                    writeTree(gen, value);
                    return;
                }
                gen.writeStartArray();
                for (JsonNode element : value) {
                    writeElement(gen, child, element);
                }
                gen.writeEndArray();
            }
            case MAP -> {
                if (!value.isObject()) {
                    writeTree(gen, value);
                    return;
                }
                List<String> keys = new ArrayList<>();
                keys.addAll(value.propertyNames());
                keys.sort(GO_KEY_ORDER);
                gen.writeStartObject();
                for (String key : keys) {
                    gen.writeName(key);
                    writeElement(gen, child, value.get(key));
                }
                gen.writeEndObject();
            }
            case LEAF -> writeTree(gen, value);
        }
    }

    /** Writes scalars directly (much cheaper than {@code writeTree}, which goes through the codec). */
    private static void writeTree(JsonGenerator gen, JsonNode value) {
        switch (value.getNodeType()) {
            case STRING -> gen.writeString(value.stringValue());
            case BOOLEAN -> gen.writeBoolean(value.booleanValue());
            case NULL, MISSING -> gen.writeNull();
            case NUMBER -> {
                switch (value.numberType()) {
                    case INT -> gen.writeNumber(value.intValue());
                    case LONG -> gen.writeNumber(value.longValue());
                    case BIG_INTEGER -> gen.writeNumber(value.bigIntegerValue());
                    case BIG_DECIMAL -> gen.writeNumber(value.decimalValue());
                    default -> gen.writeNumber(value.doubleValue());
                }
            }
            case ARRAY -> {
                gen.writeStartArray();
                for (JsonNode element : value) {
                    writeTree(gen, element);
                }
                gen.writeEndArray();
            }
            case OBJECT -> {
                gen.writeStartObject();
                for (Map.Entry<String, JsonNode> e : value.properties()) {
                    gen.writeName(e.getKey());
                    writeTree(gen, e.getValue());
                }
                gen.writeEndObject();
            }
            default -> gen.writeTree(value);
        }
    }

    private void writeElement(JsonGenerator gen, GoShapes.Shape child, JsonNode element) {
        if (child != null && element.isObject()) {
            writeStruct(gen, element, child);
        } else {
            writeTree(gen, element);
        }
    }

    /** Go's notion of an empty value for {@code omitempty}; a struct (OBJECT) is never empty. */
    private static boolean isZero(GoShapes.Field field, JsonNode value) {
        if (field.kind() == GoShapes.Kind.OBJECT) {
            return false;
        }
        if (value.isString()) {
            return value.stringValue().isEmpty();
        }
        if (value.isNumber()) {
            return value.isIntegralNumber() ? value.bigIntegerValue().signum() == 0 : value.doubleValue() == 0;
        }
        if (value.isBoolean()) {
            return !value.booleanValue();
        }
        if (value.isArray() || value.isObject()) {
            return value.isEmpty();
        }
        return false;
    }
}
