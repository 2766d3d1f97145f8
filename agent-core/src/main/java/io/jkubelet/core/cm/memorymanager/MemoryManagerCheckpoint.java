package io.jkubelet.core.cm.memorymanager;

import io.jkubelet.core.checkpointmanager.CheckpointException;
import io.jkubelet.core.checkpointmanager.CheckpointManager;
import io.jkubelet.core.checkpointmanager.Checksum;
import io.jkubelet.core.checkpointmanager.GoSpew;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code memory_manager_state} file (upstream's {@code state_checkpoint.go} with {@code MemoryManagerCheckpoint}):
 * {@code {"policyName":"Static","machineState":{"0":{"numberOfAssignments":0,"memoryMap":{"memory":{"total":..,
 * "systemReserved":..,"allocatable":..,"reserved":..,"free":..}},"cells":[0]}},"entries":{"<pod uid>":{"<container>":
 * [{"numaAffinity":[0],"type":"memory","size":..}]}},"checksum":N}}, the checksum FNV-32a over go-spew's print of the
 * checkpoint, so that a file either kubelet wrote is read by the other. A missing file is written anew; one whose
 * checksum or policy does not match refuses the start with upstream's message.
 */
public final class MemoryManagerCheckpoint {
    /** Upstream's {@code memoryManagerStateFileName}, in the kubelet's root directory. */
    public static final String KEY = "memory_manager_state";
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final CheckpointManager files;
    private final String policyName;

    public MemoryManagerCheckpoint(CheckpointManager files, String policyName) {
        this.files = files;
        this.policyName = policyName;
    }

    /**
     * Upstream's {@code NewCheckpointState}: the file's state, or the file written from the empty state.
     *
     * @throws IllegalStateException with upstream's message when the file is corrupt or was written by another policy
     */
    public MemoryManagerState restore() throws IOException {
        MemoryManagerState state = new MemoryManagerState();
        try {
            read(files.read(KEY), state);
        } catch (CheckpointException.NotFound e) {
            store(state);
        } catch (CheckpointException e) {
            throw new IllegalStateException("could not restore state from checkpoint: " + e.getMessage()
                    + ", please drain this node and delete the memory manager checkpoint file \"" + files.file(KEY)
                    + "\" before restarting Kubelet", e);
        }
        return state;
    }

    /** Upstream's {@code storeState}: written after each change. */
    public void store(MemoryManagerState state) throws IOException {
        Map<Integer, NumaNodeState> machine = state.machineState();
        Map<String, Map<String, List<MemoryBlock>>> entries = state.assignments();
        ObjectNode root = JSON.createObjectNode();
        root.put("policyName", policyName);
        ObjectNode ms = root.putObject("machineState");
        machine.forEach((id, node) -> {
            ObjectNode n = ms.putObject(Integer.toString(id));
            n.put("numberOfAssignments", node.numberOfAssignments);
            ObjectNode mm = n.putObject("memoryMap");
            node.memoryMap.forEach((type, t) -> {
                ObjectNode table = mm.putObject(type);
                table.put("total", t.total);
                table.put("systemReserved", t.systemReserved);
                table.put("allocatable", t.allocatable);
                table.put("reserved", t.reserved);
                table.put("free", t.free);
            });
            ArrayNode cells = n.putArray("cells");
            node.cells.forEach(cells::add);
        });
        if (!entries.isEmpty()) {
            ObjectNode e = root.putObject("entries");
            entries.forEach((pod, containers) -> {
                ObjectNode p = e.putObject(pod);
                containers.forEach((name, blocks) -> {
                    ArrayNode list = p.putArray(name);
                    for (MemoryBlock b : blocks) {
                        ObjectNode block = list.addObject();
                        ArrayNode affinity = block.putArray("numaAffinity");
                        b.numaAffinity().forEach(affinity::add);
                        block.put("type", b.type());
                        block.put("size", b.size());
                    }
                });
            });
        }
        root.put("checksum", Checksum.of(spew(policyName, machine, entries)));
        files.create(KEY, JSON.writeValueAsBytes(root));
    }

    private void read(byte[] json, MemoryManagerState state) throws CheckpointException {
        String policy;
        Map<Integer, NumaNodeState> machine = new TreeMap<>();
        Map<String, Map<String, List<MemoryBlock>>> entries = new TreeMap<>();
        long checksum;
        try {
            JsonNode root = JSON.readTree(json);
            policy = root.path("policyName").asString("");
            for (var node : root.path("machineState").properties()) {
                Map<String, MemoryTable> tables = new TreeMap<>();
                for (var t : node.getValue().path("memoryMap").properties()) {
                    JsonNode v = t.getValue();
                    tables.put(t.getKey(), new MemoryTable(v.path("total").asLong(), v.path("systemReserved").asLong(),
                            v.path("allocatable").asLong(), v.path("reserved").asLong(), v.path("free").asLong()));
                }
                machine.put(Integer.parseInt(node.getKey()), new NumaNodeState(
                        node.getValue().path("numberOfAssignments").asInt(), tables, ints(node.getValue().path("cells"))));
            }
            for (var pod : root.path("entries").properties()) {
                Map<String, List<MemoryBlock>> containers = new TreeMap<>();
                for (var c : pod.getValue().properties()) {
                    List<MemoryBlock> blocks = new ArrayList<>();
                    for (JsonNode b : c.getValue()) {
                        blocks.add(new MemoryBlock(ints(b.path("numaAffinity")), b.path("type").asString(""),
                                b.path("size").asLong()));
                    }
                    containers.put(c.getKey(), blocks);
                }
                entries.put(pod.getKey(), containers);
            }
            checksum = root.path("checksum").asLong(0);
        } catch (JacksonException | IllegalArgumentException | UnsupportedOperationException e) {
            throw new CheckpointException.Corrupt(e);
        }
        // Upstream accepts a file without a checksum (its old file backend's).
        if (checksum != 0) {
            Checksum.verify(checksum, spew(policy, machine, entries));
        }
        if (!policyName.equals(policy)) {
            throw new CheckpointException("[memorymanager] configured policy \"" + policyName
                    + "\" differs from state checkpoint policy \"" + policy + "\"");
        }
        state.setMachineState(machine);
        state.setAssignments(entries);
    }

    private static List<Integer> ints(JsonNode array) {
        List<Integer> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asInt()));
        return out;
    }

    /**
     * go-spew's {@code %#v} of upstream's {@code *state.MemoryManagerCheckpoint} with its checksum zeroed: pointers
     * inside maps print as {@code <*>}, values inside maps and slices without their types.
     */
    static String spew(String policy, Map<Integer, NumaNodeState> machine,
                       Map<String, Map<String, List<MemoryBlock>>> entries) {
        Map<String, String> nodes = new LinkedHashMap<>();
        machine.forEach((id, node) -> {
            Map<String, String> tables = new LinkedHashMap<>();
            node.memoryMap.forEach((type, t) -> tables.put(type, "<*>" + GoSpew.struct(
                    GoSpew.field("TotalMemSize", "uint64", Long.toUnsignedString(t.total)),
                    GoSpew.field("SystemReserved", "uint64", Long.toUnsignedString(t.systemReserved)),
                    GoSpew.field("Allocatable", "uint64", Long.toUnsignedString(t.allocatable)),
                    GoSpew.field("Reserved", "uint64", Long.toUnsignedString(t.reserved)),
                    GoSpew.field("Free", "uint64", Long.toUnsignedString(t.free)))));
            nodes.put(Integer.toString(id), "<*>" + GoSpew.struct(
                    GoSpew.field("NumberOfAssignments", "int", Integer.toString(node.numberOfAssignments)),
                    GoSpew.field("MemoryMap", "map[v1.ResourceName]*state.MemoryTable", GoSpew.map(tables)),
                    GoSpew.field("Cells", "[]int", GoSpew.slice(node.cells.stream().map(String::valueOf).toList()))));
        });
        Map<String, String> pods = new LinkedHashMap<>();
        entries.forEach((pod, containers) -> {
            Map<String, String> byName = new LinkedHashMap<>();
            containers.forEach((name, blocks) -> byName.put(name, GoSpew.slice(blocks.stream().map(b -> GoSpew.struct(
                    GoSpew.field("NUMAAffinity", "[]int", GoSpew.slice(b.numaAffinity().stream().map(String::valueOf).toList())),
                    GoSpew.field("Type", "v1.ResourceName", b.type()),
                    GoSpew.field("Size", "uint64", Long.toUnsignedString(b.size())))).toList())));
            pods.put(pod, GoSpew.map(byName));
        });
        return GoSpew.typed("*state.MemoryManagerCheckpoint", GoSpew.struct(
                GoSpew.field("PolicyName", "string", policy),
                GoSpew.field("MachineState", "state.NUMANodeMap", GoSpew.map(nodes)),
                GoSpew.field("Entries", "state.ContainerMemoryAssignments", GoSpew.map(pods)),
                GoSpew.field("Checksum", "checksum.Checksum", "0")));
    }
}
