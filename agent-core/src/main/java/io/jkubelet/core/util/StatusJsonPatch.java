package io.jkubelet.core.util;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.util.Iterator;
import java.util.function.Predicate;

/**
 * The JSON patch (RFC 6902) of an object's {@code status} from the apiserver's to the kubelet's: one
 * {@code add}/{@code replace}/{@code remove} per top-level status field that differs, lists whole (as a merge patch
 * would send them, but with the same meaning on every server: fabric8's mock appends to lists on a merge patch).
 * Used for pods and nodes.
 */
public final class StatusJsonPatch {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private StatusJsonPatch() {
    }

    /**
     * The operations from {@code before} (null: the object has no status at all) to {@code after}; empty when they
     * agree. A field missing from {@code after} is removed only when {@code removable} says the kubelet owns it.
     */
    public static ArrayNode fieldOps(JsonNode before, ObjectNode after, Predicate<String> removable) {
        ArrayNode ops = NODES.arrayNode();
        if (before == null || !before.isObject()) {
            ops.add(op("add", "/status", after));
            return ops;
        }
        for (var e : after.properties()) {
            JsonNode old = before.get(e.getKey());
            if (old == null || old.isNull()) {
                if (!e.getValue().isNull()) {
                    ops.add(op("add", "/status/" + e.getKey(), e.getValue()));
                }
            } else if (!old.equals(e.getValue())) {
                ops.add(op("replace", "/status/" + e.getKey(), e.getValue()));
            }
        }
        for (Iterator<String> it = before.propertyNames().iterator(); it.hasNext(); ) {
            String name = it.next();
            if (removable.test(name) && !before.get(name).isNull() && !after.has(name)) {
                ops.add(NODES.objectNode().put("op", "remove").put("path", "/status/" + name));
            }
        }
        return ops;
    }

    private static ObjectNode op(String op, String path, JsonNode value) {
        ObjectNode o = NODES.objectNode().put("op", op).put("path", path);
        o.set("value", value);
        return o;
    }
}
