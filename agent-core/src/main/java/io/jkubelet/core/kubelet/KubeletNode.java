package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;

import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The node as admission and the downward API see it (upstream {@code getNodeAnyWay}): the Node object the node status
 * loop last registered or posted, on a cluster node once that loop runs; this machine's own node (upstream's
 * {@code initialNode}: its capacity, {@code pods} = {@code maxPods}) before that and on a standalone node. Thread-safe.
 */
final class KubeletNode implements Supplier<Node> {
    private final Node machineNode;
    private final Supplier<Optional<Node>> registered;

    /** @param registered the node status loop's latest node; empty until it runs, and always on a standalone node */
    KubeletNode(Node machineNode, Supplier<Optional<Node>> registered) {
        this.machineNode = machineNode;
        this.registered = registered;
    }

    @Override
    public Node get() {
        return registered.get().orElse(machineNode);
    }

    /** The node's allocatable as registered (the machine's before that): downward API limits default to it. */
    Map<String, Quantity> allocatable() {
        Node n = get();
        return n.getStatus() == null || n.getStatus().getAllocatable() == null ? Map.of() : n.getStatus().getAllocatable();
    }
}
