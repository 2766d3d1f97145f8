package io.jkubelet.core.status;

import io.jkubelet.core.util.StatusJsonPatch;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.util.Set;

/**
 * The JSON patch of a pod's {@code status} subresource from the apiserver's status to the kubelet's: first a
 * {@code test} of {@code /metadata/uid} (the apiserver refuses the whole patch when the pod was re-created under the
 * same name, as upstream's UID in the patch does), then {@link StatusJsonPatch}'s per-field operations. Fields the
 * kubelet does not generate are never removed: they belong to the scheduler or to newer API versions.
 */
final class StatusPatch {

    private StatusPatch() {
    }

    /** The operations, or an empty array when the statuses agree (then nothing is sent). */
    static ArrayNode between(String uid, JsonNode apiStatus, ObjectNode kubeletStatus, Set<String> kubeletFields) {
        ArrayNode ops = StatusJsonPatch.fieldOps(apiStatus, kubeletStatus, kubeletFields::contains);
        if (ops.isEmpty()) {
            return ops;
        }
        ArrayNode withTest = JsonNodeFactory.instance.arrayNode();
        withTest.add(JsonNodeFactory.instance.objectNode().put("op", "test").put("path", "/metadata/uid").put("value", uid));
        withTest.addAll(ops);
        return withTest;
    }
}
