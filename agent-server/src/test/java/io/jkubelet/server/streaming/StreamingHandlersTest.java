package io.jkubelet.server.streaming;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jkubelet.server.http.HttpServer;
import io.jkubelet.server.http.HttpServerConfig;
import io.jkubelet.server.http.Router;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /exec}, {@code /attach} and {@code /portForward} through the real HTTP server and a real WebSocket
 * client (the JDK's), against a scripted runtime: framing, status reports, resize, stdin's end, port
 * prefixes, and upstream's answers to requests that cannot be served.
 */
class StreamingHandlersTest {

    private static final String CMD = "command=sh&command=-c&command=echo+out%3B+echo+err+%3E%262%3B+exit+3";

    private final FakeStreaming runtime = new FakeStreaming();
    private HttpServer server;
    private StreamingSessions sessions;

    private void start(StreamingSessions limits) throws Exception {
        sessions = limits;
        Pod web = new PodBuilder().withNewMetadata().withName("web").withNamespace("default").withUid("uid-1").endMetadata()
                .withNewSpec().addNewContainer().withName("app").endContainer().endSpec().build();
        Router.Builder router = Router.builder();
        new StreamingHandlers(() -> List.of(web), runtime, sessions).install(router);
        server = HttpServer.start(HttpServerConfig.kubeletDefaults("secure", InetAddress.getLoopbackAddress(), 0), router.build());
    }

    private void start() throws Exception {
        start(StreamingSessions.defaults());
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private URI ws(String pathAndQuery) {
        return URI.create("ws://127.0.0.1:" + server.port() + pathAndQuery);
    }

    @Test
    void execReportsStdoutStderrAndTheExitCodeAsAV4Status() throws Exception {
        start();
        try (ChannelClient client = ChannelClient.connect(ws("/exec/default/web/app?" + CMD + "&output=1&error=1"),
                "v4.channel.k8s.io")) {
            assertThat(client.subprotocol).isEqualTo("v4.channel.k8s.io");
            ChannelClient.Message first = client.next();
            assertThat(first.channel()).as("the empty message that says the session is up").isEqualTo(1);
            assertThat(first.data()).isEmpty();

            Map<Integer, String> received = client.readUntilClosed();

            assertThat(received.get(1)).isEqualTo("out\n");
            assertThat(received.get(2)).isEqualTo("err\n");
            assertThat(received.get(3)).isEqualTo("{\"metadata\":{},\"status\":\"Failure\",\"message\":\"command terminated with"
                    + " non-zero exit code: error executing command [sh -c echo out; echo err >&2; exit 3], exit code 3\","
                    + "\"reason\":\"NonZeroExitCode\",\"details\":{\"causes\":[{\"reason\":\"ExitCode\",\"message\":\"3\"}]}}");
        }
    }

    @Test
    void execThatSucceedsReportsSuccess() throws Exception {
        start();
        try (ChannelClient client = ChannelClient.connect(ws("/exec/default/web/uid-1/app?command=true&output=1"),
                "v4.channel.k8s.io")) {
            assertThat(client.readUntilClosed().get(3)).isEqualTo("{\"metadata\":{},\"status\":\"Success\"}");
        }
    }

    @Test
    void v5ClientClosesStdinAndCatEnds() throws Exception {
        start();
        try (ChannelClient client = ChannelClient.connect(ws("/exec/default/web/app?command=cat&input=1&output=1&error=1"),
                "v4.channel.k8s.io", "v5.channel.k8s.io")) {
            assertThat(client.subprotocol).as("v5 wins when offered, as with the kubelet").isEqualTo("v5.channel.k8s.io");
            client.send(0, "hello\n");
            client.send(0, "world\n");
            client.send(255, new byte[] {0});

            Map<Integer, String> received = client.readUntilClosed();

            assertThat(received.get(1)).isEqualTo("hello\nworld\n");
            assertThat(received.get(3)).isEqualTo("{\"metadata\":{},\"status\":\"Success\"}");
        }
    }

    @Test
    void largeOutputArrivesWhole() throws Exception {
        start();
        try (ChannelClient client = ChannelClient.connect(
                ws("/exec/default/web/app?command=head&command=-c&command=4194304&command=/dev/zero&output=1"), "v4.channel.k8s.io")) {
            Map<Integer, String> received = client.readUntilClosed();

            assertThat(received.get(1)).hasSize(4 << 20);
            assertThat(received.get(3)).contains("Success");
        }
    }

    @Test
    void ttyExecReceivesResizeEvents() throws Exception {
        start();
        try (ChannelClient client = ChannelClient.connect(
                ws("/exec/default/web/app?command=stty&command=size&input=1&output=1&error=1&tty=1"), "v4.channel.k8s.io")) {
            client.send(4, "{\"Width\":132,\"Height\":43}");

            Map<Integer, String> received = client.readUntilClosed();

            assertThat(received.get(1)).isEqualTo("43 132\r\n");
            assertThat(received).as("a TTY has no separate stderr").doesNotContainKey(2);
        }
    }

    @Test
    void base64SubprotocolEncodesEveryMessage() throws Exception {
        start();
        try (ChannelClient client = ChannelClient.connect(ws("/exec/default/web/app?" + CMD + "&output=1&error=1"),
                "v4.base64.channel.k8s.io")) {
            Map<Integer, String> received = client.readUntilClosed();

            assertThat(received.get(1)).isEqualTo("out\n");
            assertThat(received.get(2)).isEqualTo("err\n");
            assertThat(received.get(3)).contains("\"reason\":\"NonZeroExitCode\"");
        }
    }

    @Test
    void preV4ProtocolReportsOnlyTheFailureMessage() throws Exception {
        start();
        try (ChannelClient client = ChannelClient.connect(ws("/exec/default/web/app?" + CMD + "&output=1"), "channel.k8s.io")) {
            assertThat(client.readUntilClosed().get(3)).isEqualTo(
                    "command terminated with non-zero exit code: error executing command [sh -c echo out; echo err >&2; exit 3], exit code 3");
        }
        try (ChannelClient client = ChannelClient.connect(ws("/exec/default/web/app?command=true&output=1"), "channel.k8s.io")) {
            assertThat(client.readUntilClosed()).as("success is silent before v4").doesNotContainKey(3);
        }
    }

    @Test
    void execOfAMissingProgramReportsAnInternalError() throws Exception {
        start();
        try (ChannelClient client = ChannelClient.connect(ws("/exec/default/web/app?command=nope&output=1"), "v4.channel.k8s.io")) {
            assertThat(client.readUntilClosed().get(3)).isEqualTo("{\"metadata\":{},\"status\":\"Failure\",\"message\":"
                    + "\"Internal error occurred: error executing command in container: exec: \\\"nope\\\": executable file not found"
                    + " in $PATH\",\"reason\":\"InternalError\",\"details\":{\"causes\":[{\"message\":\"error executing command in"
                    + " container: exec: \\\"nope\\\": executable file not found in $PATH\"}]},\"code\":500}");
        }
    }

    @Test
    void attachEchoesAndEndsWhenTheClientLeaves() throws Exception {
        start();
        ChannelClient client = ChannelClient.connect(ws("/attach/default/web/app?input=1&output=1"), "v4.channel.k8s.io");
        assertThat(client.next().channel()).isEqualTo(1);
        client.send(0, "ping");
        ChannelClient.Message echo = client.next();
        assertThat(echo.channel()).isEqualTo(1);
        assertThat(echo.text()).isEqualTo("ping");
        assertThat(sessions.open()).isEqualTo(1);

        client.close();

        assertThat(runtime.attachEnded.await(20, TimeUnit.SECONDS)).as("the attach ends with its client").isTrue();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(sessions.open()).isZero());
    }

    @Test
    void portForwardPrefixesEachChannelWithItsPortAndCarriesData() throws Exception {
        start();
        try (ChannelClient client = ChannelClient.connect(ws("/portForward/default/web?port=80,81"), "v4.channel.k8s.io")) {
            Map<Integer, byte[]> prefixes = new java.util.HashMap<>();
            for (int i = 0; i < 4; i++) {
                ChannelClient.Message m = client.next();
                if (m.data().length == 2 && !prefixes.containsKey(m.channel())) {
                    prefixes.put(m.channel(), m.data());
                }
            }
            assertThat(prefixes.get(0)).containsExactly(80, 0);
            assertThat(prefixes.get(1)).containsExactly(80, 0);
            assertThat(prefixes.get(2)).containsExactly(81, 0);
            assertThat(prefixes.get(3)).containsExactly(81, 0);
            ChannelClient.Message refused = client.next();
            assertThat(refused.channel()).isEqualTo(3);
            assertThat(refused.text()).isEqualTo(
                    "error forwarding port 81 to pod s-web, uid : connect to 172.17.0.9:81: Connection refused");

            client.send(0, "GET /");
            ChannelClient.Message data = client.next();
            assertThat(data.channel()).isEqualTo(0);
            assertThat(data.text()).isEqualTo("echo:GET /");
        }
    }

    @Test
    void badRequestsGetUpstreamsAnswers() throws Exception {
        start();
        assertThat(raw("GET", "/exec/default/web/app?command=ls", true))
                .startsWith("HTTP/1.1 400 ").endsWith("\r\n\r\nyou must specify at least 1 of stdin, stdout, stderr");
        assertThat(raw("GET", "/exec/default/nope/app?command=ls&output=1", true))
                .startsWith("HTTP/1.1 404 ").endsWith("\r\n\r\npod does not exist");
        assertThat(raw("GET", "/exec/default/web/other?command=ls&output=1", true))
                .startsWith("HTTP/1.1 500 ").endsWith("\r\n\r\ncontainer not found (\"other\")");
        assertThat(raw("POST", "/attach/default/web/app?output=1", false))
                .startsWith("HTTP/1.1 500 ").endsWith("\r\n\r\nUpgrade request required\n");
        assertThat(raw("GET", "/portForward/default/web", true))
                .startsWith("HTTP/1.1 400 ").endsWith("\r\n\r\nquery parameter \"port\" is required");
        assertThat(raw("GET", "/portForward/default/web?port=http", true)).startsWith("HTTP/1.1 400 ")
                .endsWith("\r\n\r\nunable to parse \"http\" as a port: strconv.ParseUint: parsing \"http\": invalid syntax");
        assertThat(raw("GET", "/portForward/default/web/uid-2?port=80", true))
                .startsWith("HTTP/1.1 404 ").endsWith("\r\n\r\npod not found");
        assertThat(raw("GET", "/exec/default/web/app?command=ls&output=1", true, "Sec-WebSocket-Protocol: v9.channel.k8s.io"))
                .as("no supported subprotocol").startsWith("HTTP/1.1 403 ");
        assertThat(raw("PUT", "/exec/default/web/app?command=ls&output=1", true)).startsWith("HTTP/1.1 405 ");
    }

    @Test
    void sessionsOverTheCapAreRefusedWith429() throws Exception {
        start(new StreamingSessions(1, Duration.ZERO));
        try (ChannelClient first = ChannelClient.connect(ws("/attach/default/web/app?input=1&output=1"), "v4.channel.k8s.io")) {
            assertThat(first.next().channel()).isEqualTo(1);

            String second = raw("GET", "/attach/default/web/app?input=1&output=1", true);

            assertThat(second).startsWith("HTTP/1.1 429 ").contains("\r\nRetry-After: 60\r\n")
                    .endsWith("maximum number of in-flight requests exceeded");
        }
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(sessions.open()).isZero());
        try (ChannelClient again = ChannelClient.connect(ws("/exec/default/web/app?command=true&output=1"), "v4.channel.k8s.io")) {
            assertThat(again.readUntilClosed().get(3)).as("a place is free again").contains("Success");
        }
    }

    @Test
    void anIdleSessionIsClosed() throws Exception {
        start(new StreamingSessions(4, Duration.ofMillis(300)));
        try (ChannelClient client = ChannelClient.connect(ws("/attach/default/web/app?input=1&output=1"), "v4.channel.k8s.io")) {
            assertThat(client.next().channel()).isEqualTo(1);

            assertThat(client.next()).as("closed for idleness").isNull();
        }
        assertThat(runtime.attachEnded.await(20, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void closingTheServerEndsOpenSessionsAtOnce() throws Exception {
        start();
        ChannelClient client = ChannelClient.connect(ws("/attach/default/web/app?input=1&output=1"), "v4.channel.k8s.io");
        assertThat(client.next().channel()).isEqualTo(1);

        server.close();
        server = null;

        assertThat(client.next()).as("the session's connection is closed").isNull();
        assertThat(runtime.attachEnded.await(20, TimeUnit.SECONDS)).isTrue();
        client.close();
    }

    /** A request with WebSocket upgrade headers (or none), answered in full as the server sent it. */
    private String raw(String method, String target, boolean upgrade, String... extraHeaders) throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            StringBuilder request = new StringBuilder(method + " " + target + " HTTP/1.1\r\nHost: localhost\r\n");
            if (upgrade) {
                request.append("Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n")
                        .append("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n");
            }
            for (String h : extraHeaders) {
                request.append(h).append("\r\n");
            }
            request.append("Content-Length: 0\r\nConnection: close\r\n\r\n");
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.US_ASCII));
            out.flush();
            socket.setSoTimeout(20_000);
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            in.transferTo(answer);
            return answer.toString(StandardCharsets.UTF_8);
        }
    }
}
