package io.jkubelet.docker;

import io.jkubelet.core.runtime.ContainerConfig;
import io.jkubelet.core.runtime.NotFoundException;
import io.jkubelet.core.runtime.TerminalSize;
import io.jkubelet.core.runtime.TerminalSizeQueue;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.StreamingIo;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Streaming exec and port-forward on a real Docker engine: what a hijacked connection must get right. */
class DockerStreamingTest extends DockerPodsTestBase {

    private String runningContainer(String pod, List<String> command) {
        PodSandboxConfig sandbox = pods.sandbox(pod, UnaryOperator.identity());
        String sandboxId = runtime.runPodSandbox(sandbox);
        return pods.run(sandboxId, pods.container("app", command, sandbox, UnaryOperator.identity()), sandbox);
    }

    @Test
    void execSeparatesStdoutFromStderrAndReturnsTheExitCode() throws Exception {
        String container = runningContainer("exec", PodFixture.LONG_RUNNING);
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();

        int exitCode = runtime.exec(container, List.of("sh", "-c", "echo out; echo err >&2; exit 3"),
                new StreamingIo(null, stdout, stderr, false, null));

        assertThat(exitCode).isEqualTo(3);
        assertThat(stdout.toString(StandardCharsets.UTF_8)).isEqualTo("out\n");
        assertThat(stderr.toString(StandardCharsets.UTF_8)).isEqualTo("err\n");
    }

    @Test
    void theEndOfStdinReachesTheProcess() throws Exception {
        String container = runningContainer("cat", PodFixture.LONG_RUNNING);
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();

        int exitCode = runtime.exec(container, List.of("cat"), new StreamingIo(
                new ByteArrayInputStream("one\ntwo\n".getBytes(StandardCharsets.UTF_8)), stdout, null, false, null));

        assertThat(exitCode).as("cat saw the end of its input").isZero();
        assertThat(stdout.toString(StandardCharsets.UTF_8)).isEqualTo("one\ntwo\n");
    }

    @Test
    void execWithATtyGetsATerminal() throws Exception {
        String container = runningContainer("tty", PodFixture.LONG_RUNNING);
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();

        int exitCode = runtime.exec(container, List.of("sh", "-c", "[ -t 1 ] && echo terminal"),
                new StreamingIo(null, stdout, null, true, null));

        assertThat(exitCode).isZero();
        assertThat(stdout.toString(StandardCharsets.UTF_8)).isEqualTo("terminal\r\n");
    }

    @Test
    void attachWithATtyReachesTheMainProcessAndResizesItsTerminal() throws Exception {
        PodSandboxConfig sandbox = pods.sandbox("attach", UnaryOperator.identity());
        String sandboxId = runtime.runPodSandbox(sandbox);
        String container = pods.run(sandboxId, pods.container("shell", List.of("sh"), sandbox, c -> new ContainerConfig(
                c.metadata(), c.image(), c.command(), c.args(), c.workingDir(), c.envs(), c.mounts(), c.labels(),
                c.annotations(), c.logPath(), true, false, true, c.resources(), c.securityContext())), sandbox);
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        java.util.concurrent.atomic.AtomicBoolean sized = new java.util.concurrent.atomic.AtomicBoolean();
        TerminalSizeQueue oneResize = () -> sized.getAndSet(true) ? null : new TerminalSize(132, 43);
        // The typed line is echoed by the terminal, so the marker is split there and only whole in the output.
        String typed = "while [ \"$(stty size)\" != '43 132' ]; do sleep 0.1; done; echo RE''SIZED; exit\n";

        // Stdin stays open (as a client's does): with Docker, the end of an attach's stdin ends the attach.
        java.io.PipedOutputStream keyboard = new java.io.PipedOutputStream();
        java.io.PipedInputStream stdin = new java.io.PipedInputStream(keyboard);
        keyboard.write(typed.getBytes(StandardCharsets.UTF_8));

        runtime.attach(container, new StreamingIo(stdin, stdout, null, true, oneResize));

        assertThat(stdout.toString(StandardCharsets.UTF_8)).as("the attach ends when the shell exits").contains("RESIZED\r\n");
    }

    @Test
    void execInAMissingContainerIsNotFound() {
        assertThatThrownBy(() -> runtime.exec("0123456789ab-missing", List.of("true"),
                new StreamingIo(null, new ByteArrayOutputStream(), null, false, null)))
                .isInstanceOf(NotFoundException.class).hasMessageContaining("0123456789ab-missing");
    }

    @Test
    void portForwardReachesAServerInThePod() throws Exception {
        PodSandboxConfig sandbox = pods.sandbox("forward", UnaryOperator.identity());
        String sandboxId = runtime.runPodSandbox(sandbox);
        pods.run(sandboxId, pods.container("web", List.of("sh", "-c",
                "mkdir -p /tmp/www && echo forwarded > /tmp/www/index.html && exec httpd -f -p 8080 -h /tmp/www"),
                sandbox, UnaryOperator.identity()), sandbox);

        String answer = Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .ignoreExceptions().until(() -> get(sandboxId), a -> a.contains("forwarded"));

        assertThat(answer).startsWith("HTTP/1.1 200 OK");
        assertThatThrownBy(() -> runtime.portForward(sandboxId, 9, InputStream.nullInputStream(), new ByteArrayOutputStream()))
                .isInstanceOf(IOException.class).hasMessageContaining(":9: ");
    }

    private static String get(String sandboxId) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        runtime.portForward(sandboxId, 8080,
                new ByteArrayInputStream("GET /index.html HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII)), out);
        return out.toString(StandardCharsets.UTF_8);
    }
}
