package io.jkubelet.cmd.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.NodeCondition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Which pod goes first under memory pressure, with real memory used in the pods' own cgroup only: the system
 * reservation leaves the node 1Gi allocatable, which enforcement makes the limit of this agent's {@code kubepods}
 * cgroup, and the hard {@code memory.available<600Mi} threshold is copied to {@code allocatableMemory.available} (what
 * that limit leaves the pods). Once the pods are running, a BestEffort pod takes 400Mi and a Burstable one 250Mi
 * (50Mi requested): less than 600Mi is left, and with a minimum reclaim of 300Mi the pressure only ends once 900Mi are
 * free again. The BestEffort pod goes first (more above its request), then the Burstable one; the Guaranteed pod,
 * within its request, stays. No other process's memory counts, so nothing else on the machine can tip it.
 */
class MemoryEvictionOrderIT extends RealClusterBase {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Waits for the test's go, then holds {@code SIZE} of memory: dd's buffer, blocked on a pipe nobody reads. */
    private static final String HOG = "while [ ! -f /go ]; do sleep 1; done; dd if=/dev/zero bs=%s count=1 | sleep 3600";

    static String[] agentArgs() throws Exception {
        long reserved = NodeMemoryPressureIT.memTotalKi() - 1024 * 1024;
        return new String[] {"--system-reserved", "memory=" + reserved + "Ki", "--eviction-hard", "memory.available<600Mi",
                "--eviction-minimum-reclaim", "memory.available=300Mi", "--eviction-pressure-transition-period", "15s"};
    }

    private static void createHog(String name, String size, String resources) {
        createBoundPod(name, "[\"sh\", \"-c\", " + quote(HOG.formatted(size)) + "]", resources);
    }

    /** The pods' cgroup as the stats summary shows it: the {@code pods} system container. */
    private static JsonNode podsSystemContainer() throws Exception {
        JsonNode summary = JSON.readTree(agent.get(agent.readOnlyPort, "/stats/summary").orElseThrow());
        return StreamSupport.stream(summary.at("/node/systemContainers").spliterator(), false)
                .filter(c -> c.path("name").asText().equals("pods")).findFirst().orElseThrow();
    }

    private static boolean hasStats(String pod) throws Exception {
        JsonNode summary = JSON.readTree(agent.get(agent.readOnlyPort, "/stats/summary").orElseThrow());
        return StreamSupport.stream(summary.at("/pods").spliterator(), false)
                .anyMatch(p -> p.at("/podRef/name").asText().equals(pod) && p.at("/memory/workingSetBytes").asLong() > 0);
    }

    @Test
    void theBestEffortPodGoesFirstThenTheBurstableOneOverItsRequestAndTheGuaranteedOneStays() throws Exception {
        createSleeper("order-guaranteed", "{requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: 100m, memory: 64Mi}}");
        createHog("order-burstable", "250M", "{requests: {memory: 50Mi}}");
        createHog("order-best-effort", "400M", "{}");
        List<String> pods = List.of("order-guaranteed", "order-burstable", "order-best-effort");
        pods.forEach(RealClusterBase::awaitRunning);
        // Every pod has stats before the pressure comes: a pod without any would be ranked first.
        await().atMost(Duration.ofSeconds(60)).until(() -> pods.stream().allMatch(p -> {
            try {
                return hasStats(p);
            } catch (Exception e) {
                return false;
            }
        }));
        JsonNode before = podsSystemContainer();
        assertThat(before.at("/memory/availableBytes").asLong()).as("1Gi less what the pods use")
                .isGreaterThan(900L << 20).isLessThanOrEqualTo(1L << 30);
        assertThat(nodeCondition("MemoryPressure").getStatus()).isEqualTo("False");

        exec("order-burstable", "touch /go");
        exec("order-best-effort", "touch /go");

        awaitPhase("order-best-effort", "Failed");
        assertThat(phase("order-burstable")).as("the Burstable pod is still there when the BestEffort one goes")
                .isEqualTo("Running");
        assertThat(pod("order-best-effort").getStatus().getMessage()).matches("The node was low on resource: memory\\. "
                + "Threshold quantity: 600Mi, available: \\S+\\. Container app was using \\S+, request is 0, has larger "
                + "consumption of memory\\. ");
        await().atMost(Duration.ofSeconds(20)).until(() -> "True".equals(nodeCondition("MemoryPressure").getStatus()));

        // More is free now, but not the 300Mi above the threshold the minimum reclaim asks: the Burstable pod goes next.
        awaitPhase("order-burstable", "Failed");
        assertThat(pod("order-burstable").getStatus().getReason()).isEqualTo("Evicted");
        assertThat(pod("order-burstable").getStatus().getMessage()).contains("Container app was using ")
                .contains(", request is 50Mi, has larger consumption of memory. ");
        assertThat(phase("order-guaranteed")).isEqualTo("Running");

        // Resolved: the Guaranteed pod keeps running, and the condition ends 15 s (the transition period) later.
        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
            NodeCondition c = nodeCondition("MemoryPressure");
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo("KubeletHasSufficientMemory");
        });
        assertThat(phase("order-guaranteed")).isEqualTo("Running");
        assertThat(agent.logText()).doesNotContain("Evicting pod order-guaranteed");
    }
}
