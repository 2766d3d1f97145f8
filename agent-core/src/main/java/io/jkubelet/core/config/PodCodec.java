package io.jkubelet.core.config;

import io.fabric8.kubernetes.api.model.Pod;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.reader.UnicodeReader;
import org.yaml.snakeyaml.representer.Representer;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads manifests (YAML or JSON) into JSON trees and (de)serialises fabric8 model objects.
 *
 * <p>Why Jackson 3 and not Jackson 2: fabric8 8.0.0's model classes carry their custom
 * (de)serialisers on Jackson 3 annotations ({@code tools.jackson.databind.annotation.JsonDeserialize}
 * on {@code Quantity}, {@code JsonSerialize} on {@code AnyType}/{@code IntOrString}). Jackson 2 sees only the
 * {@code com.fasterxml.jackson.annotation} ones, so with it {@code cpu: 1} fails to bind ("no
 * int/Int-argument constructor") and a pod serialises {@code "cpu":{"amount":"1","format":""}} and
 * {@code "port":{"value":80,"intVal":80}}. Jackson 3 binds and writes them as the apiserver does.
 *
 * <p>YAML is read the way the kubelet reads it ({@code sigs.k8s.io/yaml}, which is go-yaml v2): YAML
 * 1.1 scalars ({@code 0644} is 420, {@code yes} is true), anchors and aliases resolved, timestamps
 * kept as strings, duplicate keys refused, only the first document used. Input that starts with
 * <code>{</code> is read as JSON directly ({@code utilyaml.ToJSON}). Thread-safe.
 */
public final class PodCodec {

    /**
     * The largest manifest read: 1.5 MiB, etcd's default request limit, so no pod larger than the apiserver could
     * store (its mirror pod) is ever decoded. Upstream reads up to 10 MiB ({@code maxConfigLength}); decoding a
     * manifest of that size (400,000 annotations) took more than the agent's whole heap.
     */
    public static final int MAX_MANIFEST_BYTES = 3 << 19;
    /** {@link #MAX_MANIFEST_BYTES} as messages say it. */
    public static final String MAX_MANIFEST_SIZE = "1.5 MiB";
    /**
     * How deep a manifest's objects and lists may nest. A pod needs about ten levels (a projected volume's items are
     * the deepest); the bound keeps a hostile file from overflowing the decoder's stack.
     */
    static final int MAX_NESTING_DEPTH = 64;

    private static final JsonMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder().maxDocumentLength(MAX_MANIFEST_BYTES)
                            .maxStringLength(MAX_MANIFEST_BYTES).maxNestingDepth(MAX_NESTING_DEPTH).build())
                    .build())
            // Unknown fields are kept in fabric8's additionalProperties rather than refused, as the
            // apiserver's non-strict decoding accepts them.
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            // Sorted map keys make the serialisation canonical: the static pod hash depends on it.
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build();

    private PodCodec() {
    }

    /** The shared mapper: Jackson 3, set up for fabric8 model objects. */
    public static JsonMapper mapper() {
        return MAPPER;
    }

    /**
     * Reads the first YAML document (or the JSON object) in {@code data} into a tree.
     *
     * @return the tree; a JSON {@code null} node for an empty document
     * @throws IllegalArgumentException saying where the YAML or JSON is malformed
     */
    public static JsonNode readTree(byte[] data) {
        if (isJson(data)) {
            try {
                return MAPPER.readTree(data);
            } catch (JacksonException e) {
                throw new IllegalArgumentException("invalid JSON: " + e.getOriginalMessage()
                        + location(e), e);
            }
        }
        Object document;
        try {
            Iterator<Object> documents = yaml().loadAll(new UnicodeReader(new ByteArrayInputStream(data))).iterator();
            document = documents.hasNext() ? documents.next() : null;
        } catch (MarkedYAMLException e) {
            StringBuilder message = new StringBuilder("invalid YAML: ");
            if (e.getContext() != null) {
                message.append(e.getContext()).append(": ");
            }
            message.append(e.getProblem());
            if (e.getProblemMark() != null) {
                message.append(" (line ").append(e.getProblemMark().getLine() + 1).append(", column ")
                        .append(e.getProblemMark().getColumn() + 1).append(')');
            }
            throw new IllegalArgumentException(message.toString(), e);
        } catch (YAMLException e) {
            throw new IllegalArgumentException("invalid YAML: " + e.getMessage(), e);
        }
        return MAPPER.valueToTree(jsonCompatible(document));
    }

    /**
     * Binds a tree to a model class.
     *
     * @throws IllegalArgumentException naming the field whose value has the wrong type
     */
    public static <T> T treeToValue(JsonNode tree, Class<T> type) {
        try {
            return MAPPER.treeToValue(tree, type);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(describe(e), e);
        }
    }

    /** A deep copy: nothing of the copy is shared with {@code pod}. */
    public static Pod deepCopy(Pod pod) {
        return MAPPER.readValue(MAPPER.writeValueAsBytes(pod), Pod.class);
    }

    /** Serialises with sorted map keys and properties, so equal objects give equal bytes. */
    public static byte[] canonicalBytes(Object value) {
        return MAPPER.writeValueAsBytes(value);
    }

    public static String toJson(Object value) {
        return MAPPER.writeValueAsString(value);
    }

    /** Whether {@code data} is read as JSON: its first non-blank character is <code>{</code>. */
    static boolean isJson(byte[] data) {
        for (byte b : data) {
            if (!Character.isWhitespace(b)) {
                return b == '{';
            }
        }
        return false;
    }

    /** A YAML reader as the kubelet's, with the manifest limits; one per read (SnakeYAML's are not thread-safe). */
    static Yaml yaml() {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setCodePointLimit(MAX_MANIFEST_BYTES);
        options.setNestingDepthLimit(MAX_NESTING_DEPTH);
        return new Yaml(new StringTimestamps(options), new Representer(
                new DumperOptions()), new DumperOptions(), options);
    }

    /** go-yaml v2 hands timestamps to an untyped decode as strings; so does this. */
    private static final class StringTimestamps extends SafeConstructor {
        StringTimestamps(LoaderOptions options) {
            super(options);
            this.yamlConstructors.put(Tag.TIMESTAMP, new ConstructYamlStr());
        }
    }

    /** JSON object keys are strings: YAML keys such as {@code 1} or {@code true} become "1" and "true". */
    private static Object jsonCompatible(Object yaml) {
        if (yaml instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                out.put(String.valueOf(entry.getKey()), jsonCompatible(entry.getValue()));
            }
            return out;
        }
        if (yaml instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            for (Object item : list) {
                out.add(jsonCompatible(item));
            }
            return out;
        }
        if (yaml instanceof Set<?> set) {
            return jsonCompatible(new ArrayList<>(set));
        }
        return yaml;
    }

    private static String location(JacksonException e) {
        return e.getLocation() == null ? ""
                : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
    }

    /** {@code spec.containers[0].ports: <what Jackson says>}, without Jackson's class names. */
    private static String describe(JacksonException e) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference ref : e.getPath()) {
            if (ref.getPropertyName() != null) {
                if (!path.isEmpty()) {
                    path.append('.');
                }
                path.append(ref.getPropertyName());
            } else if (ref.getIndex() >= 0) {
                path.append('[').append(ref.getIndex()).append(']');
            }
        }
        String message = e.getOriginalMessage();
        int newline = message.indexOf('\n');
        if (newline >= 0) {
            message = message.substring(0, newline);
        }
        message = message.replaceAll("(io\\.fabric8\\.kubernetes\\.api\\.model\\.|java\\.(lang|util)\\.)", "")
                .replace("`", "");
        return path.isEmpty() ? message : path + ": " + message;
    }
}
