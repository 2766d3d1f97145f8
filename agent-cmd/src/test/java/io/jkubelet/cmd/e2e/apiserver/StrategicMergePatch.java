package io.jkubelet.cmd.e2e.apiserver;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The apiserver's strategic merge patch for the core objects a kubelet patches (pods, nodes, events), which
 * fabric8's mock server refuses (415). Lists that carry a {@code patchMergeKey} in the Kubernetes API types
 * (conditions by type, container statuses by name, addresses by type, ...) merge element by element; every other
 * list is replaced, maps merge and {@code null} deletes, as in {@code apimachinery/pkg/util/strategicpatch}.
 * Directives: {@code $patch: replace|delete}, {@code $setElementOrder/<list>}, {@code $deleteFromPrimitiveList/<list>},
 * {@code $retainKeys}.
 */
public final class StrategicMergePatch {
    private StrategicMergePatch() {}

    /** Merge keys by list field name, taken from the {@code patchMergeKey} tags of the core/v1 and meta/v1 types. */
    private static final Map<String, String> MERGE_KEYS = Map.ofEntries(
            Map.entry("conditions", "type"),
            Map.entry("containerStatuses", "name"),
            Map.entry("initContainerStatuses", "name"),
            Map.entry("ephemeralContainerStatuses", "name"),
            Map.entry("podIPs", "ip"),
            Map.entry("hostIPs", "ip"),
            Map.entry("addresses", "type"),
            Map.entry("volumesAttached", "name"),
            Map.entry("containers", "name"),
            Map.entry("initContainers", "name"),
            Map.entry("ephemeralContainers", "name"),
            Map.entry("volumes", "name"),
            Map.entry("volumeMounts", "mountPath"),
            Map.entry("env", "name"),
            Map.entry("ports", "containerPort"),
            Map.entry("ownerReferences", "uid"),
            Map.entry("imagePullSecrets", "name"),
            Map.entry("resourceClaimStatuses", "name"),
            Map.entry("resourceClaims", "name"),
            Map.entry("allocatedResourcesStatus", "name"));

    /** Lists of scalars the API types merge as sets ({@code patchStrategy:"merge"} with no key). */
    private static final List<String> SET_LISTS = List.of("finalizers", "volumesInUse");

    /** RFC 7386 JSON merge patch: maps merge, null deletes, every list is replaced (fabric8's merge appends lists). */
    public static JsonNode applyMergePatch(JsonNode original, JsonNode patch) {
        if (!patch.isObject()) {
            return patch;
        }
        ObjectNode target = original != null && original.isObject() ? (ObjectNode) original.deepCopy()
                : tools.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        for (String name : patch.propertyNames()) {
            JsonNode value = patch.get(name);
            if (value.isNull()) {
                target.remove(name);
            } else {
                target.set(name, applyMergePatch(target.get(name), value));
            }
        }
        return target;
    }

    public static JsonNode apply(JsonNode original, JsonNode patch) {
        if (!patch.isObject()) {
            throw new IllegalArgumentException("a strategic merge patch must be a JSON object, got " + patch.getNodeType());
        }
        return mergeObject(original != null && original.isObject() ? (ObjectNode) original.deepCopy()
                : tools.jackson.databind.node.JsonNodeFactory.instance.objectNode(),
                (ObjectNode) patch);
    }

