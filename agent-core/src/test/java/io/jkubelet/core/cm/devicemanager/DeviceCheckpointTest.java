package io.jkubelet.core.cm.devicemanager;

import io.jkubelet.core.checkpointmanager.CheckpointException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The checkpoint's JSON and checksum against what upstream's own code writes: each expected JSON below was printed by
 * upstream's {@code devicemanager/checkpoint} types (go-spew 1.1.1, Go 1.19, from the v1.20.2 tree, whose checkpoint
 * format v1.30 keeps) for the same data.
 */
class DeviceCheckpointTest {
    private static final String NO_ENTRIES = "{\"Data\":{\"PodDeviceEntries\":null,\"RegisteredDevices\":{\"a.b/c\":[],"
            + "\"example.com/resource\":[\"Dev-1\",\"Dev-2\"]}},\"Checksum\":1210043745}";
    private static final String TWO_ENTRIES = "{\"Data\":{\"PodDeviceEntries\":[{\"PodUID\":\"uid-1\",\"ContainerName\":\"c1\","
            + "\"ResourceName\":\"example.com/resource\",\"DeviceIDs\":{\"-1\":[\"Dev-1\"],\"0\":[\"Dev-2\",\"Dev-3\"]},"
            + "\"AllocResp\":\"EgQKAmFi\"},{\"PodUID\":\"uid-2\",\"ContainerName\":\"c \\\"q\\\"\",\"ResourceName\":"
            + "\"example.com/resource\",\"DeviceIDs\":{},\"AllocResp\":null}],\"RegisteredDevices\":{\"example.com/resource\":"
            + "[\"Dev-1\"],\"z/y\":null}},\"Checksum\":2834993187}";

    @Test
    void writesUpstreamsJsonAndChecksum() {
        Map<String, List<String>> registered = new LinkedHashMap<>();
        registered.put("example.com/resource", List.of("Dev-1", "Dev-2"));
        registered.put("a.b/c", List.of());
        assertThat(json(new DeviceCheckpoint(null, registered))).isEqualTo(NO_ENTRIES);

        assertThat(json(twoEntries())).isEqualTo(TWO_ENTRIES);
    }

    @Test
    void readsUpstreamsCheckpointAndKeepsGosNilApartFromEmpty() throws Exception {
        DeviceCheckpoint cp = DeviceCheckpoint.unmarshal(TWO_ENTRIES.getBytes(StandardCharsets.UTF_8));
        assertThat(cp.podDeviceEntries()).hasSize(2);
        assertThat(cp.podDeviceEntries().getFirst().deviceIds()).containsEntry(-1L, List.of("Dev-1"))
                .containsEntry(0L, List.of("Dev-2", "Dev-3"));
        assertThat(cp.podDeviceEntries().getFirst().allocResp()).containsExactly(18, 4, 10, 2, 'a', 'b');
        assertThat(cp.podDeviceEntries().get(1).allocResp()).isNull();
        assertThat(cp.registeredDevices()).containsEntry("z/y", null);
        // Written again, it is byte for byte what was read.
        assertThat(json(cp)).isEqualTo(TWO_ENTRIES);

        DeviceCheckpoint empty = DeviceCheckpoint.unmarshal(
                "{\"Data\":{\"PodDeviceEntries\":[],\"RegisteredDevices\":{}},\"Checksum\":2932075448}".getBytes());
        assertThat(empty.podDeviceEntries()).isEmpty();
        assertThat(empty.registeredDevices()).isEmpty();
    }

    @Test
    void aCheckpointEditedByHandIsCorrupt() {
        String edited = TWO_ENTRIES.replace("\"Dev-3\"", "\"Dev-4\"");
        assertThatThrownBy(() -> DeviceCheckpoint.unmarshal(edited.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(CheckpointException.Corrupt.class).hasMessage("checkpoint is corrupted");
        assertThatThrownBy(() -> DeviceCheckpoint.unmarshal("{\"Data\":".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(CheckpointException.Corrupt.class);
    }

    private static DeviceCheckpoint twoEntries() {
        Map<Long, List<String>> ids = new TreeMap<>(Map.of(-1L, List.of("Dev-1"), 0L, List.of("Dev-2", "Dev-3")));
        List<DeviceCheckpoint.Entry> entries = new ArrayList<>();
        entries.add(new DeviceCheckpoint.Entry("uid-1", "c1", "example.com/resource", ids,
                new byte[] {18, 4, 10, 2, 'a', 'b'}));
        entries.add(new DeviceCheckpoint.Entry("uid-2", "c \"q\"", "example.com/resource", Map.of(), null));
        Map<String, List<String>> registered = new LinkedHashMap<>();
        registered.put("example.com/resource", List.of("Dev-1"));
        registered.put("z/y", null);
        return new DeviceCheckpoint(entries, registered);
    }

    private static String json(DeviceCheckpoint cp) {
        return new String(cp.marshal(), StandardCharsets.UTF_8);
    }

    @Test
    void allocateAnswersAreKeptInProtobufsWireFormatAsGogoWritesThem() {
        // Printed by the v1.20.2 tree's gogo-generated ContainerAllocateResponse.Marshal for the same message.
        byte[] gogo = java.util.Base64.getDecoder().decode("CgoKA0ZPTxIDYmFyEhgKCi90bXAvRGV2LTESCi90bXAvRGV2LTESEQoDL3Jv"
                + "EggvaG9zdC9ybxgBGhcKBi9kZXYveBIJL2Rldi9udWxsGgJydyIKCgVhLmIvYxIBZA==");
        ContainerAllocateResponse r = new ContainerAllocateResponse(Map.of("FOO", "bar"),
                List.of(new ContainerAllocateResponse.Mount("/tmp/Dev-1", "/tmp/Dev-1", false),
                        new ContainerAllocateResponse.Mount("/ro", "/host/ro", true)),
                List.of(new ContainerAllocateResponse.DeviceSpec("/dev/x", "/dev/null", "rw")),
                Map.of("a.b/c", "d"), List.of());
        assertThat(AllocateResponseCodec.encode(r)).isEqualTo(gogo);
        assertThat(AllocateResponseCodec.decode(gogo)).isEqualTo(r);
        assertThat(AllocateResponseCodec.encode(ContainerAllocateResponse.EMPTY)).isEmpty();

        ContainerAllocateResponse withCdi = new ContainerAllocateResponse(Map.of("", ""), List.of(), List.of(),
                Map.of(), List.of("vendor.com/gpu=0"));
        assertThat(AllocateResponseCodec.decode(AllocateResponseCodec.encode(withCdi))).isEqualTo(withCdi);
        byte[] truncated = Arrays.copyOf(gogo, gogo.length - 3);
        assertThatThrownBy(() -> AllocateResponseCodec.decode(truncated)).isInstanceOf(IllegalArgumentException.class);
    }
}
