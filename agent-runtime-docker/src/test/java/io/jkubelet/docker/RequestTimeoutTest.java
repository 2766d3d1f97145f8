package io.jkubelet.docker;

import io.jkubelet.core.runtime.ImagePullException;
import io.jkubelet.docker.engine.Durations;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * runtimeRequestTimeout against a daemon that stops answering: a loopback endpoint that answers Docker's ping (so the
 * adapter connects) and then holds every other request open without a word.
 */
class RequestTimeoutTest {
    private ServerSocket server;
    private final List<Socket> held = new CopyOnWriteArrayList<>();
    private Thread acceptor;

    @BeforeEach
    void silentDaemon() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = Thread.ofVirtual().start(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    Thread.ofVirtual().start(() -> serve(s));
                } catch (IOException closed) {
                    return;
                }
            }
        });
    }

    /**
     * Answers each ping on the connection (and an image inspection with 404); at the first other request, holds the
     * connection and says nothing, but for a pull, which gets one line of progress first.
     */
    private void serve(Socket s) {
        held.add(s);
        try {
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1));
            OutputStream out = s.getOutputStream();
            String requestLine;
            while ((requestLine = in.readLine()) != null) {
                String line;
                while ((line = in.readLine()) != null && !line.isEmpty()) {
                    // headers; none of these requests has a body
                }
                if (requestLine.contains("/images/create")) {
                    // A pull that starts, says one thing, and then stalls (the body is not finished).
                    out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                            + chunk("{\"status\":\"Pulling from library/stalled\",\"id\":\"1.0\"}\r\n"))
                            .getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                    return;
                }
                if (requestLine.startsWith("GET ") && requestLine.contains("/images/")) {
                    String body = "{\"message\":\"No such image\"}";
                    out.write(("HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: "
                            + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                    continue;
                }
                if (!requestLine.contains("/_ping")) {
                    return; // held open: the client's socket times out
                }
                out.write("HTTP/1.1 200 OK\r\nApi-Version: 1.41\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nOK"
                        .getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            }
        } catch (IOException closed) {
            // the test is over
        }
    }

    private static String chunk(String data) {
        return Integer.toHexString(data.getBytes(StandardCharsets.ISO_8859_1).length) + "\r\n" + data + "\r\n";
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
        for (Socket s : held) {
            s.close();
        }
        acceptor.join();
    }

    @Test
    void aCallWithoutAnAnswerFailsAfterTheRuntimeRequestTimeoutNamingIt() {
        DockerRuntimeOptions options = DockerRuntimeOptions.DEFAULTS.withRequestTimeout(Duration.ofSeconds(1));

        try (DockerRuntime runtime = DockerRuntimeFactory.connect("tcp://127.0.0.1:" + server.getLocalPort(), options,
                Clock.systemUTC())) {
            assertThatThrownBy(() -> runtime.listContainers(null))
                    .isInstanceOf(DockerCallException.class)
                    .hasMessageStartingWith("list containers: Docker did not answer GET /containers/json within 1s "
                            + "(runtimeRequestTimeout)");
            assertThatThrownBy(runtime::version)
                    .isInstanceOf(DockerCallException.class)
                    .hasMessageStartingWith("docker version: Docker did not answer GET /version within 1s "
                            + "(runtimeRequestTimeout)");
        }
    }

    @Test
    void aStopWithoutAnAnswerFailsAfterTheGracePeriodAndTheRuntimeRequestTimeout() {
        DockerRuntimeOptions options = DockerRuntimeOptions.DEFAULTS.withRequestTimeout(Duration.ofSeconds(1));

        try (DockerRuntime runtime = connect(options)) {
            assertThatThrownBy(() -> runtime.stopContainer("abc123", Duration.ofSeconds(1)))
                    .isInstanceOf(DockerCallException.class)
                    .hasMessage("stop container abc123: Docker did not answer within 2s (the grace period 1s and "
                            + "runtimeRequestTimeout 1s)");
        }
    }

    @Test
    void aPullIsNotBoundByTheRequestTimeoutButCancelledWhenItStopsMakingProgress() {
        // A request timeout far shorter than the deadline: the pull outlives it, and ends by its progress deadline. The
        // deadline leaves a loaded machine time to read the one progress line the server sends at once (1 s did not,
        // at load average ~20).
        DockerRuntimeOptions options = DockerRuntimeOptions.DEFAULTS.withRequestTimeout(Duration.ofMillis(200))
                .withImagePullProgressDeadline(Duration.ofSeconds(3));

        try (DockerRuntime runtime = connect(options)) {
            assertThatThrownBy(() -> runtime.pullImage("127.0.0.1:5000/stalled:1.0", null))
                    .isInstanceOf(ImagePullException.class)
                    .hasMessage("cancel pulling image 127.0.0.1:5000/stalled:1.0 because of no progress for 3s, "
                            + "latest progress: \"1.0: Pulling from library/stalled\"");
        }
    }

    private DockerRuntime connect(DockerRuntimeOptions options) {
        return DockerRuntimeFactory.connect("tcp://127.0.0.1:" + server.getLocalPort(), options, Clock.systemUTC());
    }

    @Test
    void durationsArePrintedAsTheKubeletsFlagsPrintThem() {
        assertThat(Durations.text(Duration.ofMinutes(2))).isEqualTo("2m0s");
        assertThat(Durations.text(Duration.ofSeconds(30))).isEqualTo("30s");
        assertThat(Durations.text(Duration.ofMillis(1500))).isEqualTo("1.5s");
        assertThat(Durations.text(Duration.ofMillis(250))).isEqualTo("250ms");
        assertThat(Durations.text(Duration.ofMinutes(90))).isEqualTo("1h30m0s");
    }
}
