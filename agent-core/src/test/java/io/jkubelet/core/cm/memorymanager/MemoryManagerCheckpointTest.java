package io.jkubelet.core.cm.memorymanager;

import io.jkubelet.core.checkpointmanager.CheckpointManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The {@code memory_manager_state} file as upstream writes and reads it. */
class MemoryManagerCheckpointTest {
    /** A file of upstream's state_checkpoint_test.go, with the checksum upstream's kubelet computed for it. */
    static final String UPSTREAM_FILE = "{\"policyName\":\"static\",\"machineState\":{\"0\":{\"numberOfAssignments\":0,"
            + "\"memoryMap\":{\"memory\":{\"total\":2048,\"systemReserved\":512,\"allocatable\":1536,\"reserved\":512,"
            + "\"free\":1024}},\"cells\":[]}},\"entries\":{\"pod\":{\"container1\":[{\"numaAffinity\":[0],\"type\":\"memory\","
            + "\"size\":512}]}},\"checksum\":4215593881}";

    @TempDir
    Path root;

    @Test
    void readsAFileUpstreamWroteAndWritesItBackByteForByte() throws Exception {
        Files.writeString(root.resolve("memory_manager_state"), UPSTREAM_FILE);
        MemoryManagerCheckpoint checkpoint = new MemoryManagerCheckpoint(new CheckpointManager(root), "static");
        MemoryManagerState state = checkpoint.restore();
        assertThat(state.memoryBlocks("pod", "container1")).containsExactly(new MemoryBlock(List.of(0), "memory", 512));
        assertThat(state.machineState().get(0).memoryMap().get("memory")).isEqualTo(new MemoryTable(2048, 512, 1536, 512, 1024));

        checkpoint.store(state);
        assertThat(Files.readString(root.resolve("memory_manager_state"))).isEqualTo(UPSTREAM_FILE);
    }

    @Test
    void refusesAFileOfAnotherPolicyAndOneEditedByHandWithUpstreamsMessage() throws Exception {
        Files.writeString(root.resolve("memory_manager_state"), UPSTREAM_FILE);
        assertThatThrownBy(() -> new MemoryManagerCheckpoint(new CheckpointManager(root), "Static").restore())
                .hasMessage("could not restore state from checkpoint: [memorymanager] configured policy \"Static\" differs "
                        + "from state checkpoint policy \"static\", please drain this node and delete the memory manager "
                        + "checkpoint file \"" + root.resolve("memory_manager_state") + "\" before restarting Kubelet");

        Files.writeString(root.resolve("memory_manager_state"), UPSTREAM_FILE.replace("\"size\":512", "\"size\":1024"));
        assertThatThrownBy(() -> new MemoryManagerCheckpoint(new CheckpointManager(root), "static").restore())
                .hasMessageStartingWith("could not restore state from checkpoint: checkpoint is corrupted");
    }

    @Test
    void aMissingFileIsWrittenEmptyAsUpstreamsNonePolicyHasIt() throws Exception {
        new MemoryManagerCheckpoint(new CheckpointManager(root), "None").restore();
        assertThat(Files.readString(root.resolve("memory_manager_state")))
                .matches("\\{\"policyName\":\"None\",\"machineState\":\\{},\"checksum\":\\d+}");
    }
}
