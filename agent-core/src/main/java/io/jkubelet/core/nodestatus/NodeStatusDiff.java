package io.jkubelet.core.nodestatus;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.jkubelet.core.config.PodCodec;
import io.jkubelet.core.util.StatusJsonPatch;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Whether a computed node status differs from the one read from the apiserver (upstream
 * {@code nodeStatusHasChanged}: conditions compared without their heartbeat times, everything else
 * semantically, so quantities compare by value), and the patch of the {@code status} subresource that
 * turns one into the other. The patch carries each changed field of the status whole: the computed status
 * starts from the node read back, so conditions others set survive (unless they change in between).
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

    /**
     * The JSON patch (RFC 6902) that sets every changed field of the status to its new value, or null when
     * nothing differs. A JSON patch and not a merge patch: its meaning for lists is the same on every server,
     * where a merge patch of {@code conditions} replaces the list on a real apiserver but was seen appended
     * to by fabric8's mock server.
     */
    public static String statusPatch(Node original, Node node) {
        JsonNode before = original.getStatus() == null ? null : PodCodec.mapper().valueToTree(original.getStatus());
        ObjectNode after = PodCodec.mapper().valueToTree(node.getStatus());
        ArrayNode ops = StatusJsonPatch.fieldOps(before, after, field -> true);
        return ops.isEmpty() ? null : PodCodec.mapper().writeValueAsString(ops);
    }

    /** A deep copy through the model's JSON form. */
    public static <T> T copy(T value, Class<T> type) {
        return PodCodec.mapper().treeToValue(PodCodec.mapper().valueToTree(value), type);
    }
}
