package io.jkubelet.cmd.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jkubelet.cmd.e2e.apiserver.Kubectl;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code kubectl logs} through the real apiserver on a node whose container logs rotate (32 KiB files, four
 * kept): a follower started before the container writes gets every line across a dozen rotations, in order;
 * {@code --tail} counts across the rotated files; a plain read gives every line the runtime still keeps.
 * {@link LogRotationIT} shows the same on the kubelet's own port; this is what an operator types.
 */
class KubectlLogRotationIT extends RealClusterBase {
    private static final String PAD = "y".repeat(60);

    static String[] agentArgs() throws Exception {
        Path config = Files.createTempFile("jk-log-rotation", ".yaml");
        Files.writeString(config, """
                apiVersion: kubelet.config.k8s.io/v1beta1
                kind: KubeletConfiguration
                containerLogMaxSize: 32Ki
                containerLogMaxFiles: 4
                """);
        config.toFile().deleteOnExit();
        return new String[] {"--config", config.toString()};
    }

    @Test
    @Timeout(300)
    void followTailAndPlainReadsSpanTheRotatedFiles() throws Exception {
        // Waits for the follower, writes "n PAD" for n = 1..3000 in bursts of 100 (about 60 KiB a second), then stays.
        createShellPod("rotating", "sleep 8; i=0; while [ $i -lt 3000 ]; do i=$((i+1)); echo \"$i " + PAD + "\";"
                + " if [ $((i % 100)) -eq 0 ]; then sleep 0.25; fi; done; trap 'exit 0' TERM; sleep 3600 & wait");
        awaitRunning("rotating");
        Process follow = new ProcessBuilder(Kubectl.binary(), "--kubeconfig", cluster.adminKubeconfig.toString(),
                "logs", "-f", "rotating").redirectErrorStream(true).start();
        CompletableFuture<List<Integer>> followed = CompletableFuture.supplyAsync(() -> readUpTo(follow, 3000));
        try {
            assertThat(followed.get(150, TimeUnit.SECONDS)).as("every line, in order, across the rotations")
                    .isEqualTo(LogRotationIT.range(1, 3000));
        } finally {
            follow.destroy();
            follow.waitFor(10, TimeUnit.SECONDS);
        }

        String id = pod("rotating").getStatus().getContainerStatuses().getFirst().getContainerID().substring("docker://".length());
        Path log = Path.of(Docker.inspect(id, "{{.LogPath}}").strip());
        long kept;
        try (var files = Files.list(log.getParent())) {
            List<Path> rotated = files.filter(f -> f.getFileName().toString().startsWith(log.getFileName().toString())).toList();
            assertThat(rotated).as("Docker keeps four files").hasSize(4);
            kept = 0;
            for (Path f : rotated) {
                kept += Files.readAllLines(f).size();
            }
        }
        assertThat(numbers(kubectl.run("logs", "rotating").ok().out())).as("every line of the four files")
                .isEqualTo(LogRotationIT.range(3001 - (int) kept, 3000));
        // A file holds about 230 lines: the last 500 span three of them.
        assertThat(numbers(kubectl.run("logs", "rotating", "--tail=500").ok().out())).isEqualTo(LogRotationIT.range(2501, 3000));
        kubectl.run("delete", "pod", "rotating", "--wait=false").ok();
    }

    /** The sequence numbers of a follower's first {@code count} lines; a line of another shape fails. */
    private static List<Integer> readUpTo(Process p, int count) {
        List<Integer> out = new ArrayList<>();
        try (var reader = p.inputReader(StandardCharsets.UTF_8)) {
            String line;
            while (out.size() < count && (line = reader.readLine()) != null) {
                out.addAll(numbers(line));
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out;
    }

    private static List<Integer> numbers(String body) {
        List<Integer> out = new ArrayList<>();
        for (String line : body.split("\n")) {
            String[] parts = line.split(" ");
            assertThat(parts).as("line %s", line).hasSize(2);
            assertThat(parts[1]).isEqualTo(PAD);
            out.add(Integer.parseInt(parts[0]));
        }
        return out;
    }
}
