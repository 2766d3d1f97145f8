package io.jkubelet.cmd.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The memory manager's {@code Static} policy through the built jar, as an operator sees it in
 * {@code <root-dir>/memory_manager_state}: a Guaranteed pod's container is given its memory on NUMA node 0 (this
 * machine has one), which the node's machine state counts as reserved; the assignment survives an agent restart and is
 * released at the next admission after the pod went (upstream's {@code removeStaleState}, not when its container
 * stops); a BestEffort pod gets none. With the {@code MemoryManager} gate off no memory manager
 * runs: no state file, and the policy that was set is named in one warning. The upstream kubelet v1.20.2 has no memory
 * manager (alpha in v1.21), so this story has no side-by-side run.
 */
class MemoryManagerIT extends AgentTestBase {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The eviction threshold the test agents have (memory.available<100Mi) is what reservedMemory must add up to. */
    static final List<String> STATIC = List.of("--memory-manager-policy", "Static", "--reserved-memory", "0:memory=100Mi");
    static final long POD_MEMORY = 64L << 20;

    private JsonNode state(Path root) throws Exception {
        return JSON.readTree(Files.readString(root.resolve("memory_manager_state")));
    }

    @Test
    void aGuaranteedPodsMemoryIsAssignedOnNumaNode0UntilItGoesAndNothingRunsWithTheGateOff() throws Exception {
        startAgent(STATIC.toArray(String[]::new));
        Path root = dir.resolve("root");
        agent.writeManifest("guaranteed.yaml", CgroupsIT.QOS_PODS.formatted(IMAGE, "guaranteed", "{limits: {cpu: 100m, memory: 64Mi}}"));
        agent.writeManifest("besteffort.yaml", CgroupsIT.QOS_PODS.formatted(IMAGE, "besteffort", "{}"));
        String uid = awaitPod("guaranteed", Duration.ofSeconds(60), AgentTestBase::running).getMetadata().getUid();
        String bestEffortUid = awaitPod("besteffort", Duration.ofSeconds(60), AgentTestBase::running).getMetadata().getUid();

        JsonNode state = state(root);
        assertThat(state.path("policyName").asText()).isEqualTo("Static");
        JsonNode blocks = state.path("entries").path(uid).path("app");
        assertThat(blocks).as(state.toString()).hasSize(1);
        assertThat(blocks.get(0).path("numaAffinity").toString()).isEqualTo("[0]");
        assertThat(blocks.get(0).path("type").asText()).isEqualTo("memory");
        assertThat(blocks.get(0).path("size").asLong()).isEqualTo(POD_MEMORY);
        assertThat(state.path("entries").has(bestEffortUid)).as("a BestEffort pod gets no memory").isFalse();
        JsonNode memory = state.path("machineState").path("0").path("memoryMap").path("memory");
        assertThat(memory.path("systemReserved").asLong()).isEqualTo(100L << 20);
        assertThat(memory.path("reserved").asLong()).isEqualTo(POD_MEMORY);
        assertThat(memory.path("free").asLong()).isEqualTo(memory.path("allocatable").asLong() - POD_MEMORY);

        // A restart reads the state back: the assignment stays.
        String before = Files.readString(root.resolve("memory_manager_state"));
        agent.stop();
        agent.start();
        awaitPod("guaranteed", Duration.ofSeconds(60), AgentTestBase::running);
        assertThat(state(root).path("entries").path(uid).path("app").get(0).path("size").asLong()).isEqualTo(POD_MEMORY);
        assertThat(Files.readString(root.resolve("memory_manager_state"))).isEqualTo(before);

        // The pod goes. As upstream's, the memory manager gives its memory back at the next admission (its
        // removeStaleState), not when the container stops: the next pod's admission shows only the next pod's.
        agent.removeManifest("guaranteed.yaml");
        await().atMost(Duration.ofSeconds(60)).until(() -> agent.pod("guaranteed").isEmpty());
        agent.writeManifest("next.yaml", CgroupsIT.QOS_PODS.formatted(IMAGE, "next", "{limits: {cpu: 100m, memory: 64Mi}}"));
        String next = awaitPod("next", Duration.ofSeconds(60), AgentTestBase::running).getMetadata().getUid();
        JsonNode after = state(root);
        assertThat(after.path("entries").has(uid)).as(after.toString()).isFalse();
        assertThat(after.path("entries").path(next).path("app").get(0).path("size").asLong()).isEqualTo(POD_MEMORY);
        assertThat(after.path("machineState").path("0").path("memoryMap").path("memory").path("reserved").asLong())
                .isEqualTo(POD_MEMORY);

        // The gate off: the same settings make no memory manager, and say so.
        agent.stop();
        Docker.removeAll(agent.nodeName);
        agent.removeCgroups();
        Path off = Files.createDirectories(dir.resolve("gate-off"));
        List<String> args = new ArrayList<>(STATIC);
        args.addAll(List.of("--feature-gates", "MemoryManager=false"));
        agent = new Agent(off, "e2e-" + UUID.randomUUID().toString().substring(0, 8), args).start();
        agent.writeManifest("guaranteed.yaml", CgroupsIT.QOS_PODS.formatted(IMAGE, "guaranteed", "{limits: {cpu: 100m, memory: 64Mi}}"));
        awaitPod("guaranteed", Duration.ofSeconds(60), AgentTestBase::running);
        assertThat(off.resolve("root/memory_manager_state")).doesNotExist();
        assertThat(agent.logText()).contains("memoryManagerPolicy (--memory-manager-policy) \"Static\" and reservedMemory "
                + "(--reserved-memory) [").contains("not used; the MemoryManager feature gate is off");
    }
}
