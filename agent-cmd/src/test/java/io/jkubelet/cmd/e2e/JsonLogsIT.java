package io.jkubelet.cmd.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The built jar with {@code --logging-format=json}: everything it logs is component-base's JSON lines, and the
 * verbosity set through {@code PUT /debug/flags/v} governs them at run time.
 */
class JsonLogsIT extends AgentTestBase {
    private static final ObjectMapper JSON = new ObjectMapper();

    private List<JsonNode> lines() throws IOException {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : CommandLineIT.logLines(List.of(agent.logText().split("\n")))) {
            if (!line.startsWith("---- start")) {
                lines.add(JSON.readTree(line));
            }
        }
        return lines;
    }

    @Test
    @Timeout(180)
    void everyLineIsAJsonObjectAndDebugFlagsRaiseTheVerbosity() throws Exception {
        startAgent("--logging-format=json", "-v", "0");

        List<JsonNode> started = lines();
        assertThat(started).isNotEmpty().allSatisfy(line -> {
            assertThat(line.get("ts").isNumber()).as("ts of %s", line).isTrue();
            assertThat(line.get("caller").asText()).as("caller of %s", line).matches("[a-z]+/[A-Za-z]+\\.java:\\d+");
            assertThat(line.get("msg").isTextual()).as("msg of %s", line).isTrue();
        });
        assertThat(started).anySatisfy(line -> {
            assertThat(line.get("msg").asText()).startsWith("Starting jkubelet v1.30.0 as node " + agent.nodeName);
            assertThat(line.get("caller").asText()).startsWith("cmd/KubeletApp.java:");
            assertThat(line.get("v").asInt()).isZero();
        });
        assertThat(started).as("nothing above -v 0").allSatisfy(line ->
                assertThat(line.has("v") ? line.get("v").asInt() : 0).isZero());

        SecurePortCurl.Answer set = new SecurePortCurl(agent).request(null, "PUT", "/debug/flags/v", "4",
                Duration.ofSeconds(10));
        assertThat(set.body()).isEqualTo("successfully set klog.logging.verbosity to 4\n");
        agent.writeManifest("sleeper.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: sleeper}
                spec:
                  containers:
                  - {name: app, image: %s, command: ["sh", "-c", "trap 'exit 0' TERM; sleep 3600 & wait"]}
                """.formatted(IMAGE));
        awaitPod("sleeper", Duration.ofSeconds(60), AgentTestBase::running);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(lines())
                .anySatisfy(line -> assertThat(line.path("v").asInt()).isEqualTo(4)));
        assertThat(lines()).allSatisfy(line -> assertThat(line.get("ts").isNumber()).isTrue());
    }
}
