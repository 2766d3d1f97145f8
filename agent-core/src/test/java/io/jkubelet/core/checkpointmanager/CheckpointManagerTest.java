package io.jkubelet.core.checkpointmanager;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CheckpointManagerTest {
    @TempDir
    Path dir;

    @Test
    void aCheckpointIsWrittenWholeAndReadBackAndListedWithoutTemporaryFiles() throws Exception {
        CheckpointManager m = new CheckpointManager(dir.resolve("device-plugins"));
        m.create("kubelet_internal_checkpoint", "{\"a\":1}".getBytes(StandardCharsets.UTF_8));
        m.create("kubelet_internal_checkpoint", "{\"a\":2}".getBytes(StandardCharsets.UTF_8));
        Files.writeString(dir.resolve("device-plugins/.kubelet_internal_checkpoint123"), "partial");

        assertThat(new String(m.read("kubelet_internal_checkpoint"), StandardCharsets.UTF_8)).isEqualTo("{\"a\":2}");
        assertThat(m.list()).containsExactly("kubelet_internal_checkpoint");
        m.remove("kubelet_internal_checkpoint");
        assertThat(m.list()).isEmpty();
    }

    @Test
    void aMissingCheckpointIsNotFoundInUpstreamsWords() {
        CheckpointManager m = new CheckpointManager(dir);
        assertThatThrownBy(() -> m.read("kubelet_internal_checkpoint"))
                .isInstanceOf(CheckpointException.NotFound.class).hasMessage("checkpoint is not found");
    }

    @Test
    void theChecksumIsFnv32aOfTheSpewedData() {
        // Go: fnv.New32a() over "(checkpoint.checkpointData){PodDeviceEntries:([]checkpoint.PodDevicesEntry)[] ...}"
        assertThat(Checksum.of("(checkpoint.checkpointData){PodDeviceEntries:([]checkpoint.PodDevicesEntry)[] "
                + "RegisteredDevices:(map[string][]string)map[]}")).isEqualTo(2932075448L);
        assertThatThrownBy(() -> Checksum.verify(1, "x")).isInstanceOf(CheckpointException.Corrupt.class)
                .hasMessage("checkpoint is corrupted");
    }
}
