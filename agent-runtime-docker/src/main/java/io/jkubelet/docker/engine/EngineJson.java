package io.jkubelet.docker.engine;

import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MappingIterator;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

import java.io.InputStream;

/**
 * The Engine API's JSON: fields are UpperCamelCase ({@code Id}, {@code HostConfig}), so records name theirs in Java's
 * camelCase and only the exceptions ({@code ID}, {@code OOMKilled}, the events' and pulls' lower-case fields) carry
 * {@code @JsonProperty}. Fields this client does not know are ignored (newer daemons add some), unset ones are not
 * sent (Docker would read an explicit null or zero as a setting).
 */
final class EngineJson {
    private EngineJson() {}

    static final JsonMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.UPPER_CAMEL_CASE)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .changeDefaultPropertyInclusion(i -> i.withValueInclusion(JsonInclude.Include.NON_NULL))
            .build();

    static byte[] write(Object value) {
        return MAPPER.writeValueAsBytes(value);
    }

    static <T> T read(InputStream in, Class<T> type) {
        return MAPPER.readValue(in, type);
    }

    /** A stream of JSON values one after the other (events, pull progress), read as they come. */
    static <T> MappingIterator<T> readValues(InputStream in, Class<T> type) {
        return MAPPER.readerFor(type).readValues(in);
    }

    /** The {@code message} of an error body ({@code {"message": ...}}), or the body itself when it is not such JSON. */
    static String messageOf(String body) {
        try {
            JsonNode node = MAPPER.readTree(body);
            if (node != null && node.hasNonNull("message")) {
                return node.get("message").asString().strip();
            }
        } catch (JacksonException notJson) {
            // Plain text; use it as it is.
        }
        return body.strip();
    }
}
