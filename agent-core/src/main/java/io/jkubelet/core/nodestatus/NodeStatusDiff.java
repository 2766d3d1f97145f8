package io.jkubelet.core.nodestatus;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.jkubelet.core.config.PodCodec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Whether a computed node status differs from the one read from the apiserver (upstream
 * {@code nodeStatusHasChanged}: conditions compared without their heartbeat times, everything else
 * semantically, so quantities compare by value), and the JSON merge patch of the {@code status}
 * subresource that turns one into the other. The merge patch carries each changed field of the status
 * whole (lists such as conditions and addresses are replaced, maps are merged with removed keys set to
 * null): the computed status starts from the node read back, so conditions others set survive.
 */
public final class NodeStatusDiff {

    private NodeStatusDiff() {
    }

    public static boolean hasChanged(NodeStatus original, NodeStatus status) {
        if (original == null && status == null) {
            return false;
        }
        if (original == null || status == null) {
            return true;
        }
        if (conditionsChanged(original.getConditions(), status.getConditions())) {
            return true;
        }
        NodeStatus a = copy(original, NodeStatus.class);
        NodeStatus b = copy(status, NodeStatus.class);
        a.setConditions(null);
        b.setConditions(null);
        return !Objects.equals(a, b);
    }

    private static boolean conditionsChanged(List<NodeCondition> original, List<NodeCondition> conditions) {
        List<NodeCondition> a = original == null ? List.of() : original;
        List<NodeCondition> b = conditions == null ? List.of() : conditions;
        if (a.size() != b.size()) {
            return true;
        }
        Map<String, NodeCondition> byType = new HashMap<>();
        b.forEach(c -> byType.put(c.getType(), c));
        for (NodeCondition oc : a) {
            NodeCondition nc = byType.get(oc.getType());
            if (nc == null) {
                return true;
            }
            NodeCondition x = copy(oc, NodeCondition.class);
            x.setLastHeartbeatTime(nc.getLastHeartbeatTime());
            if (!x.equals(nc)) {
                return true;
            }
        }
        return false;
    }

    /** The merge patch {@code {"status": {...changed fields...}}}, or null when nothing differs. */
    public static String statusPatch(Node original, Node node) {
        JsonNode before = PodCodec.mapper().valueToTree(original.getStatus() == null ? new NodeStatus() : original.getStatus());
        JsonNode after = PodCodec.mapper().valueToTree(node.getStatus());
        ObjectNode status = mergeDiff((ObjectNode) before, (ObjectNode) after, 1);
        if (status.isEmpty()) {
            return null;
        }
        ObjectNode patch = PodCodec.mapper().createObjectNode();
        patch.set("status", status);
        return PodCodec.mapper().writeValueAsString(patch);
    }

    /**
     * The merge patch of two objects, descending {@code depth} levels into objects (capacity, allocatable)
     * and replacing anything else whole.
     */
    static ObjectNode mergeDiff(ObjectNode before, ObjectNode after, int depth) {
        ObjectNode diff = PodCodec.mapper().createObjectNode();
        for (var e : after.properties()) {
            JsonNode was = before.get(e.getKey());
            if (e.getValue().equals(was)) {
                continue;
            }
            if (depth > 0 && was instanceof ObjectNode wasObject && e.getValue() instanceof ObjectNode nowObject) {
                diff.set(e.getKey(), mergeDiff(wasObject, nowObject, depth - 1));
            } else {
                diff.set(e.getKey(), e.getValue());
            }
        }
        for (var e : before.properties()) {
            if (!after.has(e.getKey())) {
                diff.putNull(e.getKey());
            }
        }
        return diff;
    }

    /** A deep copy through the model's JSON form. */
    public static <T> T copy(T value, Class<T> type) {
        return PodCodec.mapper().treeToValue(PodCodec.mapper().valueToTree(value), type);
    }
}