    private static ObjectNode mergeObject(ObjectNode target, ObjectNode patch) {
        JsonNode directive = patch.get("$patch");
        if (directive != null && "replace".equals(directive.asString())) {
            ObjectNode replaced = patch.deepCopy();
            replaced.remove("$patch");
            return replaced;
        }
        JsonNode retainKeys = patch.get("$retainKeys");
        if (retainKeys != null && retainKeys.isArray()) {
            List<String> keep = new ArrayList<>();
            retainKeys.forEach(k -> keep.add(k.asString()));
            for (String name : new ArrayList<>(target.propertyNames())) {
                if (!keep.contains(name)) {
                    target.remove(name);
                }
            }
        }
        Map<String, JsonNode> order = new LinkedHashMap<>();
        for (String name : patch.propertyNames()) {
            JsonNode value = patch.get(name);
            if (name.equals("$patch") || name.equals("$retainKeys")) {
                continue;
            }
            if (name.startsWith("$setElementOrder/")) {
                order.put(name.substring("$setElementOrder/".length()), value);
                continue;
            }
            if (name.startsWith("$deleteFromPrimitiveList/")) {
                String list = name.substring("$deleteFromPrimitiveList/".length());
                JsonNode current = target.get(list);
                if (current != null && current.isArray()) {
                    ArrayNode kept = target.arrayNode();
                    current.forEach(v -> { if (!contains(value, v)) kept.add(v); });
                    target.set(list, kept);
                }
                continue;
            }
            if (value.isNull()) {
                target.remove(name);
            } else if (value.isObject()) {
                JsonNode current = target.get(name);
                target.set(name, mergeObject(current != null && current.isObject() ? (ObjectNode) current : target.objectNode(),
                        (ObjectNode) value));
            } else if (value.isArray()) {
                target.set(name, mergeList(name, target.get(name), (ArrayNode) value));
            } else {
                target.set(name, value);
            }
        }
        order.forEach((list, wanted) -> {
            JsonNode current = target.get(list);
            String key = MERGE_KEYS.get(list);
            if (current != null && current.isArray() && wanted.isArray()) {
                target.set(list, reorder((ArrayNode) current, (ArrayNode) wanted, key));
            }
        });
        return target;
    }

    private static JsonNode mergeList(String name, JsonNode current, ArrayNode patch) {
        String key = MERGE_KEYS.get(name);
        if (key != null) {
            ArrayNode result = current != null && current.isArray() ? ((ArrayNode) current).deepCopy() : patch.arrayNode();
            for (JsonNode element : patch) {
                if (element.isObject() && element.has("$patch") && "replace".equals(element.get("$patch").asString())) {
                    ArrayNode replaced = patch.arrayNode();
                    patch.forEach(e -> { if (e != element) replaced.add(e); });
                    return replaced;
                }
            }
            for (JsonNode element : patch) {
                JsonNode id = element.get(key);
                int at = indexOf(result, key, id);
                boolean delete = element.has("$patch") && "delete".equals(element.get("$patch").asString());
                if (delete) {
                    if (at >= 0) {
                        result.remove(at);
                    }
                } else if (at >= 0 && element.isObject()) {
                    result.set(at, mergeObject((ObjectNode) result.get(at), (ObjectNode) element));
                } else {
                    result.add(element);
                }
            }
            return result;
        }
        if (SET_LISTS.contains(name)) {
            ArrayNode result = current != null && current.isArray() ? ((ArrayNode) current).deepCopy() : patch.arrayNode();
            patch.forEach(v -> { if (!contains(result, v)) result.add(v); });
            return result;
        }
        return patch;
    }

    private static int indexOf(ArrayNode list, String key, JsonNode id) {
        for (int i = 0; i < list.size(); i++) {
            if (id != null && id.equals(list.get(i).get(key))) {
                return i;
            }
        }
        return -1;
    }

    private static boolean contains(JsonNode list, JsonNode value) {
        for (JsonNode v : list) {
            if (v.equals(value)) {
                return true;
            }
        }
        return false;
    }

    /** {@code $setElementOrder}: the listed elements first in the given order, any others after them. */
    private static ArrayNode reorder(ArrayNode current, ArrayNode wanted, String key) {
        ArrayNode result = current.arrayNode();
        List<JsonNode> rest = new ArrayList<>();
        current.forEach(rest::add);
        for (JsonNode w : wanted) {
            JsonNode id = key != null ? w.get(key) : w;
            for (int i = 0; i < rest.size(); i++) {
                JsonNode candidate = rest.get(i);
                if (id != null && id.equals(key != null ? candidate.get(key) : candidate)) {
                    result.add(candidate);
                    rest.remove(i);
                    break;
                }
            }
        }
        rest.forEach(result::add);
        return result;
    }
}
