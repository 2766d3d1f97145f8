package io.jkubelet.core.admission.testing;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.config.PodCodec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.fail;

/**
 * The reviewed list of the pod spec's fields ({@code pod-fields.yaml}) and the pods its rows describe, for the coverage
 * test and for the end-to-end test that shows each refusal on the built jar.
 */
public final class PodFields {
    private static final YAMLMapper YAML = YAMLMapper.builder().build();

    private PodFields() {
    }

    /** A row of the table. */
    public record Entry(String field, String status, List<String> where, String reason, Map<String, JsonNode> set,
                 List<Map<String, JsonNode>> accepts, String host, String names, String why, String missing) {
        public String type() {
            return field.substring(0, field.indexOf('.'));
        }

        public String leaf() {
            return field.substring(field.indexOf('.') + 1);
        }

        /** Where in a pod the refused field is: {@code names}, else the path set, down to the field itself. */
        public String path() {
            if (names != null && names.startsWith("spec.")) {
                return names;
            }
            String key = set.keySet().iterator().next();
            if (key.matches(".*\\." + leaf() + "\\[\\d+]")) {
                return key.substring(0, key.lastIndexOf('['));
            }
            return key.endsWith("." + leaf()) ? key : key + "." + leaf();
        }

        @Override
        public String toString() {
            return field;
        }
    }

    public static List<Entry> table() throws IOException {
        try (InputStream in = PodFields.class.getResourceAsStream("/pod-fields.yaml")) {
            return List.of(YAML.readValue(in, Entry[].class));
        }
    }

    /** A pending pod with one container, with each {@code path: value} of {@code set} put in. */
    public static Pod pod(Map<String, JsonNode> set) {
        ObjectNode pod = (ObjectNode) YAML.readTree("""
                apiVersion: v1
                kind: Pod
                metadata: {name: p, namespace: default, uid: u1}
                spec:
                  containers: [{name: app, image: busybox}]
                status: {phase: Pending}
                """);
        set.forEach((path, value) -> put(pod, path, value));
        return PodCodec.treeToValue(pod, Pod.class);
    }

    private static final Pattern SEGMENT = Pattern.compile("([A-Za-z]+)((?:\\[\\d+])*)");

    /** Sets {@code a.b[0].c} in the tree, making the objects and list elements on the way. */
    private static void put(ObjectNode root, String path, JsonNode value) {
        String[] segments = path.split("\\.");
        JsonNode at = root;
        for (int s = 0; s < segments.length; s++) {
            Matcher m = SEGMENT.matcher(segments[s]);
            if (!m.matches()) {
                fail("bad path " + path);
            }
            List<Integer> indexes = Stream.of(m.group(2).split("[\\[\\]]+")).filter(x -> !x.isEmpty())
                    .map(Integer::parseInt).toList();
            boolean last = s == segments.length - 1;
            ObjectNode object = (ObjectNode) at;
            if (indexes.isEmpty()) {
                if (last) {
                    object.set(m.group(1), value);
                    return;
                }
                at = object.has(m.group(1)) ? object.get(m.group(1)) : object.putObject(m.group(1));
                continue;
            }
            ArrayNode list = object.has(m.group(1)) ? (ArrayNode) object.get(m.group(1)) : object.putArray(m.group(1));
            int index = indexes.get(0);
            while (list.size() <= index) {
                list.addObject();
            }
            if (last) {
                list.set(index, value);
                return;
            }
            at = list.get(index);
        }
    }

}
