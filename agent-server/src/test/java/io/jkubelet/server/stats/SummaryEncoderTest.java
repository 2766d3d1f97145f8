package io.jkubelet.server.stats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jkubelet.core.stats.summary.CpuStats;
import io.jkubelet.core.stats.summary.NodeStats;
import io.jkubelet.core.stats.summary.Summary;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The stats/v1alpha1 JSON: upstream's field names, omitempty, inlining and go-restful's indentation. */
class SummaryEncoderTest {
    private final SummaryEncoder encoder = new SummaryEncoder();

    @Test
    void aMinimalSummaryIsIndentedAsGoRestfulWritesIt() {
        Summary s = new Summary(new NodeStats("n", List.of(), Instant.parse("2026-01-02T03:04:05.999Z"),
                new CpuStats(Instant.parse("2026-01-02T03:04:06Z"), null, 5L), null, null, null, null, null), List.of());

        assertThat(new String(encoder.encode(s), StandardCharsets.UTF_8)).isEqualTo("""
                {
                 "node": {
                  "nodeName": "n",
                  "startTime": "2026-01-02T03:04:05Z",
                  "cpu": {
                   "time": "2026-01-02T03:04:06Z",
                   "usageCoreNanoSeconds": 5
                  }
                 },
                 "pods": []
                }""");
    }

    @Test
    void everyFieldHasUpstreamsNameAndOptionalOnesAreOmittedWhenUnset() throws Exception {
        JsonNode json = new ObjectMapper().readTree(encoder.encode(StatsFixtures.summary()));

        JsonNode node = json.get("node");
        assertThat(fieldNames(node)).containsExactly("nodeName", "startTime", "cpu", "memory", "network", "fs", "runtime", "rlimit");
        assertThat(node.get("startTime").asText()).isEqualTo("2026-12-03T06:00:00Z");
        assertThat(fieldNames(node.get("cpu"))).containsExactly("time", "usageNanoCores", "usageCoreNanoSeconds");
        assertThat(node.at("/cpu/time").asText()).as("metav1.Time: whole seconds").isEqualTo("2026-12-03T08:00:00Z");
        assertThat(fieldNames(node.get("memory"))).containsExactly("time", "availableBytes", "usageBytes", "workingSetBytes",
                "rssBytes", "pageFaults", "majorPageFaults");
        assertThat(fieldNames(node.get("network"))).containsExactly("time", "name", "rxBytes", "rxErrors", "txBytes", "txErrors",
                "interfaces");
        assertThat(fieldNames(node.get("fs"))).containsExactly("time", "availableBytes", "capacityBytes", "usedBytes", "inodesFree",
                "inodes", "inodesUsed");
        assertThat(fieldNames(node.at("/runtime"))).containsExactly("imageFs");
        assertThat(fieldNames(node.get("rlimit"))).containsExactly("time", "maxpid", "curproc");

        JsonNode pod = json.at("/pods/0");
        assertThat(fieldNames(pod)).containsExactly("podRef", "startTime", "containers", "cpu", "memory", "network", "volume",
                "ephemeral-storage", "process_stats");
        assertThat(fieldNames(pod.get("podRef"))).containsExactly("name", "namespace", "uid");
        assertThat(pod.at("/process_stats/process_count").asLong()).isEqualTo(3);
        assertThat(fieldNames(pod.at("/volume/0"))).containsExactly("time", "availableBytes", "capacityBytes", "usedBytes",
                "inodesFree", "inodes", "inodesUsed", "name");
        // No default interface: Go still writes the inlined (non-omitempty) name, empty.
        assertThat(fieldNames(pod.get("network"))).containsExactly("time", "name");
        assertThat(pod.at("/memory").has("availableBytes")).as("no limit, no availableBytes").isFalse();

        JsonNode container = pod.at("/containers/0");
        assertThat(fieldNames(container)).containsExactly("name", "startTime", "cpu", "memory", "rootfs", "logs");
        assertThat(container.at("/cpu").has("usageNanoCores")).as("unknown rate omitted").isFalse();
        assertThat(container.get("startTime").asText()).isEqualTo("2026-12-03T07:59:50Z");
    }

    @Test
    void onlyCpuAndMemoryKeepsUpstreamsSubset() throws Exception {
        JsonNode json = new ObjectMapper().readTree(encoder.encode(StatsFixtures.summary().onlyCpuAndMemory()));

        assertThat(fieldNames(json.get("node"))).containsExactly("nodeName", "startTime", "cpu", "memory");
        assertThat(fieldNames(json.at("/pods/0"))).containsExactly("podRef", "startTime", "containers", "cpu", "memory");
        assertThat(fieldNames(json.at("/pods/0/containers/0"))).containsExactly("name", "startTime", "cpu", "memory");
    }

    @Test
    void stringsAreEscapedAsGoEscapesThem() {
        Summary s = new Summary(new NodeStats("a\"b<c>&\\", List.of(), null, null, null, null, null, null, null), List.of());

        assertThat(new String(encoder.encode(s), StandardCharsets.UTF_8))
                .contains("\"nodeName\": \"a\\\"b\\u003cc\\u003e\\u0026\\\\\"")
                .contains("\"startTime\": null");
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
