package io.jkubelet.core.apis.config;

import java.time.Duration;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.module.SimpleModule;

/**
 * Go's JSON shapes of the configuration's values, as Jackson (de)serializers: a {@code metav1.Duration} is a duration
 * string and nothing else, a Go string only a JSON string, {@code logging.flushFrequency} a duration string or integer
 * nanoseconds, a {@code resource.Quantity} a string or a number. A value they refuse is a {@link GoValueException},
 * whose message is phrased for the user.
 */
final class GoJsonValues {
    private GoJsonValues() {
    }

    /** The module that reads and writes Go's shapes of durations and strings. */
    static SimpleModule module() {
        SimpleModule goTypes = new SimpleModule("go-types");
        goTypes.addSerializer(Duration.class, new GoDurationSerializer());
        goTypes.addDeserializer(Duration.class, new GoDurationDeserializer());
        goTypes.addSerializer(TimeOrMetaDuration.class, new TimeOrMetaDurationSerializer());
        goTypes.addDeserializer(TimeOrMetaDuration.class, new TimeOrMetaDurationDeserializer());
        goTypes.addDeserializer(String.class, new GoStringDeserializer());
        return goTypes;
    }

    /** A value our own deserializers reject; its message is already phrased for the user. */
    static final class GoValueException extends MismatchedInputException {
        GoValueException(JsonParser p, Class<?> targetType, String message) {
            super(p, message, targetType);
        }
    }

    private static final class GoDurationSerializer extends ValueSerializer<Duration> {
        @Override
        public void serialize(Duration value, JsonGenerator gen, SerializationContext serializers) {
            gen.writeString(GoDuration.format(value));
        }
    }

    /** metav1.Duration: a Go duration string, nothing else (a bare number is an error upstream too). */
    private static final class GoDurationDeserializer extends ValueDeserializer<Duration> {
        @Override
        public Duration deserialize(JsonParser p, DeserializationContext ctxt) {
            if (p.currentToken() != JsonToken.VALUE_STRING) {
                throw new GoValueException(p, Duration.class,
                        "expected a duration string such as \"1m0s\", got " + describe(p));
            }
            try {
                return GoDuration.parse(p.getString());
            } catch (IllegalArgumentException e) {
                throw new GoValueException(p, Duration.class, e.getMessage());
            }
        }
    }

    /**
     * A Go string: a JSON string and nothing else. Jackson 3's own reader of a list of strings would take
     * {@code [["a"]]} for {@code ["a"]} (it reads the first item of the inner list); Go's decoder refuses it.
     */
    private static final class GoStringDeserializer extends ValueDeserializer<String> {
        @Override
        public String deserialize(JsonParser p, DeserializationContext ctxt) {
            if (p.currentToken() == JsonToken.VALUE_STRING) {
                return p.getString();
            }
            // YAML's !!binary, given back as the base64 text it was written as.
            if (p.currentToken() == JsonToken.VALUE_EMBEDDED_OBJECT && p.getEmbeddedObject() instanceof byte[] bytes) {
                return ctxt.getBase64Variant().encode(bytes);
            }
            return (String) ctxt.handleUnexpectedToken(String.class, p);
        }
    }

    private static final class TimeOrMetaDurationSerializer extends ValueSerializer<TimeOrMetaDuration> {
        @Override
        public void serialize(TimeOrMetaDuration value, JsonGenerator gen, SerializationContext serializers) {
            if (value.serializeAsString()) {
                gen.writeString(GoDuration.format(value.duration()));
            } else {
                gen.writeNumber(value.duration().toNanos());
            }
        }
    }

    /** logging.flushFrequency: a duration string, or an integer number of nanoseconds. */
    private static final class TimeOrMetaDurationDeserializer extends ValueDeserializer<TimeOrMetaDuration> {
        @Override
        public TimeOrMetaDuration deserialize(JsonParser p, DeserializationContext ctxt) {
            if (p.currentToken() == JsonToken.VALUE_STRING) {
                try {
                    return new TimeOrMetaDuration(GoDuration.parse(p.getString()), true);
                } catch (IllegalArgumentException e) {
                    throw new GoValueException(p, TimeOrMetaDuration.class, e.getMessage());
                }
            }
            if (p.currentToken() == JsonToken.VALUE_NUMBER_INT) {
                return new TimeOrMetaDuration(Duration.ofNanos(p.getLongValue()), false);
            }
            throw new GoValueException(p, TimeOrMetaDuration.class,
                    "invalid duration: expected a string such as \"5s\" or integer nanoseconds, got " + describe(p));
        }
    }

    /**
     * A resource quantity kept as text. Go's {@code resource.Quantity} decodes both {@code "64Ki"} and a
     * bare number, so both are accepted where the upstream field is a Quantity (not a plain string).
     */
    static final class QuantityStringDeserializer extends ValueDeserializer<String> {
        @Override
        public String deserialize(JsonParser p, DeserializationContext ctxt) {
            JsonToken token = p.currentToken();
            if (token == JsonToken.VALUE_STRING || token == JsonToken.VALUE_NUMBER_INT
                    || token == JsonToken.VALUE_NUMBER_FLOAT) {
                return p.getString();
            }
            throw new GoValueException(p, String.class,
                    "expected a quantity such as \"64Ki\", got " + describe(p));
        }
    }

    private static String describe(JsonParser p) {
        JsonToken token = p.currentToken();
        if (token == null) {
            return "nothing";
        }
        return switch (token) {
            case START_OBJECT -> "an object";
            case START_ARRAY -> "a list";
            case VALUE_TRUE, VALUE_FALSE -> "bool " + p.getString();
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "number " + p.getString();
            default -> p.getString();
        };
    }
}
