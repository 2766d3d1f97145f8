package io.jkubelet.core.cm.devicemanager;

import io.jkubelet.core.checkpointmanager.CheckpointException;
import io.jkubelet.core.checkpointmanager.Checksum;
import io.jkubelet.core.checkpointmanager.GoSpew;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The device manager's checkpoint, {@code kubelet_internal_checkpoint} (upstream {@code devicemanager/checkpoint}, v2):
 * which devices each container holds with the plugin's {@code Allocate} answer, and the healthy devices of each
 * registered resource; as upstream's JSON, {@code {"Data":{"PodDeviceEntries":[...],"RegisteredDevices":{...}},
 * "Checksum":N}}, whose checksum is taken over go-spew's print of the Go {@code checkpointData}. Go's {@code nil}
 * slices and maps ({@code null} in the JSON, and here) print differently from empty ones, so they are kept apart.
 *
 * @param podDeviceEntries one entry per container and resource; {@code null} is Go's {@code nil}
 * @param registeredDevices the healthy device IDs of each resource; {@code null} lists are Go's {@code nil}
 */
record DeviceCheckpoint(List<Entry> podDeviceEntries, Map<String, List<String>> registeredDevices) {
    /** Upstream {@code kubeletDeviceManagerCheckpoint}. */
    static final String KEY = "kubelet_internal_checkpoint";
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    /**
     * One container's devices of one resource (upstream {@code PodDevicesEntry}).
     *
     * @param deviceIds device IDs by NUMA node (-1: none), as Go's {@code DevicesPerNUMA}; {@code null} is Go's nil
     * @param allocResp the plugin's {@code ContainerAllocateResponse} in protobuf's wire format; {@code null} is nil
     */
    record Entry(String podUid, String containerName, String resourceName, Map<Long, List<String>> deviceIds,
                 byte[] allocResp) {}

    /** The JSON upstream writes, with the checksum of this data. */
    byte[] marshal() {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode data = root.putObject("Data");
        if (podDeviceEntries == null) {
            data.putNull("PodDeviceEntries");
        } else {
            ArrayNode entries = data.putArray("PodDeviceEntries");
            for (Entry e : podDeviceEntries) {
                ObjectNode o = entries.addObject();
                o.put("PodUID", e.podUid());
                o.put("ContainerName", e.containerName());
                o.put("ResourceName", e.resourceName());
                if (e.deviceIds() == null) {
                    o.putNull("DeviceIDs");
                } else {
                    // Go writes map keys sorted as strings ("-1" before "0").
                    ObjectNode ids = o.putObject("DeviceIDs");
                    new TreeMap<String, List<String>>(stringKeys(e.deviceIds())).forEach((k, v) -> putStrings(ids, k, v));
                }
                if (e.allocResp() == null) {
                    o.putNull("AllocResp");
                } else {
                    o.put("AllocResp", Base64.getEncoder().encodeToString(e.allocResp()));
                }
            }
        }
        if (registeredDevices == null) {
            data.putNull("RegisteredDevices");
        } else {
            ObjectNode reg = data.putObject("RegisteredDevices");
            new TreeMap<>(registeredDevices).forEach((k, v) -> putStrings(reg, k, v));
        }
        root.put("Checksum", Checksum.of(spew()));
        return JSON.writeValueAsBytes(root);
    }

    /**
     * Reads upstream's JSON and checks its checksum (upstream {@code UnmarshalCheckpoint} and {@code VerifyChecksum}).
     *
     * @throws CheckpointException.Corrupt when it does not parse or its data does not match its checksum
     */
    static DeviceCheckpoint unmarshal(byte[] json) throws CheckpointException.Corrupt {
        DeviceCheckpoint cp;
        long checksum;
        try {
            JsonNode root = JSON.readTree(json);
            JsonNode data = root.path("Data");
            cp = new DeviceCheckpoint(entries(data.path("PodDeviceEntries")), registered(data.path("RegisteredDevices")));
            checksum = root.path("Checksum").asLong();
        } catch (JacksonException | IllegalArgumentException e) {
            throw new CheckpointException.Corrupt(e);
        }
        Checksum.verify(checksum, cp.spew());
        return cp;
    }

    /** go-spew's {@code %#v} of upstream's {@code checkpoint.checkpointData}. */
    String spew() {
        List<String> entries = podDeviceEntries == null ? null : new ArrayList<>();
        if (entries != null) {
            for (Entry e : podDeviceEntries) {
                Map<String, String> ids = null;
                if (e.deviceIds() != null) {
                    ids = new LinkedHashMap<>();
                    for (var id : new TreeMap<>(e.deviceIds()).entrySet()) {
                        ids.put(Long.toString(id.getKey()), GoSpew.strings(id.getValue()));
                    }
                }
                entries.add(GoSpew.struct(
                        GoSpew.field("PodUID", "string", e.podUid()),
                        GoSpew.field("ContainerName", "string", e.containerName()),
                        GoSpew.field("ResourceName", "string", e.resourceName()),
                        GoSpew.field("DeviceIDs", "checkpoint.DevicesPerNUMA", GoSpew.map(ids)),
                        GoSpew.field("AllocResp", "[]uint8", GoSpew.bytes(e.allocResp()))));
            }
        }
        Map<String, String> registered = null;
        if (registeredDevices != null) {
            registered = new LinkedHashMap<>();
            for (var r : new TreeMap<>(registeredDevices).entrySet()) {
                registered.put(r.getKey(), GoSpew.strings(r.getValue()));
            }
        }
        return GoSpew.typed("checkpoint.checkpointData", GoSpew.struct(
                GoSpew.field("PodDeviceEntries", "[]checkpoint.PodDevicesEntry", GoSpew.slice(entries)),
                GoSpew.field("RegisteredDevices", "map[string][]string", GoSpew.map(registered))));
    }

    private static Map<String, List<String>> stringKeys(Map<Long, List<String>> byNode) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        byNode.forEach((k, v) -> out.put(Long.toString(k), v));
        return out;
    }

    private static void putStrings(ObjectNode o, String key, List<String> values) {
        if (values == null) {
            o.putNull(key);
        } else {
            ArrayNode a = o.putArray(key);
            values.forEach(a::add);
        }
    }

    private static List<Entry> entries(JsonNode node) {
        if (node.isMissingNode() || node.isNull()) {
            return null;
        }
        List<Entry> out = new ArrayList<>();
        for (JsonNode e : node.values()) {
            Map<Long, List<String>> ids = null;
            JsonNode idsNode = e.path("DeviceIDs");
            if (!idsNode.isMissingNode() && !idsNode.isNull()) {
                ids = new LinkedHashMap<>();
                for (var p : idsNode.properties()) {
                    ids.put(Long.parseLong(p.getKey()), strings(p.getValue()));
                }
            }
            JsonNode resp = e.path("AllocResp");
            out.add(new Entry(e.path("PodUID").asString(""), e.path("ContainerName").asString(""),
                    e.path("ResourceName").asString(""), ids,
                    resp.isMissingNode() || resp.isNull() ? null : Base64.getDecoder().decode(resp.asString())));
        }
        return out;
    }

    private static Map<String, List<String>> registered(JsonNode node) {
        if (node.isMissingNode() || node.isNull()) {
            return null;
        }
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (var p : node.properties()) {
            out.put(p.getKey(), strings(p.getValue()));
        }
        return out;
    }

    private static List<String> strings(JsonNode node) {
        if (node.isNull()) {
            return null;
        }
        List<String> out = new ArrayList<>();
        node.values().forEach(v -> out.add(v.asString()));
        return out;
    }
}
