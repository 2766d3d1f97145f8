package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A node under memory pressure for real, made safely: its hard {@code memory.available} threshold is the machine's
 * whole memory, so what is free is always below it and no memory is used to get there. The node reports
 * MemoryPressure, refuses BestEffort pods and evicts the others it runs, but never a critical pod. (The threshold is
 * taken off the node's allocatable memory, which is then zero: the pods here request none.)
 */
class NodeMemoryPressureIT extends RealClusterBase {

    static String[] agentArgs() throws Exception {
        return new String[] {"--eviction-hard", "memory.available<" + memTotalKi() + "Ki"};
    }

    /** The machine's memory in KiB ({@code MemTotal}): more than is ever available. */
    static long memTotalKi() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
            if (line.startsWith("MemTotal:")) {
                return Long.parseLong(line.replaceAll("\\D+", ""));
            }
        }
        throw new IllegalStateException("no MemTotal in /proc/meminfo");
    }

    @Test
    void theNodeReportsMemoryPressureWithUpstreamsReasonAndAnEvent() {
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            NodeCondition c = nodeCondition("MemoryPressure");
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getReason()).isEqualTo("KubeletHasInsufficientMemory");
            assertThat(c.getMessage()).isEqualTo("kubelet has insufficient memory available");
        });
        assertThat(nodeCondition("DiskPressure").getStatus()).isEqualTo("False");
        assertThat(nodeCondition("PIDPressure").getStatus()).isEqualTo("False");
        assertThat(nodeCondition("Ready").getStatus()).isEqualTo("True");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(events("default", agent.nodeName))
                .extracting(e -> e.getReason()).contains("NodeHasInsufficientMemory"));
    }

    @Test
    void aBestEffortPodIsRefusedAndNeverRuns() {
        awaitMemoryPressure();
        createSleeper("mem-best-effort", "{}");

        awaitPhase("mem-best-effort", "Failed");
        assertThat(pod("mem-best-effort").getStatus().getReason()).isEqualTo("Evicted");
        assertThat(pod("mem-best-effort").getStatus().getMessage())
                .isEqualTo("Pod was rejected: The node had condition: [MemoryPressure]. ");
        assertThat(Docker.ids(agent.nodeName, "label=io.kubernetes.pod.name=mem-best-effort")).isEmpty();
    }

    @Test
    void aBurstablePodIsAdmittedThenEvictedWithUpstreamsMessageWhileACriticalPodStays() {
        awaitMemoryPressure();
        createCriticalPod("mem-critical");
        // Burstable by its CPU request: with the threshold at the whole memory, allocatable memory is zero.
        createSleeper("mem-burstable", "{requests: {cpu: 10m}}");

        awaitPhase("mem-burstable", "Failed");
        Pod evicted = pod("mem-burstable");
        assertThat(evicted.getStatus().getReason()).isEqualTo("Evicted");
        assertThat(evicted.getStatus().getMessage()).startsWith("The node was low on resource: memory. Threshold quantity: "
                + memTotalKiQuietly() + "Ki, available: ");
        assertThat(evicted.getStatus().getConditions()).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("DisruptionTarget");
            assertThat(c.getReason()).isEqualTo("TerminationByKubelet");
        });
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(events("default", "mem-burstable")).anySatisfy(e -> {
                assertThat(e.getReason()).isEqualTo("Evicted");
                assertThat(e.getType()).isEqualTo("Warning");
                assertThat(e.getMessage()).isEqualTo(evicted.getStatus().getMessage());
            });
            assertThat(events("default", agent.nodeName)).anySatisfy(e -> {
                assertThat(e.getReason()).isEqualTo("EvictionThresholdMet");
                assertThat(e.getMessage()).isEqualTo("Attempting to reclaim memory");
            });
        });
        await().atMost(Duration.ofSeconds(30)).until(() ->
                Docker.running(agent.nodeName, "label=io.kubernetes.pod.name=mem-burstable").isEmpty());

        // The critical pod was admitted under pressure and is never chosen.
        awaitCriticalPodNeverEvicted("mem-critical");
        client.pods().inNamespace("kube-system").withName("mem-critical").withGracePeriod(0).delete();
    }

    private static void awaitMemoryPressure() {
        await().atMost(Duration.ofSeconds(60)).until(() -> "True".equals(nodeCondition("MemoryPressure").getStatus()));
    }

    private static long memTotalKiQuietly() {
        try {
            return memTotalKi();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
