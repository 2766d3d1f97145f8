package io.jkubelet.core.status;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.util.Iterator;
import java.util.Set;

/**
 * The JSON patch (RFC 6902) of a pod's {@code status} subresource from the apiserver's status to the kubelet's:
 * first a {@code test} of {@code /metadata/uid} (the apiserver refuses the whole patch when the pod was re-created
 * under the same name, as upstream's UID in the patch does), then one {@code add}/{@code replace}/{@code remove} per
 * top-level status field that differs. Lists (conditions, container statuses) go whole, as in a merge patch.
 * Fields the kubelet does not generate are never removed: they belong to the scheduler or to newer API versions.
 */
final class StatusPatch {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private StatusPatch() {
    }

    /** The operations, or an empty array when the statuses agree (then nothing is sent). */
    static ArrayNode between(String uid, JsonNode apiStatus, ObjectNode kubeletStatus, Set<String> kubeletFields) {
        ArrayNode ops = NODES.arrayNode();
        if (apiStatus == null || !apiStatus.isObject()) {
            ops.add(op("add", "/status", kubeletStatus));
        } else {
            for (var e : kubeletStatus.properties()) {
                JsonNode old = apiStatus.get(e.getKey());
                if (old == null || old.isNull()) {
                    if (!e.getValue().isNull()) {
                        ops.add(op("add", "/status/" + e.getKey(), e.getValue()));
                    }
                } else if (!old.equals(e.getValue())) {
                    ops.add(op("replace", "/status/" + e.getKey(), e.getValue()));
                }
            }
            for (Iterator<String> it = apiStatus.propertyNames().iterator(); it.hasNext(); ) {
                String name = it.next();
                if (kubeletFields.contains(name) && !apiStatus.get(name).isNull() && !kubeletStatus.has(name)) {
                    ops.add(NODES.objectNode().put("op", "remove").put("path", "/status/" + name));
                }
            }
        }
        if (ops.isEmpty()) {
            return ops;
        }
        ArrayNode withTest = NODES.arrayNode();
        withTest.add(NODES.objectNode().put("op", "test").put("path", "/metadata/uid").put("value", uid));
        withTest.addAll(ops);
        return withTest;
    }

    private static ObjectNode op(String op, String path, JsonNode value) {
        ObjectNode o = NODES.objectNode().put("op", op).put("path", path);
        o.set("value", value);
        return o;
    }
}
