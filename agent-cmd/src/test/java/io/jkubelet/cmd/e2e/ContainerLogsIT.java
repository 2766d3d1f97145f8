package io.jkubelet.cmd.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.server.http.ResponseStream;
import io.jkubelet.server.logs.ContainerLogReader;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Container logs on a real node: the agent writes each instance's log where the kubelet does and keeps the
 * previous instance's log after a restart; the log endpoints stay closed on the read-only port (they live
 * on the authenticated port, tested with the server itself in agent-server).
 */
class ContainerLogsIT extends AgentTestBase {

    @Test
    void theLogEndpointsAre405OnTheReadOnlyPortAndThePreviousInstancesLogIsKeptAndReadable() throws Exception {
        startAgent();
        agent.writeManifest("chatty.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: chatty}
                spec:
                  containers:
                  - {name: talker, image: %s, command: ["sh", "-c", "echo hello from talker; sleep 1; echo second line >&2; sleep 1; exit 1"]}
                """.formatted(IMAGE));
        Pod pod = awaitPod("chatty", Duration.ofSeconds(90),
                p -> container(p, "talker").map(c -> c.getRestartCount() >= 1 && c.getLastState().getTerminated() != null).orElse(false));
        String name = pod.getMetadata().getName();
        ContainerStatus talker = container(pod, "talker").orElseThrow();

        try (HttpClient client = HttpClient.newHttpClient()) {
            String base = "http://127.0.0.1:" + agent.readOnlyPort;
            for (HttpRequest request : List.of(
                    HttpRequest.newBuilder(URI.create(base + "/containerLogs/default/" + name + "/talker?previous=true")).build(),
                    HttpRequest.newBuilder(URI.create(base + "/logs/")).build(),
                    HttpRequest.newBuilder(URI.create(base + "/run/default/" + name + "/talker?cmd=ls"))
                            .POST(HttpRequest.BodyPublishers.noBody()).build())) {
                HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());

                assertThat(response.statusCode()).as(request.uri().toString()).isEqualTo(405);
                assertThat(response.body()).isEqualTo("Debug endpoints are disabled.\n");
            }
        }

        // The previous instance's log is still there, at the kubelet's path for its restart count.
        Path containerDir = agent.podLogs.resolve("default_" + name + "_" + pod.getMetadata().getUid()).resolve("talker");
        Path previous = containerDir.resolve((talker.getRestartCount() - 1) + ".log");
        assertThat(previous).exists();
        assertThat(Files.isSymbolicLink(previous)).as("a link to Docker's json log, as dockershim made it").isTrue();

        // And it reads as /containerLogs?previous=true&timestamps=true would send it.
        String text = read(previous, new ContainerLogReader.Options(-1, -1, null, false, true));
        assertThat(text).matches("(?s)\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{9}Z hello from talker\n"
                + "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{9}Z second line\n");
        assertThat(read(previous, new ContainerLogReader.Options(1, -1, null, false, false))).isEqualTo("second line\n");
    }

    private static String read(Path log, ContainerLogReader.Options options) throws Exception {
        Collecting out = new Collecting();
        new ContainerLogReader(Duration.ofMillis(100)).read(log, options, () -> false, out);
        return out.bytes.toString(StandardCharsets.UTF_8);
    }

    /** A response body kept in memory, with a client that never leaves. */
    private static final class Collecting extends ResponseStream {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        @Override
        public void write(int b) {
            bytes.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            bytes.write(b, off, len);
        }

        @Override
        public boolean clientGone() {
            return false;
        }

        @Override
        public boolean awaitClientGone(Duration timeout) throws InterruptedException {
            Thread.sleep(timeout.toMillis());
            return false;
        }
    }
}
