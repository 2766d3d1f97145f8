package io.jkubelet.cmd.e2e;

import io.jkubelet.server.streaming.ChannelClient;
import io.jkubelet.server.streaming.SpdyClient;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /exec}, {@code /attach} and {@code /portForward} on the built jar's secure port with its pods on containerd:
 * each session is proxied raw to containerd's streaming server, as upstream's kubelet does, over WebSocket and over
 * SPDY/3.1 as kubectl opens them through the apiserver.
 */
class ContainerdStreamingIT extends ContainerdTestBase {

    @Test
    void execAndPortForwardReachThePodsContainers() throws Exception {
        startAgent();
        agent.writeManifest("stream.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: stream}
                spec:
                  containers:
                  - name: web
                    image: %s
                    command: ["sh", "-c", "mkdir -p /www && echo hello-from-containerd > /www/index.html && exec httpd -f -p 8080 -h /www"]
                """.formatted(IMAGE));
        awaitPod("stream", Duration.ofSeconds(90), ContainerdTestBase::running);
        String pod = "/default/stream-" + agent.nodeName;

        // exec: stdout and stderr apart, and the exit code in the v4 status.
        try (ChannelClient exec = SecureStreams.connect(agent, "/exec" + pod + "/web?"
                + SecureStreams.command("sh", "-c", "cat /www/index.html; echo err >&2; exit 3") + "&output=1&error=1",
                "v4.channel.k8s.io")) {
            Map<Integer, String> out = exec.readUntilClosed();
            assertThat(out.get(1)).isEqualTo("hello-from-containerd\n");
            assertThat(out.get(2)).isEqualTo("err\n");
            assertThat(out.get(3)).contains("\"status\":\"Failure\"", "\"reason\":\"NonZeroExitCode\"",
                    "\"causes\":[{\"reason\":\"ExitCode\",\"message\":\"3\"}]");
        }

        // exec with stdin over WebSocket: what the client sends reaches the process (head ends after one line).
        // containerd 1.6's streaming server speaks v4 at most, which has no close of stdin: over SPDY below.
        try (ChannelClient head = SecureStreams.connect(agent, "/exec" + pod + "/web?"
                + SecureStreams.command("head", "-n", "1") + "&input=1&output=1&error=1", "v4.channel.k8s.io")) {
            head.send(0, "line one\n");
            Map<Integer, String> out = head.readUntilClosed();
            assertThat(out.get(1)).isEqualTo("line one\n");
            assertThat(out.get(3)).isEqualTo("{\"metadata\":{},\"status\":\"Success\"}");
        }

        // port-forward: an HTTP GET reaches busybox httpd in the pod; each channel opens with the port (8080, little-endian).
        try (ChannelClient forward = SecureStreams.connect(agent, "/portForward" + pod + "?port=8080", "v4.channel.k8s.io")) {
            forward.send(0, "GET /index.html HTTP/1.0\r\nHost: pod\r\n\r\n");
            List<ChannelClient.Message> messages = new ArrayList<>();
            for (ChannelClient.Message m; (m = forward.next()) != null; ) {
                messages.add(m);
            }
            List<ChannelClient.Message> data = messages.stream().filter(m -> m.channel() == 0).toList();
            assertThat(data.getFirst().data()).containsExactly(0x90, 0x1F);
            String answer = data.stream().skip(1).map(ChannelClient.Message::text).collect(Collectors.joining());
            assertThat(answer).startsWith("HTTP/1.1 200 OK").contains("hello-from-containerd");
        }
    }

    @Test
    void spdySessionsEndStdinAttachAndReachAServerOnThePodsLoopback() throws Exception {
        startAgent();
        agent.writeManifest("spdy.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: spdy}
                spec:
                  containers:
                  - name: local
                    image: %s
                    command: ["sh", "-c", "mkdir -p /www && echo only-on-loopback > /www/index.html && exec httpd -f -p 127.0.0.1:8081 -h /www"]
                  - name: echo
                    image: %s
                    command: ["cat"]
                    stdin: true
                """.formatted(IMAGE, IMAGE));
        awaitPod("spdy", Duration.ofSeconds(90), ContainerdTestBase::running);
        String pod = "/default/spdy-" + agent.nodeName;

        // exec -i: the client's end of stdin (a FIN on its stdin stream) reaches the process, which then ends with 0.
        try (SpdyClient exec = spdy("/exec" + pod + "/local?" + SecureStreams.command("sh", "-c", "cat; echo end of input")
                + "&input=1&output=1&error=1", "v4.channel.k8s.io")) {
            assertThat(exec.head).startsWith("HTTP/1.1 101 ").contains("X-Stream-Protocol-Version: v4.channel.k8s.io");
            int error = exec.open("error");
            int stdin = exec.open("stdin");
            int stdout = exec.open("stdout");
            int stderr = exec.open("stderr");
            exec.send(stdin, "first part, ", false);
            exec.send(stdin, "second part\n", true);
            // containerd's server ends the session by closing the connection after the status, as upstream's.
            Map<Integer, String> out = exec.readUntilClosed();
            assertThat(out.get(stdout)).isEqualTo("first part, second part\nend of input\n");
            assertThat(out.get(error)).isEqualTo("{\"metadata\":{},\"status\":\"Success\"}");
            assertThat(out.getOrDefault(stderr, "")).isEmpty();
        }

        // attach: the client's stdin reaches the container's main process and its output comes back.
        try (SpdyClient attach = spdy("/attach" + pod + "/echo?input=1&output=1&error=1", "v4.channel.k8s.io")) {
            assertThat(attach.head).startsWith("HTTP/1.1 101 ");
            attach.open("error");
            int stdin = attach.open("stdin");
            int stdout = attach.open("stdout");
            attach.open("stderr");
            attach.send(stdin, "attached line\n", false);
            assertThat(attach.readUntil(stdout, "attached line\n")).isEqualTo("attached line\n");
        }

        // port-forward as kubectl: an error and a data stream per connection; the server listens on 127.0.0.1 only,
        // which only the pod's network namespace reaches.
        try (SpdyClient forward = spdy("/portForward" + pod, "portforward.k8s.io")) {
            assertThat(forward.head).startsWith("HTTP/1.1 101 ").contains("X-Stream-Protocol-Version: portforward.k8s.io");
            Map<String, String> headers = Map.of("port", "8081", "requestid", "0");
            int error = forward.open("error", headers);
            int data = forward.open("data", headers);
            forward.send(data, "GET /index.html HTTP/1.0\r\nHost: pod\r\n\r\n", false);
            String answer = forward.readUntil(data, "only-on-loopback");
            assertThat(answer).startsWith("HTTP/1.1 200 OK");
        }
    }

    private SpdyClient spdy(String target, String protocol) throws Exception {
        javax.net.ssl.SSLSocket socket = (javax.net.ssl.SSLSocket) SecureStreams.tls().getSocketFactory()
                .createSocket("127.0.0.1", agent.port);
        return SpdyClient.connect(socket, target, protocol);
    }
}
