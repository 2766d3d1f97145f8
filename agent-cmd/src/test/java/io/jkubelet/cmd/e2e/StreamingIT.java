package io.jkubelet.cmd.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.jkubelet.server.streaming.ChannelClient;
import io.jkubelet.server.streaming.SpdyClient;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code /exec}, {@code /attach} and {@code /portForward} on the built jar's secure port, against real
 * containers, with a WebSocket client speaking Kubernetes' channel protocols (as kubectl does). Without
 * --config the flag defaults apply (anonymous, AlwaysAllow), so an unauthenticated client may stream.
 */
class StreamingIT extends AgentTestBase {

    private static final String POD = """
            apiVersion: v1
            kind: Pod
            metadata: {name: stream}
            spec:
              containers:
              - name: shell
                image: %1$s
                command: ["sh"]
                stdin: true
              - name: web
                image: %1$s
                command: ["sh", "-c", "mkdir -p /www && echo hello-from-the-pod > /www/index.html && exec httpd -f -p 8080 -h /www"]
            """;

    @Test
    void execAttachAndPortForwardOverWebSocket() throws Exception {
        startAgent();
        agent.writeManifest("stream.yaml", POD.formatted(IMAGE));
        awaitPod("stream", Duration.ofSeconds(60), AgentTestBase::running);
        String pod = "/default/stream-" + agent.nodeName;

        // exec: stdout and stderr apart, and the exit code in the v4 status.
        try (ChannelClient exec = connect("/exec" + pod + "/shell?" + SecureStreams.command("sh", "-c", "echo out; echo err >&2; exit 3")
                + "&output=1&error=1", "v4.channel.k8s.io")) {
            Map<Integer, String> out = exec.readUntilClosed();
            assertThat(out.get(1)).isEqualTo("out\n");
            assertThat(out.get(2)).isEqualTo("err\n");
            assertThat(out.get(3)).contains("\"status\":\"Failure\"", "\"reason\":\"NonZeroExitCode\"",
                    "\"causes\":[{\"reason\":\"ExitCode\",\"message\":\"3\"}]");
        }

        // exec with stdin: cat echoes, and ends when the v5 client closes stdin.
        try (ChannelClient cat = connect("/exec" + pod + "/shell?command=cat&input=1&output=1&error=1", "v5.channel.k8s.io")) {
            cat.send(0, "line one\nline two\n");
            cat.send(255, new byte[] {0});
            Map<Integer, String> out = cat.readUntilClosed();
            assertThat(out.get(1)).isEqualTo("line one\nline two\n");
            assertThat(out.get(3)).isEqualTo("{\"metadata\":{},\"status\":\"Success\"}");
        }

        // exec with a TTY: the process has a terminal, and the client's resize reaches it.
        try (ChannelClient tty = connect("/exec" + pod + "/shell?" + SecureStreams.command("sh", "-c",
                "[ -t 0 ] && echo is-a-tty; while [ \"$(stty size)\" != '43 132' ]; do sleep 0.1; done; echo resized")
                + "&input=1&output=1&tty=1", "v4.channel.k8s.io")) {
            tty.send(4, "{\"Width\":132,\"Height\":43}");
            Map<Integer, String> out = tty.readUntilClosed();
            assertThat(out.get(1)).contains("is-a-tty\r\n", "resized\r\n");
            assertThat(out.get(3)).contains("\"status\":\"Success\"");
        }

        // attach: the main process (sh reading commands from its stdin) runs what the client sends.
        try (ChannelClient attach = connect("/attach" + pod + "/shell?input=1&output=1&error=1", "v4.channel.k8s.io")) {
            assertThat(attach.next().channel()).as("the session is up").isEqualTo(1);
            attach.send(0, "echo attached-$((40 + 2))\n");
            StringBuilder seen = new StringBuilder();
            while (!seen.toString().contains("attached-42\n")) {
                ChannelClient.Message m = attach.next();
                assertThat(m).as("output so far: %s", seen).isNotNull();
                seen.append(m.text());
            }
        }

        // port-forward: an HTTP GET reaches busybox httpd in the pod; each channel opens with the port (8080, little-endian).
        try (ChannelClient forward = connect("/portForward" + pod + "?port=8080", "v4.channel.k8s.io")) {
            forward.send(0, "GET /index.html HTTP/1.0\r\nHost: pod\r\n\r\n");
            java.util.List<ChannelClient.Message> messages = new java.util.ArrayList<>();
            for (ChannelClient.Message m; (m = forward.next()) != null; ) {
                messages.add(m);
            }
            java.util.List<ChannelClient.Message> data = messages.stream().filter(m -> m.channel() == 0).toList();
            java.util.List<ChannelClient.Message> errors = messages.stream().filter(m -> m.channel() == 1).toList();
            assertThat(data.getFirst().data()).containsExactly(0x90, 0x1F);
            assertThat(errors).hasSize(1);
            assertThat(errors.getFirst().data()).containsExactly(0x90, 0x1F);
            String answer = data.stream().skip(1).map(ChannelClient.Message::text).collect(Collectors.joining());
            assertThat(answer).startsWith("HTTP/1.1 200 OK").contains("hello-from-the-pod");
        }

        // The same exec over SPDY/3.1, as the apiserver and client-go's SPDY executor speak it.
        javax.net.ssl.SSLSocket tlsSocket = (javax.net.ssl.SSLSocket) SecureStreams.tls().getSocketFactory().createSocket("127.0.0.1", agent.port);
        try (SpdyClient spdy = SpdyClient.connect(tlsSocket, "/exec" + pod + "/shell?" + SecureStreams.command("sh", "-c",
                "cat; echo err >&2; exit 3") + "&input=1&output=1&error=1", "v4.channel.k8s.io")) {
            assertThat(spdy.head).startsWith("HTTP/1.1 101 ").contains("X-Stream-Protocol-Version: v4.channel.k8s.io");
            int error = spdy.open("error");
            int stdin = spdy.open("stdin");
            int stdout = spdy.open("stdout");
            int stderr = spdy.open("stderr");
            spdy.send(stdin, "through spdy\n", true);
            Map<Integer, String> out = spdy.readUntilFin(java.util.Set.of(error, stdout, stderr));
            assertThat(out.get(stdout)).isEqualTo("through spdy\n");
            assertThat(out.get(stderr)).isEqualTo("err\n");
            assertThat(out.get(error)).contains("\"reason\":\"NonZeroExitCode\"", "\"message\":\"3\"");
        }

        // Upstream's answers for what cannot be streamed.
        HttpResponse<String> noPod = SecureStreams.https().send(HttpRequest.newBuilder(
                URI.create("https://127.0.0.1:" + agent.port + "/exec/default/nope/shell?command=ls&output=1")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(noPod.statusCode()).isEqualTo(404);
        assertThat(noPod.body()).isEqualTo("pod does not exist");
        HttpResponse<String> notUpgraded = SecureStreams.https().send(HttpRequest.newBuilder(
                URI.create("https://127.0.0.1:" + agent.port + "/exec" + pod + "/shell?command=ls&output=1")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(notUpgraded.statusCode()).isEqualTo(500);
        assertThat(notUpgraded.body()).isEqualTo("Upgrade request required\n");
    }

    private ChannelClient connect(String pathAndQuery, String subprotocol) throws Exception {
        return SecureStreams.connect(agent, pathAndQuery, subprotocol);
    }
}
