package io.jkubelet.core.nodestatus;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.NodeStatus;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The condition setters (upstream {@code nodestatus.MemoryPressureCondition}, {@code DiskPressureCondition},
 * {@code PIDPressureCondition}, {@code ReadyCondition}). Every call moves {@code lastHeartbeatTime} to now;
 * {@code lastTransitionTime} moves only when the status flips, so that a status that only heartbeats does not
 * count as changed. Events go through {@code recordEvent(type, reason)}.
 */
public final class NodeConditions {
    public static final String READY = "Ready";
    public static final String MEMORY_PRESSURE = "MemoryPressure";
    public static final String DISK_PRESSURE = "DiskPressure";
    public static final String PID_PRESSURE = "PIDPressure";

    private NodeConditions() {
    }

    public static void memoryPressure(Node node, String now, boolean pressure, BiConsumer<String, String> recordEvent) {
        pressure(node, now, MEMORY_PRESSURE, pressure,
                new Verdict("KubeletHasInsufficientMemory", "kubelet has insufficient memory available", "NodeHasInsufficientMemory"),
                new Verdict("KubeletHasSufficientMemory", "kubelet has sufficient memory available", "NodeHasSufficientMemory"),
                recordEvent);
    }

    public static void diskPressure(Node node, String now, boolean pressure, BiConsumer<String, String> recordEvent) {
        pressure(node, now, DISK_PRESSURE, pressure,
                new Verdict("KubeletHasDiskPressure", "kubelet has disk pressure", "NodeHasDiskPressure"),
                new Verdict("KubeletHasNoDiskPressure", "kubelet has no disk pressure", "NodeHasNoDiskPressure"),
                recordEvent);
    }

    public static void pidPressure(Node node, String now, boolean pressure, BiConsumer<String, String> recordEvent) {
        pressure(node, now, PID_PRESSURE, pressure,
                new Verdict("KubeletHasInsufficientPID", "kubelet has insufficient PID available", "NodeHasInsufficientPID"),
                new Verdict("KubeletHasSufficientPID", "kubelet has sufficient PID available", "NodeHasSufficientPID"),
                recordEvent);
    }

    /**
     * Ready: True/KubeletReady unless there are errors, which make it False/KubeletNotReady with the errors
     * as message (one error as is, several as "[a, b]", like Go's aggregate error). A capacity without cpu,
     * memory, pods or (with local storage isolation) ephemeral-storage is an error too.
     */
    public static void ready(Node node, String now, List<String> errors, boolean localStorageCapacityIsolation,
            BiConsumer<String, String> recordEvent) {
        List<String> all = new ArrayList<>(errors);
        List<String> required = new ArrayList<>(List.of(NodeResources.CPU, NodeResources.MEMORY, NodeResources.PODS));
        if (localStorageCapacityIsolation) {
            required.add(NodeResources.EPHEMERAL_STORAGE);
        }
        var capacity = status(node).getCapacity();
        List<String> missing = required.stream().filter(r -> capacity == null || !capacity.containsKey(r)).toList();
        if (!missing.isEmpty()) {
            all.add("missing node capacity for resources: " + String.join(", ", missing));
        }
        NodeCondition fresh = all.isEmpty()
                ? condition(READY, "True", "KubeletReady", "kubelet is posting ready status", now)
                : condition(READY, "False", "KubeletNotReady", all.size() == 1 ? all.getFirst() : "[" + String.join(", ", all) + "]", now);
        NodeCondition existing = find(node, READY);
        if (existing == null) {
            fresh.setLastTransitionTime(now);
            status(node).getConditions().add(fresh);
            return;
        }
        boolean flipped = !fresh.getStatus().equals(existing.getStatus());
        fresh.setLastTransitionTime(flipped ? now : existing.getLastTransitionTime());
        List<NodeCondition> conditions = status(node).getConditions();
        conditions.set(conditions.indexOf(existing), fresh);
        if (flipped) {
            recordEvent.accept("Normal", "True".equals(fresh.getStatus()) ? "NodeReady" : "NodeNotReady");
        }
    }

    private record Verdict(String reason, String message, String event) {}

    private static void pressure(Node node, String now, String type, boolean pressure, Verdict bad, Verdict good,
            BiConsumer<String, String> recordEvent) {
        NodeCondition c = find(node, type);
        boolean created = c == null;
        if (created) {
            c = new NodeConditionBuilder().withType(type).withStatus("Unknown").build();
        }
        c.setLastHeartbeatTime(now);
        String want = pressure ? "True" : "False";
        if (!want.equals(c.getStatus())) {
            Verdict v = pressure ? bad : good;
            c.setStatus(want);
            c.setReason(v.reason());
            c.setMessage(v.message());
            c.setLastTransitionTime(now);
            recordEvent.accept("Normal", v.event());
        }
        if (created) {
            status(node).getConditions().add(c);
        }
    }

    private static NodeCondition condition(String type, String status, String reason, String message, String now) {
        return new NodeConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage(message)
                .withLastHeartbeatTime(now).build();
    }

    static NodeCondition find(Node node, String type) {
        return status(node).getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
    }

    static NodeStatus status(Node node) {
        if (node.getStatus() == null) {
            node.setStatus(new NodeStatus());
        }
        if (node.getStatus().getConditions() == null) {
            node.getStatus().setConditions(new ArrayList<>());
        }
        return node.getStatus();
    }
}
