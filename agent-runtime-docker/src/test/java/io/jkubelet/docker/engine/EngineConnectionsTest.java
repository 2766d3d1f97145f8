package io.jkubelet.docker.engine;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The client's connections against a scripted daemon on a unix socket or TCP loopback: keep-alive, a connection the
 * daemon closed while idle, a daemon that does not answer, the version prefix.
 */
class EngineConnectionsTest {
    private static final String PING = "HTTP/1.1 200 OK\r\nApi-Version: 1.41\r\nContent-Length: 2\r\n\r\nOK";
    private final List<String> requestLines = new CopyOnWriteArrayList<>();
    private ServerSocketChannel server;
    private Path dir;

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
        if (dir != null) {
            Files.deleteIfExists(dir.resolve("docker.sock"));
            Files.deleteIfExists(dir);
        }
    }

    @Test
    void callsOverTcpGoToTheNegotiatedVersionOnOneConnection() throws IOException {
        String endpoint = tcpDaemon(request -> request.startsWith("GET /_ping") ? PING
                : "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "b\r\n{\"Version\":\r\n7\r\n\"20.10\"\r\n1\r\n}\r\n0\r\n\r\n", true);

        try (DockerEngine engine = DockerEngine.connect(endpoint, Duration.ofMinutes(1))) {
            assertThat(engine.version().version()).isEqualTo("20.10");
            assertThat(engine.version().version()).isEqualTo("20.10");
            assertThat(engine.idleConnections()).isEqualTo(1);
        }
        assertThat(requestLines).containsExactly("GET /_ping HTTP/1.1", "GET /v1.41/version HTTP/1.1",
                "GET /v1.41/version HTTP/1.1");
        assertThat(accepted.get()).isEqualTo(1);
    }

    @Test
    void aConnectionTheDaemonClosedWhileIdleIsReplaced() throws IOException {
        String endpoint = unixDaemon(request -> request.startsWith("GET /_ping") ? PING
                : "HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\n{\"Version\":\"20.10\"}\n", false);

        try (DockerEngine engine = DockerEngine.connect(endpoint, Duration.ofMinutes(1))) {
            assertThat(engine.version().version()).isEqualTo("20.10");
            assertThat(engine.version().version()).isEqualTo("20.10");
        }
        assertThat(accepted.get()).isEqualTo(3);
    }

    @Test
    void aDaemonThatDoesNotAnswerTimesOutNamingTheCallAndTheSetting() throws IOException {
        String endpoint = unixDaemon(request -> null, true);

        assertThatThrownBy(() -> DockerEngine.connect(endpoint, Duration.ofMillis(300)))
                .isInstanceOf(EngineCallException.Timeout.class)
                .hasMessage("ping: Docker did not answer GET /_ping within 300ms (runtimeRequestTimeout)");
    }

    private final java.util.concurrent.atomic.AtomicInteger accepted = new java.util.concurrent.atomic.AtomicInteger();

    private String unixDaemon(Function<String, String> answers, boolean keepAlive) throws IOException {
        dir = Files.createTempDirectory("jk-engine");
        Path socket = dir.resolve("docker.sock");
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        serve(answers, keepAlive);
        return "unix://" + socket;
    }

    private String tcpDaemon(Function<String, String> answers, boolean keepAlive) throws IOException {
        server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress("127.0.0.1", 0));
        serve(answers, keepAlive);
        return "tcp://127.0.0.1:" + ((InetSocketAddress) server.getLocalAddress()).getPort();
    }

    /** Answers each request with {@code answers}' text (null: never), closing after each answer unless kept alive. */
    private void serve(Function<String, String> answers, boolean keepAlive) {
        Thread.ofVirtual().start(() -> {
            try {
                while (true) {
                    SocketChannel c = server.accept();
                    accepted.incrementAndGet();
                    Thread.ofVirtual().start(() -> answer(c, answers, keepAlive));
                }
            } catch (IOException closed) {
                // The test ended.
            }
        });
    }

    private void answer(SocketChannel c, Function<String, String> answers, boolean keepAlive) {
        try (c; InputStream in = Channels.newInputStream(c)) {
            while (true) {
                String head = head(in);
                if (head == null) {
                    return;
                }
                requestLines.add(head.substring(0, head.indexOf("\r\n")));
                String answer = answers.apply(head);
                if (answer == null) {
                    in.read(); // until the client gives up
                    return;
                }
                c.write(java.nio.ByteBuffer.wrap(answer.getBytes(StandardCharsets.ISO_8859_1)));
                if (!keepAlive) {
                    return;
                }
            }
        } catch (IOException ended) {
            // The client closed the connection.
        }
    }

    private static String head(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.write(b);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }
}
