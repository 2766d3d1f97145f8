package io.jkubelet.cmd.e2e;

import io.jkubelet.server.streaming.ChannelClient;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /exec} and {@code /portForward} on the built jar's secure port with its pods on containerd: exec through the
 * runtime's streaming server (the kubelet proxies it), port-forward to the pod's CNI address.
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

        // exec with stdin: what the client sends reaches the process (head ends after one line). Not a v5 client's
        // close of stdin: the runtime's streaming server speaks v4 over WebSocket, which cannot pass it on.
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
}
