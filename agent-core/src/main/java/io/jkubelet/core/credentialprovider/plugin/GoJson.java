package io.jkubelet.core.credentialprovider.plugin;

import io.jkubelet.core.apis.config.GoDuration;
import io.jkubelet.core.apis.config.Yaml11Factory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The lenient decoding upstream's credential provider code uses ({@code serializer.NewCodecFactory(scheme)} without
 * strictness): a field missing or {@code null} keeps its zero value, an unknown field is passed over (our callers
 * name it), but a value of the wrong JSON type is an error worded as Go's {@code encoding/json}
 * ({@code json: cannot unmarshal number into Go struct field CredentialProvider.providers.name of type string}).
 * YAML is read as YAML 1.1 and only its first document, as {@code sigs.k8s.io/yaml} does. Thread-safe.
 */
final class GoJson {
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
    private static final ObjectMapper YAML = YAMLMapper.builder(new Yaml11Factory())
            .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

    private GoJson() {}

    /** A value of the wrong type, or a document that is no JSON; the message is Go's. */
    static final class DecodeException extends Exception {
        DecodeException(String message) {
            super(message);
        }
    }

    /** A JSON document; {@code null} and nothing at all are the JSON null. */
    static JsonNode readJson(byte[] json) throws JacksonException {
        JsonNode node = JSON.readTree(json);
        return node == null || node.isMissingNode() ? JSON.nullNode() : node;
    }

    /** JSON, or else YAML, as the universal decoder tells them apart (JSON starts with {@code {}). */
    static JsonNode readJsonOrYaml(String content) throws JacksonException {
        boolean json = content.stripLeading().startsWith("{");
        JsonNode node = json ? JSON.readTree(content) : YAML.readTree(content);
        return node == null || node.isMissingNode() ? JSON.nullNode() : node;
    }

    /** The compact JSON of a tree, as upstream's errors quote a document. */
    static String compact(JsonNode node) {
        return JSON.writeValueAsString(node);
    }

    /** Go's word for a JSON value's type in its errors. */
    static String typeName(JsonNode node) {
        if (node.isString()) {
            return "string";
        }
        if (node.isNumber()) {
            return "number";
        }
        if (node.isBoolean()) {
            return "bool";
        }
        return node.isArray() ? "array" : "object";
    }

    static DecodeException typeError(JsonNode value, String struct, String field, String goType) {
        return new DecodeException("json: cannot unmarshal " + typeName(value) + " into Go struct field " + struct
                + "." + field + " of type " + goType);
    }

    /** A field that is absent or null. */
    static boolean absent(JsonNode node) {
        return node == null || node.isNull() || node.isMissingNode();
    }

    /** A {@code string} field. */
    static String string(JsonNode node, String struct, String field) throws DecodeException {
        if (absent(node)) {
            return "";
        }
        if (!node.isString()) {
            throw typeError(node, struct, field, "string");
        }
        return node.asString();
    }

    /** A {@code []string} field. */
    static List<String> strings(JsonNode node, String struct, String field) throws DecodeException {
        List<String> out = new ArrayList<>();
        for (JsonNode item : array(node, struct, field, "[]string")) {
            out.add(string(item, struct, field));
        }
        return out;
    }

    /** The items of a list field; none when absent. */
    static List<JsonNode> array(JsonNode node, String struct, String field, String goType) throws DecodeException {
        if (absent(node)) {
            return List.of();
        }
        if (!node.isArray()) {
            throw typeError(node, struct, field, goType);
        }
        List<JsonNode> items = new ArrayList<>();
        node.forEach(items::add);
        return items;
    }

    /** An object field (a struct or a map); null when absent. */
    static JsonNode object(JsonNode node, String struct, String field, String goType) throws DecodeException {
        if (absent(node)) {
            return null;
        }
        if (!node.isObject()) {
            throw typeError(node, struct, field, goType);
        }
        return node;
    }

    /** A {@code *metav1.Duration} field: a Go duration string; null when absent. */
    static Duration duration(JsonNode node) throws DecodeException {
        if (absent(node)) {
            return null;
        }
        if (!node.isString()) {
            throw new DecodeException("json: cannot unmarshal " + typeName(node) + " into Go value of type string");
        }
        try {
            return GoDuration.parse(node.asString());
        } catch (IllegalArgumentException e) {
            throw new DecodeException(e.getMessage());
        }
    }

    /** The names of {@code node}'s fields that are not in {@code known}, as paths under {@code path}. */
    static List<String> unknownFields(JsonNode node, String path, List<String> known) {
        List<String> out = new ArrayList<>();
        if (node != null && node.isObject()) {
            node.propertyNames().forEach(name -> {
                if (!known.contains(name)) {
                    out.add(path.isEmpty() ? name : path + "." + name);
                }
            });
        }
        return out;
    }
}
