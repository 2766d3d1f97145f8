package io.jkubelet.core.cm.cpumanager;

import io.jkubelet.core.apis.config.CpuSet;
import io.jkubelet.core.checkpointmanager.CheckpointManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code cpu_manager_state} as upstream writes and reads it: each expected file below was printed by upstream's
 * {@code CPUManagerCheckpoint} type (the v1.20.2 tree's, which v1.30 keeps; go-spew 1.1.1, Go 1.19) for the same data.
 */
class CpuManagerCheckpointTest {
    static final String NONE = "{\"policyName\":\"none\",\"defaultCpuSet\":\"\",\"checksum\":1353318690}";
    static final String STATIC_FRESH = "{\"policyName\":\"static\",\"defaultCpuSet\":\"0-1\",\"checksum\":1636926438}";
    static final String STATIC_TWO_PODS = "{\"policyName\":\"static\",\"defaultCpuSet\":\"0,3-5\",\"entries\":{\"uid-a\":"
            + "{\"c\":\"6-7\"},\"uid-b\":{\"app\":\"1-2\",\"init\":\"1\"}},\"checksum\":4202538517}";

    @TempDir
    Path dir;

    private Path file() {
        return dir.resolve(CpuManagerCheckpoint.KEY);
    }

    @Test
    void writesUpstreamsJsonAndChecksum() throws Exception {
        CpuManagerState state = new CpuManagerState();
        state.setDefaultCpuSet(CpuSet.parse("0-1"));
        new CpuManagerCheckpoint(new CheckpointManager(dir), "static").store(state);
        assertThat(Files.readString(file())).isEqualTo(STATIC_FRESH);

        state.setDefaultCpuSet(CpuSet.parse("0,3-5"));
        state.setCpuSet("uid-b", "init", CpuSet.parse("1"));
        state.setCpuSet("uid-b", "app", CpuSet.parse("1-2"));
        state.setCpuSet("uid-a", "c", CpuSet.parse("6-7"));
        new CpuManagerCheckpoint(new CheckpointManager(dir), "static").store(state);
        assertThat(Files.readString(file())).isEqualTo(STATIC_TWO_PODS);

        new CpuManagerCheckpoint(new CheckpointManager(dir), "none").store(new CpuManagerState());
        assertThat(Files.readString(file())).isEqualTo(NONE);
    }

    @Test
    void readsUpstreamsFile() throws Exception {
        Files.writeString(file(), STATIC_TWO_PODS);
        CpuManagerState state = new CpuManagerCheckpoint(new CheckpointManager(dir), "static").restore();
        assertThat(state.defaultCpuSet()).hasToString("0,3-5");
        assertThat(state.cpuSet("uid-b", "app")).hasToString("1-2");
        assertThat(state.cpuSet("uid-a", "c")).hasToString("6-7");
    }

    @Test
    void aMissingFileIsWrittenFromTheEmptyState() throws Exception {
        CpuManagerState state = new CpuManagerCheckpoint(new CheckpointManager(dir), "static").restore();
        assertThat(state.defaultCpuSet().isEmpty()).isTrue();
        assertThat(Files.readString(file())).isEqualTo("{\"policyName\":\"static\",\"defaultCpuSet\":\"\",\"checksum\":"
                + Files.readString(file()).replaceAll(".*\"checksum\":(\\d+)}", "$1") + "}");
    }

    @Test
    void aFileOfAnotherPolicyRefusesTheStartWithUpstreamsMessage() throws Exception {
        Files.writeString(file(), NONE);
        assertThatThrownBy(() -> new CpuManagerCheckpoint(new CheckpointManager(dir), "static").restore())
                .hasMessage("could not restore state from checkpoint: configured policy \"static\" differs from state "
                        + "checkpoint policy \"none\", please drain this node and delete the CPU manager checkpoint file \""
                        + file() + "\" before restarting Kubelet");
    }

    @Test
    void aFileEditedByHandIsCorrupted() throws Exception {
        Files.writeString(file(), STATIC_TWO_PODS.replace("\"c\":\"6-7\"", "\"c\":\"6\""));
        assertThatThrownBy(() -> new CpuManagerCheckpoint(new CheckpointManager(dir), "static").restore())
                .hasMessageStartingWith("could not restore state from checkpoint: checkpoint is corrupted, please drain");
    }
}
