package io.jkubelet.core.apis.config;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamContext;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.cfg.MapperBuilder;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.type.LogicalType;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads and writes {@link KubeletConfiguration} the way the upstream kubelet does: Go duration strings,
 * Go's {@code omitempty} rules, map keys sorted, and strict decoding (unknown or duplicate fields and
 * wrong value types are errors, never silently coerced). Thread-safe: the mappers are configured once.
 */
public final class KubeletConfigCodec {

    static final ObjectMapper JSON = configure(JsonMapper.builder())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /**
     * YAML 1.1, as go-yaml v2 reads it; only the first document is read, later ones are ignored. Made on the first
     * YAML file: an agent without one (the JSON above serves {@code /configz}) loads no YAML classes.
     */
    private static final class Yaml {
        static final ObjectMapper MAPPER = configure(YAMLMapper.builder(new Yaml11Factory()))
                .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .build();
    }

    private KubeletConfigCodec() {
    }

    private static <M extends ObjectMapper, B extends MapperBuilder<M, B>> B configure(B builder) {
        return builder
                .changeDefaultVisibility(visibility -> visibility
                        .withVisibility(PropertyAccessor.ALL, JsonAutoDetect.Visibility.NONE)
                        .withVisibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY))
                // Go's struct order, which is the declaration order, not Jackson 3's default alphabetical one.
                .disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                // Go's decoder never turns "10" into 10 or 1.5 into 1: neither do we.
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .withCoercionConfig(LogicalType.Textual, strings -> strings
                        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail)
                        // Jackson 3 would take ["a"] for "a": Go's decoder does not.
                        .setCoercion(CoercionInputShape.Array, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.EmptyArray, CoercionAction.Fail))
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                // A JSON null leaves a Go field at its zero value (or nil): the field stays unset.
                .changeDefaultNullHandling(nulls -> JsonSetter.Value.forValueNulls(Nulls.SKIP))
                .addModule(GoJsonValues.module());
    }

    /** The compact JSON a v1.30 kubelet prints for this configuration (without kind/apiVersion). */
    public static String toJson(KubeletConfiguration config) {
        return JSON.writeValueAsString(config);
    }

    /** The configuration as a JSON tree, with {@code kind} and {@code apiVersion} first. */
    public static ObjectNode toVersionedTree(KubeletConfiguration config) {
        ObjectNode node = JSON.createObjectNode();
        node.put("kind", KubeletConfiguration.KIND);
        node.put("apiVersion", KubeletConfiguration.API_VERSION);
        node.setAll((ObjectNode) JSON.valueToTree(config));
        return node;
    }

    /** The format of a configuration document, chosen by its first non-blank character. */
    enum Format { JSON, YAML }

    static Format detect(String content) {
        return content.stripLeading().startsWith("{") ? Format.JSON : Format.YAML;
    }

    /** Parses a whole document into a tree, for the kind/apiVersion check. */
    static JsonNode readTree(String content, Format format) throws DecodeException {
        ObjectMapper mapper = mapper(format);
        try (JsonParser parser = mapper.createParser(content)) {
            try {
                JsonNode node = mapper.readTree(parser);
                return node == null ? JSON.missingNode() : node;
            } catch (JacksonException e) {
                throw DecodeException.from(e, parser);
            }
        }
    }

    /** Strictly binds a document onto a fresh configuration; kind and apiVersion are checked elsewhere. */
    static KubeletConfiguration decode(String content, Format format) throws DecodeException {
        ObjectMapper mapper = mapper(format);
        // The parser stays open until the error is described: it still holds the offending token.
        try (JsonParser parser = mapper.createParser(content)) {
            try {
                KubeletConfiguration config = mapper.readValue(parser, KubeletConfiguration.class);
                return config == null ? KubeletConfiguration.builder().build() : config;
            } catch (JacksonException e) {
                throw DecodeException.from(e, parser);
            }
        }
    }

    private static ObjectMapper mapper(Format format) {
        return format == Format.JSON ? JSON : Yaml.MAPPER;
    }

    /** A decoding failure, with the position and field named the way a user can find them in the file. */
    static final class DecodeException extends Exception {
        DecodeException(String message) {
            super(message);
        }

        static DecodeException from(JacksonException e, JsonParser parser) {
            StringBuilder out = new StringBuilder();
            TokenStreamLocation location = parser.currentTokenLocation();
            if (location == null || location.getLineNr() <= 0) {
                location = e.getLocation();
            }
            if (location != null && location.getLineNr() > 0) {
                out.append("line ").append(location.getLineNr())
                        .append(", column ").append(location.getColumnNr()).append(": ");
            }
            String field = fieldPath(e, parser);
            if (e instanceof UnrecognizedPropertyException unknown) {
                // The path already ends with the unknown name.
                out.append("unknown field \"").append(field.isEmpty() ? unknown.getPropertyName() : field).append('"');
            } else if (coercionCause(e) instanceof InputCoercionException coercion) {
                out.append(fieldPrefix(field)).append("number ").append(text(parser))
                        .append(" overflows ").append(goTypeName(coercion.getTargetType()));
            } else if (e instanceof GoJsonValues.GoValueException) {
                out.append(fieldPrefix(field)).append(e.getOriginalMessage());
            } else if (e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
                out.append(fieldPrefix(field)).append("cannot unmarshal ").append(tokenDescription(parser))
                        .append(" into ").append(goTypeName(mismatch.getTargetType()));
            } else {
                String message = e.getOriginalMessage();
                if (message.startsWith("Duplicate Object property")) {
                    out.append("duplicate field \"").append(field).append('"');
                } else {
                    out.append(fieldPrefix(field)).append(firstLine(message));
                }
            }
            return new DecodeException(out.toString());
        }

        private static String fieldPrefix(String field) {
            return field.isEmpty() ? "" : "field \"" + field + "\": ";
        }

        private static String fieldPath(JacksonException e, JsonParser parser) {
            if (!e.getPath().isEmpty()) {
                return pathOf(e.getPath());
            }
            return pathOf(parser.streamReadContext());
        }

        private static String pathOf(List<JacksonException.Reference> path) {
            StringBuilder out = new StringBuilder();
            for (JacksonException.Reference ref : path) {
                if (ref.getPropertyName() != null) {
                    if (!out.isEmpty()) {
                        out.append('.');
                    }
                    out.append(ref.getPropertyName());
                } else if (ref.getIndex() >= 0) {
                    out.append('[').append(ref.getIndex()).append(']');
                }
            }
            return out.toString();
        }

        private static String pathOf(TokenStreamContext context) {
            StringBuilder out = new StringBuilder();
            for (TokenStreamContext c = context; c != null && !c.inRoot(); c = c.getParent()) {
                if (c.inObject() && c.currentName() != null) {
                    out.insert(0, (out.isEmpty() || out.charAt(0) == '[' ? "" : ".")).insert(0, c.currentName());
                } else if (c.inArray()) {
                    out.insert(0, "[" + c.getCurrentIndex() + "]");
                }
            }
            return out.toString();
        }

        /** A number out of the target's range; databind may have wrapped it to add the path. */
        private static Throwable coercionCause(Throwable e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof InputCoercionException) {
                    return t;
                }
            }
            return null;
        }

        private static String text(JsonParser parser) {
            try {
                return parser.getString();
            } catch (JacksonException ignored) {
                return "";
            }
        }

        private static String tokenDescription(JsonParser parser) {
            JsonToken token = parser.currentToken();
            if (token == null) {
                return "value";
            }
            return switch (token) {
                case VALUE_STRING -> "string \"" + text(parser) + "\"";
                case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "number " + text(parser);
                case VALUE_TRUE, VALUE_FALSE -> "bool " + text(parser);
                case START_OBJECT, PROPERTY_NAME -> "object";
                case START_ARRAY -> "array";
                default -> "value";
            };
        }

        private static String goTypeName(Class<?> type) {
            if (type == null) {
                return "value";
            }
            if (type == int.class || type == Integer.class) {
                return "int32";
            }
            if (type == long.class || type == Long.class) {
                return "int64";
            }
            if (type == boolean.class || type == Boolean.class) {
                return "bool";
            }
            if (type == double.class || type == Double.class) {
                return "float64";
            }
            if (type == String.class) {
                return "string";
            }
            if (List.class.isAssignableFrom(type)) {
                return "list";
            }
            if (Map.class.isAssignableFrom(type)) {
                return "map";
            }
            // Immutables binds a value type through a class named Json that extends it: name the value type.
            Class<?> value = type.getSimpleName().equals("Json") ? type.getSuperclass() : type;
            return "object " + value.getSimpleName();
        }

        private static String firstLine(String message) {
            int newline = message.indexOf('\n');
            return newline < 0 ? message : message.substring(0, newline);
        }
    }
}
