package io.jkubelet.server.streaming;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jkubelet.core.runtime.NotFoundException;
import io.jkubelet.core.runtime.StreamingIo;
import io.jkubelet.core.runtime.StreamingRuntime;
import io.jkubelet.server.http.HttpServer;
import io.jkubelet.server.http.HttpServerConfig;
import io.jkubelet.server.http.Router;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Sessions on a runtime with a streaming server, through the real server: the client's upgrade request is proxied
 * raw to the URL the runtime hands out (a scripted streaming server here), as upstream's {@code proxyStream}.
 */
class StreamProxyTest {

    private final ScriptedStreamingServer backend;
    private final UrlRuntime runtime;
    private final StreamingSessions sessions = StreamingSessions.defaults();
    private HttpServer server;

    StreamProxyTest() throws IOException {
        backend = new ScriptedStreamingServer();
        runtime = new UrlRuntime("http://127.0.0.1:" + backend.port());
    }

    private static Pod web() {
        return new PodBuilder().withNewMetadata().withName("web").withNamespace("default").withUid("uid-1").endMetadata()
                .withNewSpec().addNewContainer().withName("app").endContainer().endSpec().build();
    }

    @BeforeEach
    void start() throws Exception {
        Router.Builder router = Router.builder();
        new StreamingHandlers(() -> List.of(web()), runtime, sessions).install(router);
        server = HttpServer.start(HttpServerConfig.kubeletDefaults("secure", InetAddress.getLoopbackAddress(), 0), router.build());
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
        backend.close();
    }

