package io.jkubelet.cmd.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Log rotation on a real node: a container writes far faster than its log may grow (32 KiB files, four kept, about
 * 60 KiB a second), and {@code /containerLogs} on the agent's secure port still gives every line the runtime kept,
 * counted by sequence number: a follower from the container's start gets all 3000 lines across a dozen rotations,
 * {@code previous} and {@code tailLines} read across the rotated files, and Docker holds no more than four files.
 */
class LogRotationIT extends AgentTestBase {
    private static final String PAD = "x".repeat(60);

    /** The first instance waits (for the follower), writes "first 1..3000" in bursts of 100 and exits; the next writes "second 1..1500" and stays. */
    private static final String WRITER = """
            apiVersion: v1
            kind: Pod
            metadata: {name: writer}
            spec:
              volumes: [{name: work, emptyDir: {}}]
              containers:
              - name: w
                image: IMAGE
                volumeMounts: [{name: work, mountPath: /work}]
                command: ["sh", "-c"]
                args:
                - |
                  if [ -f /work/first-done ]; then tag=second; n=1500; else tag=first; n=3000; sleep 8; fi
                  i=0
                  while [ $i -lt $n ]; do
                    i=$((i+1)); echo "$tag $i PAD"
                    if [ $((i % 100)) -eq 0 ]; then sleep 0.25; fi
                  done
                  if [ $tag = first ]; then touch /work/first-done; exit 0; fi
                  trap 'exit 0' TERM; sleep 3600 & wait
            """.replace("IMAGE", IMAGE).replace("PAD", PAD);

    @Test
    @Timeout(300)
    void everyLineTheRuntimeKeptIsReadAcrossRotationsByFollowPreviousAndTail() throws Exception {
        Path config = configFile("""
                containerLogMaxSize: 32Ki
                containerLogMaxFiles: 4
                containerLogMonitorInterval: 5s
                """);
        startAgent("--config", config.toString());
        assertThat(agent.logText()).contains("containerLogMonitorInterval (5s) and containerLogMaxWorkers (1) are not used "
                + "with the Docker runtime: Docker's json-file driver rotates each container's log as it writes it "
                + "(containerLogMaxSize 32Ki, containerLogMaxFiles 4)");
        SecurePortCurl curl = new SecurePortCurl(agent);
        agent.writeManifest("writer.yaml", WRITER);
        String logs = "/containerLogs/default/writer-" + agent.nodeName + "/w";

        Pod first = awaitPod("writer", Duration.ofSeconds(90), AgentTestBase::running);
        // Following from the first instance's start: the stream ends when it exits.
        CompletableFuture<SecurePortCurl.Answer> followed = CompletableFuture.supplyAsync(() -> {
            try {
                return curl.request(null, "GET", logs + "?follow=true", null, Duration.ofSeconds(120));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        String firstId = id(container(first, "w").orElseThrow());
        assertThat(Docker.inspect(firstId, "{{json .HostConfig.LogConfig}}"))
                .contains("\"Type\":\"json-file\"").contains("\"max-file\":\"4\"").contains("\"max-size\":\"32768\"");

        SecurePortCurl.Answer follow = followed.get(150, TimeUnit.SECONDS);
        assertThat(follow.status()).isEqualTo(200);
        assertThat(numbers(follow.body(), "first")).as("every line of the first instance, in order")
                .isEqualTo(range(1, 3000));

        Pod second = awaitPod("writer", Duration.ofSeconds(90), p -> container(p, "w").map(c -> c.getRestartCount() >= 1
                && c.getState().getRunning() != null).orElse(false));
        await(() -> curl.get(logs + "?tailLines=1").body().startsWith("second 1500 "));

        // The first instance's files: four, of about 32 KiB each, the oldest lines gone.
        Path firstLog = Path.of(Docker.inspect(firstId, "{{.LogPath}}").strip());
        long keptLines = 0;
        try (Stream<Path> files = Files.list(firstLog.getParent())) {
            List<Path> kept = files.filter(f -> f.getFileName().toString().startsWith(firstLog.getFileName().toString())).toList();
            assertThat(kept).hasSize(4);
            for (Path f : kept) {
                assertThat(Files.size(f)).as("%s", f).isLessThan(32 * 1024 + 200);
                keptLines += Files.readAllLines(f).size();
            }
        }
        List<Integer> previous = numbers(curl.get(logs + "?previous=true").body(), "first");
        assertThat(previous).as("every line of the previous instance's four files, in order")
                .hasSize((int) keptLines).isEqualTo(range(3001 - (int) keptLines, 3000));

        // tailLines counted across the rotated files (a file holds about 230 lines).
        assertThat(numbers(curl.get(logs + "?previous=true&tailLines=500").body(), "first")).isEqualTo(range(2501, 3000));
        assertThat(numbers(curl.get(logs + "?tailLines=400").body(), "second")).isEqualTo(range(1101, 1500));
        ContainerStatus w = container(second, "w").orElseThrow();
        assertThat(w.getLastState().getTerminated().getContainerID()).isEqualTo("docker://" + firstId);
    }

    /** The sequence numbers of the lines {@code "<tag> <n> <pad>"}; a line of any other shape fails. */
    private static List<Integer> numbers(String body, String tag) {
        List<Integer> out = new ArrayList<>();
        for (String line : body.split("\n")) {
            String[] parts = line.split(" ");
            assertThat(parts).as("line %s", line).hasSize(3);
            assertThat(parts[0]).isEqualTo(tag);
            assertThat(parts[2]).isEqualTo(PAD);
            out.add(Integer.parseInt(parts[1]));
        }
        return out;
    }

    static List<Integer> range(int from, int to) {
        List<Integer> out = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            out.add(i);
        }
        return out;
    }

    private static void await(java.util.concurrent.Callable<Boolean> condition) {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(condition);
    }
}
