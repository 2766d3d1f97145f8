package io.jkubelet.core.volume.csi;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The changes registering a CSI driver makes to the Node object (upstream nodeinfomanager's {@code nodeUpdateFunc}s),
 * as pure functions of the node, and the patches that carry them to the apiserver.
 */
final class NodeUpdates {
    /** The node annotation holding a JSON map of driver names to their node IDs. */
    static final String ANNOTATION_KEY_NODE_ID = "csi.volume.kubernetes.io/nodeid";
    /** The resource kubelets before v1.17 reported a driver's volume limit under (upstream {@code CSIAttachLimitPrefix}). */
    static final String CSI_ATTACH_LIMIT_PREFIX = "attachable-volumes-csi-";
    private static final int RESOURCE_NAME_LENGTH_LIMIT = 63;
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    /** One change of the node, in place (upstream {@code nodeUpdateFunc}). */
    @FunctionalInterface
    interface NodeUpdate {
        /**
         * @return whether the node changed
         * @throws IllegalStateException what upstream's function returns as an error; the node is not patched
         */
        boolean apply(Node node);
    }

    private NodeUpdates() {}

    /** A copy the updates may change (upstream's {@code DeepCopy}). */
    static Node copy(Node node) {
        return new NodeBuilder(node).build();
    }

    /** Upstream {@code updateNodeIDInNode}: the driver's node ID into the annotation's map. */
    static NodeUpdate updateNodeIdInNode(String driverName, String nodeId) {
        return node -> {
            Map<String, String> ids = nodeIdMap(node);
            if (nodeId.equals(ids.get(driverName))) {
                return false;
            }
            ids.put(driverName, nodeId);
            annotations(node).put(ANNOTATION_KEY_NODE_ID, JSON.writeValueAsString(ids));
            return true;
        };
    }

    /** Upstream {@code removeNodeIDFromNode}: the driver out of the annotation's map, the annotation gone when empty. */
    static NodeUpdate removeNodeIdFromNode(String driverName) {
        return node -> {
            Map<String, String> ids = nodeIdMap(node);
            if (ids.remove(driverName) == null) {
                return false;
            }
            if (ids.isEmpty()) {
                node.getMetadata().getAnnotations().remove(ANNOTATION_KEY_NODE_ID);
            } else {
                annotations(node).put(ANNOTATION_KEY_NODE_ID, JSON.writeValueAsString(ids));
            }
            return true;
        };
    }

    /**
     * Upstream {@code updateTopologyLabels}: the driver's topology segments as node labels. A label the node has with
     * another value is a collision: nothing is changed and the driver is refused.
     */
    static NodeUpdate updateTopologyLabels(Map<String, String> topology) {
        return node -> {
            if (topology.isEmpty()) {
                return false;
            }
            Map<String, String> labels = node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels();
            topology.forEach((k, v) -> {
                String current = labels.get(k);
                if (current != null && !current.equals(v)) {
                    throw new IllegalStateException("detected topology value collision: driver reported " + goQuoted(k)
                            + ":" + goQuoted(v) + " but existing label is " + goQuoted(k) + ":" + goQuoted(current));
                }
            });
            if (node.getMetadata().getLabels() == null) {
                node.getMetadata().setLabels(new LinkedHashMap<>());
            }
            node.getMetadata().getLabels().putAll(topology);
            return true;
        };
    }

    /** Upstream {@code removeMaxAttachLimit}: the legacy volume-limit resource of the driver out of the node's status. */
    static NodeUpdate removeMaxAttachLimit(String driverName) {
        return node -> {
            String key = attachLimitKey(driverName);
            var status = node.getStatus();
            boolean inCapacity = status != null && status.getCapacity() != null && status.getCapacity().containsKey(key);
            boolean inAllocatable = status != null && status.getAllocatable() != null
                    && status.getAllocatable().containsKey(key);
            if (!inCapacity && !inAllocatable) {
                return false;
            }
            if (inCapacity) {
                status.getCapacity().remove(key);
            }
            if (inAllocatable) {
                status.getAllocatable().remove(key);
            }
            return true;
        };
    }

    /** Upstream {@code GetCSIAttachLimitKey}: a long driver name is cut and suffixed with a hash, to fit 63 characters. */
    static String attachLimitKey(String driverName) {
        if (CSI_ATTACH_LIMIT_PREFIX.length() + driverName.length() < RESOURCE_NAME_LENGTH_LIMIT) {
            return CSI_ATTACH_LIMIT_PREFIX + driverName;
        }
        try {
            byte[] sha1 = MessageDigest.getInstance("SHA-1").digest(driverName.getBytes(StandardCharsets.UTF_8));
            return CSI_ATTACH_LIMIT_PREFIX + driverName.substring(0, 23) + HexFormat.of().formatHex(sha1).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A JSON merge patch of the node's annotations and labels from {@code original} to {@code updated}; null when they
     * are the same.
     */
    static String metadataMergePatch(Node original, Node updated) {
        ObjectNode metadata = JSON.createObjectNode();
        diff(original.getMetadata().getAnnotations(), updated.getMetadata().getAnnotations(), metadata, "annotations");
        diff(original.getMetadata().getLabels(), updated.getMetadata().getLabels(), metadata, "labels");
        if (metadata.isEmpty()) {
            return null;
        }
        ObjectNode patch = JSON.createObjectNode();
        patch.set("metadata", metadata);
        return patch.toString();
    }

    /**
     * A JSON patch (RFC 6902) removing from the node's status the capacity and allocatable entries {@code updated}
     * no longer has; null when there are none.
     */
    static String statusRemovalPatch(Node original, Node updated) {
        ArrayNode ops = JSON.createArrayNode();
        if (original.getStatus() != null) {
            removed(original.getStatus().getCapacity(), updated.getStatus().getCapacity(), "/status/capacity/", ops);
            removed(original.getStatus().getAllocatable(), updated.getStatus().getAllocatable(), "/status/allocatable/", ops);
        }
        return ops.isEmpty() ? null : ops.toString();
    }

    /**
     * The annotation's map (upstream {@code buildNodeIDMapFromAnnotation}); empty when there is none.
     *
     * @throws IllegalStateException when the annotation is not a JSON map of strings
     */
    static Map<String, String> nodeIdMap(Node node) {
        Map<String, String> annotations = node.getMetadata().getAnnotations();
        String value = annotations == null ? null : annotations.get(ANNOTATION_KEY_NODE_ID);
        if (value == null || value.isEmpty()) {
            return new TreeMap<>();
        }
        try {
            Map<String, String> ids = JSON.readValue(value, new TypeReference<TreeMap<String, String>>() {});
            return ids == null ? new TreeMap<>() : ids;
        } catch (JacksonException e) {
            throw new IllegalStateException("failed to parse node's " + goQuoted(ANNOTATION_KEY_NODE_ID)
                    + " annotation value (" + goQuoted(value) + ") err=" + e.getOriginalMessage());
        }
    }

    private static Map<String, String> annotations(Node node) {
        if (node.getMetadata().getAnnotations() == null) {
            node.getMetadata().setAnnotations(new LinkedHashMap<>());
        }
        return node.getMetadata().getAnnotations();
    }

    private static void diff(Map<String, String> before, Map<String, String> after, ObjectNode metadata, String field) {
        Map<String, String> a = before == null ? Map.of() : before;
        Map<String, String> b = after == null ? Map.of() : after;
        ObjectNode changes = JSON.createObjectNode();
        b.forEach((k, v) -> {
            if (!Objects.equals(a.get(k), v)) {
                changes.put(k, v);
            }
        });
        a.keySet().stream().filter(k -> !b.containsKey(k)).forEach(changes::putNull);
        if (!changes.isEmpty()) {
            metadata.set(field, changes);
        }
    }

    private static void removed(Map<String, Quantity> before, Map<String, Quantity> after, String path, ArrayNode ops) {
        if (before == null) {
            return;
        }
        before.keySet().stream().filter(k -> after == null || !after.containsKey(k)).forEach(k -> ops.addObject()
                .put("op", "remove").put("path", path + k.replace("~", "~0").replace("/", "~1")));
    }

    /** Go's {@code %q} of a string. */
    static String goQuoted(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