    @Test
    void spdyExecIsRelayedWithItsUpgradeHeadersAndBytesFlowBothWaysEachEndingOnItsOwn() throws Exception {
        try (Socket client = connect()) {
            send(client, "POST /exec/default/web/app?command=cat&input=1&output=1 HTTP/1.1\r\nHost: node-1:10250\r\n"
                    + "Connection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\n"
                    + "X-Stream-Protocol-Version: v3.channel.k8s.io\r\nContent-Length: 0\r\n\r\n");
            ScriptedStreamingServer.Connection session = backend.next();

            assertThat(runtime.calls).containsExactly("exec c-app [cat] stdin=true stdout=true stderr=false tty=false");
            assertThat(session.head()).startsWith("POST /exec/token-1 HTTP/1.1\r\nHost: node-1:10250\r\n")
                    .contains("\r\nConnection: Upgrade\r\n", "\r\nUpgrade: SPDY/3.1\r\n",
                            "\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\nX-Stream-Protocol-Version: v3.channel.k8s.io\r\n",
                            "\r\nX-Forwarded-For: 127.0.0.1\r\n", "\r\nContent-Length: 0\r\n")
                    .endsWith("\r\n\r\n");
            String switched = "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\n"
                    + "X-Stream-Protocol-Version: v4.channel.k8s.io\r\nDate: Sat, 05 Dec 2026 07:00:00 GMT\r\n\r\n";
            session.write(switched + "first bytes");

            assertThat(ScriptedStreamingServer.readHead(client.getInputStream())).isEqualTo(switched);
            assertThat(new String(client.getInputStream().readNBytes(11), StandardCharsets.ISO_8859_1)).isEqualTo("first bytes");

            // The client ends its side: the server reads what came before, then the end.
            send(client, "to the process");
            client.shutdownOutput();
            assertThat(session.readToEnd()).isEqualTo("to the process");

            // The other way is still open until the server ends it.
            session.write("the process's last output");
            session.socket().shutdownOutput();
            assertThat(new String(client.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1))
                    .isEqualTo("the process's last output");
        }
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> sessions.open() == 0);
    }

    @Test
    void serverEndingFirstEndsTheClientsInputWhileTheClientMayStillSend() throws Exception {
        try (Socket client = connect()) {
            send(client, "GET /attach/default/web/app?output=1&tty=1 HTTP/1.1\r\nHost: node\r\nConnection: Upgrade\r\n"
                    + "Upgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\n\r\n");
            ScriptedStreamingServer.Connection session = backend.next();
            assertThat(runtime.calls).containsExactly("attach c-app stdin=false stdout=true stderr=false tty=true");
            session.write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: SPDY/3.1\r\n\r\n");
            ScriptedStreamingServer.readHead(client.getInputStream());

            session.write("output");
            session.socket().shutdownOutput();
            assertThat(new String(client.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1)).isEqualTo("output");

            send(client, "late");
            client.shutdownOutput();
            assertThat(session.readToEnd()).isEqualTo("late");
        }
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> sessions.open() == 0);
    }

    @Test
    void overTlsEachSidesEndReachesTheOtherAndTheOtherWayStaysOpen() throws Exception {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("stream-proxy-tls");
        io.jkubelet.server.tls.TlsContext tls = io.jkubelet.server.tls.ServerTls.context(
                io.jkubelet.server.tls.ServingCertificate.resolve("", "", dir, "node-a", java.time.Instant.now()), "",
                List.of(), List.of());
        Router.Builder router = Router.builder();
        new StreamingHandlers(() -> List.of(web()), runtime, sessions).install(router);
        try (HttpServer secure = HttpServer.start(HttpServerConfig.kubeletDefaults("secure", InetAddress.getLoopbackAddress(), 0),
                router.build(), tls.sslContext(), null);
             javax.net.ssl.SSLSocket client = (javax.net.ssl.SSLSocket) io.jkubelet.server.tls.TestPki.clientContext(null)
                     .getSocketFactory().createSocket(InetAddress.getLoopbackAddress(), secure.port())) {
            client.setSoTimeout(20_000);
            send(client, "POST /exec/default/web/app?command=cat&input=1&output=1 HTTP/1.1\r\nHost: node-a\r\n"
                    + "Connection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\n\r\n");
            ScriptedStreamingServer.Connection session = backend.next();
            session.write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: SPDY/3.1\r\n\r\n");
            assertThat(ScriptedStreamingServer.readHead(client.getInputStream())).startsWith("HTTP/1.1 101 ");

            send(client, "to the process");
            client.shutdownOutput();
            assertThat(session.readToEnd()).isEqualTo("to the process");

            session.write("last output");
            session.socket().shutdownOutput();
            assertThat(new String(client.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1)).isEqualTo("last output");
        }
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> sessions.open() == 0);
    }

    @Test
    void webSocketPortForwardIsRelayedWithTheWebSocketHeadersAndTheQuerysPorts() throws Exception {
        try (Socket client = connect()) {
            send(client, "GET /portForward/default/web?port=8080&port=9090 HTTP/1.1\r\nHost: node\r\nConnection: Upgrade\r\n"
                    + "Upgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                    + "Sec-WebSocket-Protocol: v4.channel.k8s.io\r\n\r\n");
            ScriptedStreamingServer.Connection session = backend.next();

            assertThat(runtime.calls).containsExactly("portForward s-web [8080, 9090]");
            assertThat(session.head()).startsWith("GET /portforward/token-1 HTTP/1.1\r\n")
                    .contains("\r\nUpgrade: websocket\r\n", "\r\nSec-Websocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n",
                            "\r\nSec-Websocket-Version: 13\r\n", "\r\nSec-Websocket-Protocol: v4.channel.k8s.io\r\n")
                    .doesNotContain("Content-Length");
            String accepted = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\nSec-WebSocket-Protocol: v4.channel.k8s.io\r\n\r\n";
            session.write(accepted);
            assertThat(ScriptedStreamingServer.readHead(client.getInputStream())).isEqualTo(accepted);
        }
    }

    @Test
    void aLargeOutputReachesAClientThatReadsItInSmallPiecesWhole() throws Exception {
        byte[] output = new byte[16 << 20];
        for (int i = 0; i < output.length; i++) {
            output[i] = (byte) (i * 31);
        }
        try (Socket client = connect()) {
            send(client, "GET /exec/default/web/app?command=head&output=1 HTTP/1.1\r\nHost: node\r\n"
                    + "Connection: Upgrade\r\nUpgrade: SPDY/3.1\r\n\r\n");
            ScriptedStreamingServer.Connection session = backend.next();
            Thread writer = Thread.ofVirtual().start(() -> {
                try {
                    session.write("HTTP/1.1 101 Switching Protocols\r\n\r\n");
                    session.socket().getOutputStream().write(output);
                    session.socket().shutdownOutput();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            ScriptedStreamingServer.readHead(client.getInputStream());
            java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
            byte[] piece = new byte[1000];
            InputStream in = client.getInputStream();
            for (int n; (n = in.read(piece)) >= 0; ) {
                got.write(piece, 0, n);
            }
            writer.join();
            assertThat(Arrays.equals(got.toByteArray(), output)).as("the output arrived whole and in order").isTrue();
        }
    }

    @Test
    void aStreamingServerThatDoesNotAnswerTheDialIsThe500OfTheProxyNamingItsAddress() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        runtime.base = "http://127.0.0.1:" + closedPort;
        try (Socket client = connect()) {
            send(client, "GET /exec/default/web/app?command=cat&input=1 HTTP/1.1\r\nHost: node\r\nConnection: Upgrade\r\n"
                    + "Upgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\n\r\n");
            String answer = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

            assertThat(answer).startsWith("HTTP/1.1 500 Internal Server Error\r\n")
                    .contains("content-type: text/plain; charset=utf-8")
                    .endsWith("\r\n\r\nerror dialing backend: dial tcp 127.0.0.1:" + closedPort
                            + ": connect: connection refused\n");
        }
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> sessions.open() == 0);
    }

    @Test
    void aRefusalOfTheStreamingServerReachesTheClientAsItCameAndTheConnectionCloses() throws Exception {
        try (Socket client = connect()) {
            send(client, "GET /exec/default/web/app?command=cat&input=1 HTTP/1.1\r\nHost: node\r\nConnection: Upgrade\r\n"
                    + "Upgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v9.channel.k8s.io\r\n\r\n");
            ScriptedStreamingServer.Connection session = backend.next();
            String refusal = "HTTP/1.1 403 Forbidden\r\nContent-Length: 47\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
                    + "unable to upgrade: unable to negotiate protocol";
            // The server keeps its connection open after the answer, as Go's does: the proxy ends it.
            session.write(refusal);

            assertThat(new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(refusal);
        }
    }

    @Test
    void anAnswerThatNeitherSwitchesNorRefusesIsTheProxys500() throws Exception {
        try (Socket client = connect()) {
            send(client, "GET /exec/default/web/app?command=cat&input=1 HTTP/1.1\r\nHost: node\r\nConnection: Upgrade\r\n"
                    + "Upgrade: SPDY/3.1\r\n\r\n");
            backend.next().write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");

            assertThat(new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                    .startsWith("HTTP/1.1 500 ").endsWith("\r\n\r\ninvalid upgrade response: status code 200\n");
        }
    }

    @Test
    void checksComeBeforeTheRuntimeIsAskedAndItsNotFoundIs404() throws Exception {
        try (Socket client = connect()) {
            send(client, "GET /exec/default/web/app?command=cat HTTP/1.1\r\nHost: node\r\nConnection: Upgrade, close\r\n"
                    + "Upgrade: SPDY/3.1\r\n\r\n");
            assertThat(new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                    .startsWith("HTTP/1.1 400 ").endsWith("you must specify at least 1 of stdin, stdout, stderr");
        }
        assertThat(runtime.calls).isEmpty();
        runtime.notFound = true;
        try (Socket client = connect()) {
            send(client, "GET /exec/default/web/app?command=cat&output=1 HTTP/1.1\r\nHost: node\r\nConnection: Upgrade, close\r\n"
                    + "Upgrade: SPDY/3.1\r\n\r\n");
            assertThat(new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                    .startsWith("HTTP/1.1 404 ").endsWith("container \"c-app\" not found");
        }
        runtime.notFound = false;
        try (Socket client = connect()) {
            send(client, "GET /exec/default/web/app?command=cat&output=1 HTTP/1.1\r\nHost: node\r\nConnection: close\r\n\r\n");
            assertThat(new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                    .startsWith("HTTP/1.1 500 ").endsWith("Upgrade request required\n");
        }
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port());
        socket.setSoTimeout(20_000);
        return socket;
    }

    private static void send(Socket socket, String text) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    /** The pod {@code default/web} with container {@code app}, on a runtime whose streaming server hands out URLs. */
    private static final class UrlRuntime implements ContainerStreaming, StreamingRuntime {
        final List<String> calls = new CopyOnWriteArrayList<>();
        volatile String base;
        volatile boolean notFound;

        UrlRuntime(String base) {
            this.base = base;
        }

        @Override
        public Optional<StreamingRuntime> streamingRuntime() {
            return Optional.of(this);
        }

        @Override
        public URI getExec(String containerId, List<String> command, boolean stdin, boolean stdout, boolean stderr, boolean tty) {
            if (notFound) {
                throw new NotFoundException("container \"" + containerId + "\" not found");
            }
            calls.add("exec " + containerId + " " + command + " stdin=" + stdin + " stdout=" + stdout + " stderr=" + stderr
                    + " tty=" + tty);
            return URI.create(base + "/exec/token-" + calls.size());
        }

        @Override
        public URI getAttach(String containerId, boolean stdin, boolean stdout, boolean stderr, boolean tty) {
            calls.add("attach " + containerId + " stdin=" + stdin + " stdout=" + stdout + " stderr=" + stderr + " tty=" + tty);
            return URI.create(base + "/attach/token-" + calls.size());
        }

        @Override
        public URI getPortForward(String podSandboxId, List<Integer> ports) {
            calls.add("portForward " + podSandboxId + " " + ports);
            return URI.create(base + "/portforward/token-" + calls.size());
        }

        @Override
        public Optional<String> findRunningContainer(String namespace, String podName, String containerName) {
            return containerName.equals("app") ? Optional.of("c-app") : Optional.empty();
        }

        @Override
        public Optional<String> findSandbox(String podUid) {
            return Optional.of("s-web");
        }

        @Override
        public int exec(String containerId, List<String> command, StreamingIo io) {
            throw new AssertionError("the kubelet must not serve a session of a runtime with a streaming server");
        }

        @Override
        public void attach(String containerId, StreamingIo io) {
            throw new AssertionError("the kubelet must not serve a session of a runtime with a streaming server");
        }

        @Override
        public void portForward(String podSandboxId, int port, InputStream in, OutputStream out) {
            throw new AssertionError("the kubelet must not serve a session of a runtime with a streaming server");
        }
    }
}
