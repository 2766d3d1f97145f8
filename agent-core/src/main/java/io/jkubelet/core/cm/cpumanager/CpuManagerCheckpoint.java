package io.jkubelet.core.cm.cpumanager;

import io.jkubelet.core.apis.config.CpuSet;
import io.jkubelet.core.checkpointmanager.CheckpointException;
import io.jkubelet.core.checkpointmanager.CheckpointManager;
import io.jkubelet.core.checkpointmanager.Checksum;
import io.jkubelet.core.checkpointmanager.GoSpew;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code cpu_manager_state} file (upstream's {@code state_checkpoint.go} with {@code CPUManagerCheckpointV2}):
 * {@code {"policyName":"static","defaultCpuSet":"0","entries":{"<pod uid>":{"<container>":"1"}},"checksum":N}}, the
 * checksum FNV-32a over go-spew's print of the checkpoint, so that a file either kubelet wrote is read by the other.
 * A file that is missing is written anew; one whose checksum or policy does not match refuses the start, with
 * upstream's message.
 */
public final class CpuManagerCheckpoint {
    /** Upstream's {@code cpuManagerStateFileName}, in the kubelet's root directory. */
    public static final String KEY = "cpu_manager_state";
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final CheckpointManager files;
    private final String policyName;

    public CpuManagerCheckpoint(CheckpointManager files, String policyName) {
        this.files = files;
        this.policyName = policyName;
    }

    /**
     * Upstream's {@code NewCheckpointState}: the state of the file, or the file written from the empty state.
     *
     * @throws IllegalStateException with upstream's message: the file is corrupted, was written by another policy or
     *     holds a CPU list that does not parse
     */
    public CpuManagerState restore() throws IOException {
        CpuManagerState state = new CpuManagerState();
        try {
            read(files.read(KEY), state);
        } catch (CheckpointException.NotFound e) {
            store(state);
        } catch (CheckpointException | IllegalArgumentException e) {
            throw new IllegalStateException("could not restore state from checkpoint: " + e.getMessage()
                    + ", please drain this node and delete the CPU manager checkpoint file \"" + files.file(KEY)
                    + "\" before restarting Kubelet", e);
        }
        return state;
    }

    /** Upstream's {@code storeState}: written after each change. */
    public void store(CpuManagerState state) throws IOException {
        Map<String, Map<String, String>> entries = new TreeMap<>();
        state.assignments().forEach((pod, containers) -> {
            Map<String, String> cpus = new TreeMap<>();
            containers.forEach((c, set) -> cpus.put(c, set.toString()));
            entries.put(pod, cpus);
        });
        String defaultCpuSet = state.defaultCpuSet().toString();
        ObjectNode root = JSON.createObjectNode();
        root.put("policyName", policyName);
        root.put("defaultCpuSet", defaultCpuSet);
        if (!entries.isEmpty()) {
            ObjectNode e = root.putObject("entries");
            entries.forEach((pod, cpus) -> {
                ObjectNode p = e.putObject(pod);
                cpus.forEach(p::put);
            });
        }
        root.put("checksum", Checksum.of(spew(policyName, defaultCpuSet, entries)));
        files.create(KEY, JSON.writeValueAsBytes(root));
    }

    private void read(byte[] json, CpuManagerState state) throws CheckpointException {
        String policy;
        String defaultCpuSet;
        Map<String, Map<String, String>> entries = new TreeMap<>();
        long checksum;
        try {
            JsonNode root = JSON.readTree(json);
            policy = root.path("policyName").asString("");
            defaultCpuSet = root.path("defaultCpuSet").asString("");
            for (var pod : root.path("entries").properties()) {
                Map<String, String> cpus = new TreeMap<>();
                for (var c : pod.getValue().properties()) {
                    cpus.put(c.getKey(), c.getValue().asString());
                }
                entries.put(pod.getKey(), cpus);
            }
            checksum = root.path("checksum").asLong(0);
        } catch (JacksonException | IllegalArgumentException | UnsupportedOperationException e) {
            throw new CheckpointException.Corrupt(e);
        }
        // Upstream accepts a file without a checksum (its old file backend's).
        if (checksum != 0) {
            Checksum.verify(checksum, spew(policy, defaultCpuSet, entries));
        }
        if (!policyName.equals(policy)) {
            throw new CheckpointException("configured policy \"" + policyName + "\" differs from state checkpoint policy \""
                    + policy + "\"");
        }
        state.setDefaultCpuSet(parse(defaultCpuSet, "could not parse default cpu set \"" + defaultCpuSet + "\""));
        Map<String, Map<String, CpuSet>> assignments = new TreeMap<>();
        for (var pod : entries.entrySet()) {
            for (var c : pod.getValue().entrySet()) {
                assignments.computeIfAbsent(pod.getKey(), k -> new TreeMap<>()).put(c.getKey(), parse(c.getValue(),
                        "could not parse cpuset \"" + c.getValue() + "\" for container \"" + c.getKey() + "\" in pod \""
                                + pod.getKey() + "\""));
            }
        }
        state.setAssignments(assignments);
    }

    private static CpuSet parse(String list, String what) throws CheckpointException {
        try {
            return CpuSet.parse(list);
        } catch (IllegalArgumentException e) {
            throw new CheckpointException(what + ": " + e.getMessage());
        }
    }

    /** go-spew's {@code %#v} of upstream's {@code *CPUManagerCheckpoint} with its checksum zeroed. */
    static String spew(String policy, String defaultCpuSet, Map<String, Map<String, String>> entriesSorted) {
        Map<String, String> pods = new LinkedHashMap<>();
        entriesSorted.forEach((pod, cpus) -> pods.put(pod, GoSpew.map(new TreeMap<>(cpus))));
        return GoSpew.typed("*state.CPUManagerCheckpoint", GoSpew.struct(
                GoSpew.field("PolicyName", "string", policy),
                GoSpew.field("DefaultCPUSet", "string", defaultCpuSet),
                GoSpew.field("Entries", "map[string]map[string]string", GoSpew.map(pods)),
                GoSpew.field("Checksum", "checksum.Checksum", "0")));
    }
}
