package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.cm.devicemanager.DeviceCapacity;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The node as admission and the downward API see it (upstream {@code getNodeAnyWay}): on a cluster node once the node
 * status loop runs, the Node from the node lister (or, until the lister has it, as that loop last registered or
 * posted it: {@code ClusterSide.registeredNode}); this machine's own node (upstream's
 * {@code initialNode}: its capacity, {@code pods} = {@code maxPods}, and the device plugins' resources as the node
 * status would report them) before that and on a standalone node. Thread-safe.
 */
final class KubeletNode implements Supplier<Node> {
    private final Node machineNode;
    private final Supplier<Optional<Node>> registered;
    private final Supplier<DeviceCapacity> devicePlugins;

    /** @param registered the node status loop's latest node; empty until it runs, and always on a standalone node */
    KubeletNode(Node machineNode, Supplier<Optional<Node>> registered) {
        this(machineNode, registered, () -> DeviceCapacity.NONE);
    }

    /** @param devicePlugins the device manager's resources (upstream's initial node has them too) */
    KubeletNode(Node machineNode, Supplier<Optional<Node>> registered, Supplier<DeviceCapacity> devicePlugins) {
        this.machineNode = machineNode;
        this.registered = registered;
        this.devicePlugins = devicePlugins;
    }

    @Override
    public Node get() {
        return registered.get().orElseGet(this::initialNode);
    }

    /** The machine's node with the device plugins' resources; a resource gone past its grace period shows 0. */
    private Node initialNode() {
        DeviceCapacity devices = devicePlugins.get();
        if (devices.capacity().isEmpty() && devices.deleted().isEmpty()) {
            return machineNode;
        }
        Node n = new NodeBuilder(machineNode).build();
        Map<String, Quantity> capacity = new LinkedHashMap<>(n.getStatus().getCapacity());
        Map<String, Quantity> allocatable = new LinkedHashMap<>(n.getStatus().getAllocatable());
        devices.capacity().forEach((k, v) -> capacity.put(k, new Quantity(Long.toString(v))));
        devices.deleted().forEach(k -> {
            capacity.put(k, new Quantity("0"));
            allocatable.put(k, new Quantity("0"));
        });
        devices.allocatable().forEach((k, v) -> allocatable.put(k, new Quantity(Long.toString(v))));
        capacity.keySet().forEach(k -> allocatable.putIfAbsent(k, capacity.get(k)));
        n.getStatus().setCapacity(capacity);
        n.getStatus().setAllocatable(allocatable);
        return n;
    }

    /** The node's allocatable as registered (the machine's before that): downward API limits default to it. */
    Map<String, Quantity> allocatable() {
        Node n = get();
        return n.getStatus() == null || n.getStatus().getAllocatable() == null ? Map.of() : n.getStatus().getAllocatable();
    }
}
