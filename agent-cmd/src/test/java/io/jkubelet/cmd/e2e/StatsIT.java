package io.jkubelet.cmd.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code /stats/summary}, {@code /metrics/resource} and {@code /metrics} on the read-only port, with a pod whose
 * containers really use CPU and memory on the real Docker engine.
 */
class StatsIT extends AgentTestBase {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long MIB = 1024 * 1024;

    @Test
    void summaryAndResourceMetricsShowWhatContainersUse() throws Exception {
        startAgent();
        // burner spins one core; hog fills 60 MiB of /dev/shm (tmpfs: charged to its memory cgroup) and then idles.
        agent.writeManifest("stats.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: stats}
                spec:
                  terminationGracePeriodSeconds: 1
                  containers:
                  - name: burner
                    image: %1$s
                    command: ["sh", "-c", "while :; do :; done"]
                  - name: hog
                    image: %1$s
                    command: ["sh", "-c", "dd if=/dev/zero of=/dev/shm/fill bs=1M count=60 && sleep 3600"]
                """.formatted(IMAGE));
        String podName = "stats-" + agent.nodeName;
        awaitPod("stats", Duration.ofSeconds(60), AgentTestBase::running);

        // Rates need two collection rounds (10 s apart), so wait for them rather than for a fixed time.
        JsonNode pod = await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).until(() -> summaryPod(podName),
                p -> p.isPresent() && cpuRate(p.get(), "burner") > 100_000_000L && cpuRate(p.get(), "hog") >= 0
                        && workingSet(p.get(), "hog") > 50 * MIB).orElseThrow();
        assertThat(cpuRate(pod, "burner")).isGreaterThan(5 * cpuRate(pod, "hog"));
        assertThat(pod.at("/podRef/namespace").asText()).isEqualTo("default");
        assertThat(pod.at("/podRef/uid").asText()).isNotEmpty();
        assertThat(pod.at("/startTime").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
        assertThat(container(pod, "hog").at("/memory/usageBytes").asLong()).isGreaterThan(50 * MIB);
        assertThat(pod.at("/memory/workingSetBytes").asLong()).isGreaterThan(50 * MIB);
        assertThat(pod.at("/cpu/usageCoreNanoSeconds").asLong()).isGreaterThan(0);
        assertThat(pod.at("/network/name").asText()).isEqualTo("eth0");
        assertThat(pod.has("ephemeral-storage")).isTrue();
        assertThat(pod.at("/process_stats/process_count").asLong()).isGreaterThanOrEqualTo(3);
        assertThat(container(pod, "burner").at("/logs/usedBytes").isNumber()).isTrue();

        JsonNode summary = JSON.readTree(agent.get(agent.readOnlyPort, "/stats/summary").orElseThrow());
        assertThat(summary.at("/node/nodeName").asText()).isEqualTo(agent.nodeName);
        assertThat(summary.at("/node/cpu/usageCoreNanoSeconds").asLong()).isGreaterThan(0);
        assertThat(summary.at("/node/memory/workingSetBytes").asLong()).isGreaterThan(50 * MIB);
        assertThat(summary.at("/node/fs/capacityBytes").asLong()).isGreaterThan(0);
        assertThat(summary.at("/node/runtime/imageFs/capacityBytes").asLong()).isGreaterThan(0);
        assertThat(summary.at("/node/rlimit/maxpid").asLong()).isGreaterThan(0);
        // The agent's own cgroup, found from its process, as upstream's "kubelet" system container, and dockerd's, the
        // process the Docker adapter names as its runtime's (its pid file, else by name), as upstream's "runtime".
        assertThat(summary.at("/node/systemContainers").findValuesAsText("name")).contains("kubelet", "runtime");

        // only_cpu_and_memory keeps cpu and memory only.
        JsonNode small = JSON.readTree(agent.get(agent.readOnlyPort, "/stats/summary?only_cpu_and_memory=true").orElseThrow());
        JsonNode smallPod = pods(small).filter(p -> p.at("/podRef/name").asText().equals(podName)).findFirst().orElseThrow();
        assertThat(smallPod.has("network")).isFalse();
        assertThat(smallPod.has("ephemeral-storage")).isFalse();
        assertThat(container(smallPod, "hog").has("logs")).isFalse();
        assertThat(container(smallPod, "hog").at("/memory/workingSetBytes").asLong()).isGreaterThan(50 * MIB);
        assertThat(small.at("/node").has("fs")).isFalse();

        String resource = agent.get(agent.readOnlyPort, "/metrics/resource").orElseThrow();
        String labels = "{container=\"%s\",namespace=\"default\",pod=\"" + podName + "\"}";
        assertThat(resource).contains("container_cpu_usage_seconds_total" + labels.formatted("burner") + " ")
                .contains("container_memory_working_set_bytes" + labels.formatted("hog") + " ")
                .contains("container_start_time_seconds" + labels.formatted("hog") + " ")
                .contains("pod_cpu_usage_seconds_total{namespace=\"default\",pod=\"" + podName + "\"} ")
                .containsPattern("(?m)^node_cpu_usage_seconds_total \\S+ \\d{13}$")
                .containsPattern("(?m)^resource_scrape_error 0$");

        String cadvisor = agent.get(agent.readOnlyPort, "/metrics/cadvisor").orElseThrow();
        // A container's cgroup is inside its pod's (a BestEffort pod here), below the agent's cgroup root.
        assertThat(cadvisor).containsPattern("container_memory_working_set_bytes\\{container=\"hog\",id=\""
                + agent.cgroupRoot + "/kubepods/besteffort/pod[^/\"]+/[0-9a-f]{64}\","
                + "image=\"jkubelet/busybox:1.0\",name=\"k8s_hog_" + podName + "_default_[^\"]+\",namespace=\"default\",pod=\""
                + podName + "\"} \\S+ \\d{13}");

        String metrics = agent.get(agent.readOnlyPort, "/metrics").orElseThrow();
        assertThat(metrics).containsPattern("(?m)^kubelet_running_pods 1(\\.0)?$")
                .containsPattern("(?m)^kubelet_running_containers\\{container_state=\"running\"} 2(\\.0)?$")
                .contains("kubelet_node_name{node=\"" + agent.nodeName + "\"} 1")
                .containsPattern("kubelet_runtime_operations_total\\{operation_type=\"list_podsandbox_stats\"} [1-9]")
                .contains("kubelet_pod_worker_duration_seconds_bucket{operation_type=\"create\",le=\"0.005\"}")
                .contains("kubelet_pleg_relist_duration_seconds_count")
                .contains("kubelet_pod_start_duration_seconds_count 1")
                .contains("process_start_time_seconds");
    }

    private Optional<JsonNode> summaryPod(String podName) throws Exception {
        Optional<String> body = agent.get(agent.readOnlyPort, "/stats/summary");
        if (body.isEmpty() || !body.get().startsWith("{")) {
            return Optional.empty();
        }
        return pods(JSON.readTree(body.get())).filter(p -> p.at("/podRef/name").asText().equals(podName)).findFirst();
    }

    private static java.util.stream.Stream<JsonNode> pods(JsonNode summary) {
        return StreamSupport.stream(summary.path("pods").spliterator(), false);
    }

    private static JsonNode container(JsonNode pod, String name) {
        return StreamSupport.stream(pod.path("containers").spliterator(), false)
                .filter(c -> c.path("name").asText().equals(name)).findFirst().orElseThrow();
    }

    /** {@code usageNanoCores}, or -1 while it is not known yet (first round). */
    private static long cpuRate(JsonNode pod, String name) {
        return StreamSupport.stream(pod.path("containers").spliterator(), false)
                .filter(c -> c.path("name").asText().equals(name)).findFirst()
                .map(c -> c.at("/cpu/usageNanoCores")).filter(JsonNode::isNumber).map(JsonNode::asLong).orElse(-1L);
    }

    private static long workingSet(JsonNode pod, String name) {
        return StreamSupport.stream(pod.path("containers").spliterator(), false)
                .filter(c -> c.path("name").asText().equals(name)).findFirst()
                .map(c -> c.at("/memory/workingSetBytes").asLong()).orElse(-1L);
    }
}
