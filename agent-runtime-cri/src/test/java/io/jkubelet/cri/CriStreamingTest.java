package io.jkubelet.cri;

import io.jkubelet.core.runtime.StreamingIo;
import io.jkubelet.core.runtime.testing.RuntimePods;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Attach through containerd's streaming server, stdin through exec, and port-forward, on the real containerd (exec's
 * output and exit code are in the runtime contract).
 */
class CriStreamingTest extends CriPodsTestBase {

    @Test
    void attachStreamsTheMainProcesssOutputUntilItEnds() throws Exception {
        RuntimePods.Sandbox sandbox = pods.sandbox("attach");
        String id = sandbox.create("app", 0, CriTestSupport.BUSYBOX, List.of("sh", "-c", "sleep 2; echo attached; sleep 1"));
        runtime.startContainer(id);
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        runtime.attach(id, new StreamingIo(null, out, new ByteArrayOutputStream(), false, null));

        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("attached\n");
    }

    @Test
    void execCopiesTheClientsStdinToTheCommand() throws Exception {
        RuntimePods.Sandbox sandbox = pods.sandbox("stdin");
        String id = sandbox.running("app", 0, CriTestSupport.BUSYBOX);
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        int code = runtime.exec(id, List.of("sh", "-c", "read line; echo got $line; exit 4"),
                new StreamingIo(new ByteArrayInputStream("hello\n".getBytes(StandardCharsets.UTF_8)), out, null, false, null));

        assertThat(code).isEqualTo(4);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("got hello\n");
    }

    @Test
    void portForwardReachesAServerInThePod() throws Exception {
        RuntimePods.Sandbox sandbox = pods.sandbox("forward");
        String id = sandbox.create("web", 0, CriTestSupport.BUSYBOX, List.of("sh", "-c",
                "mkdir -p /tmp/www && echo forwarded > /tmp/www/index.html && exec httpd -f -p 8080 -h /tmp/www"));
        runtime.startContainer(id);

        String answer = Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .ignoreExceptions().until(() -> get(sandbox.id), a -> a.contains("forwarded"));

        assertThat(answer).startsWith("HTTP/1.1 200 OK");
        assertThatThrownBy(() -> runtime.portForward(sandbox.id, 9, InputStream.nullInputStream(), new ByteArrayOutputStream()))
                .isInstanceOf(IOException.class).hasMessageContaining(":9: ");
    }

    private String get(String sandboxId) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        runtime.portForward(sandboxId, 8080,
                new ByteArrayInputStream("GET /index.html HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII)), out);
        return out.toString(StandardCharsets.UTF_8);
    }
}
