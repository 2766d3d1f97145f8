package io.jkubelet.server.streaming;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jkubelet.server.http.HttpServer;
import io.jkubelet.server.http.HttpServerConfig;
import io.jkubelet.server.http.Router;
import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Exec and port-forward over SPDY/3.1 through the real server, as client-go's SPDY executor speaks it. */
class SpdyStreamingTest {

    private final FakeStreaming runtime = new FakeStreaming();
    private HttpServer server;

    @BeforeEach
    void start() throws Exception {
        Pod web = new PodBuilder().withNewMetadata().withName("web").withNamespace("default").withUid("uid-1").endMetadata()
                .withNewSpec().addNewContainer().withName("app").endContainer().endSpec().build();
        Router.Builder router = Router.builder();
        new StreamingHandlers(() -> List.of(web), runtime, StreamingSessions.defaults()).install(router);
        server = HttpServer.start(HttpServerConfig.kubeletDefaults("secure", InetAddress.getLoopbackAddress(), 0), router.build());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void execOverSpdyReportsOutputAndTheExitCode() throws Exception {
        try (SpdyClient client = SpdyClient.connect(server.port(),
                "/exec/default/web/app?command=sh&command=-c&command=echo+out%3B+echo+err+%3E%262%3B+exit+3&output=1&error=1",
                "v4.channel.k8s.io", "v3.channel.k8s.io")) {
            assertThat(client.head).startsWith("HTTP/1.1 101 Switching Protocols\r\n")
                    .contains("\r\nUpgrade: SPDY/3.1\r\n", "\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\n");
            int error = client.open("error");
            int stdout = client.open("stdout");
            int stderr = client.open("stderr");

            Map<Integer, String> got = client.readUntilFin(Set.of(error, stdout, stderr));

            assertThat(got.get(stdout)).isEqualTo("out\n");
            assertThat(got.get(stderr)).isEqualTo("err\n");
            // Each reply has a header block of at least one header: Go's framer cannot read an empty one.
            assertThat(client.replies).containsEntry(error, "error").containsEntry(stdout, "stdout").containsEntry(stderr, "stderr");
            assertThat(got.get(error)).contains("\"reason\":\"NonZeroExitCode\"", "{\"reason\":\"ExitCode\",\"message\":\"3\"}");
        }
    }

    @Test
    void stdinEndsWithAFin() throws Exception {
        try (SpdyClient client = SpdyClient.connect(server.port(), "/exec/default/web/app?command=cat&input=1&output=1",
                "v5.channel.k8s.io")) {
            int error = client.open("error");
            int stdin = client.open("stdin");
            int stdout = client.open("stdout");
            client.send(stdin, "over spdy\n", true);

            Map<Integer, String> got = client.readUntilFin(Set.of(error, stdout));

            assertThat(got.get(stdout)).isEqualTo("over spdy\n");
            assertThat(got.get(error)).isEqualTo("{\"metadata\":{},\"status\":\"Success\"}");
        }
    }

    @Test
    void portForwardOverSpdyPairsStreamsByRequestId() throws Exception {
        try (SpdyClient client = SpdyClient.connect(server.port(), "/portForward/default/web", "portforward.k8s.io")) {
            assertThat(client.head).contains("\r\nX-Stream-Protocol-Version: portforward.k8s.io\r\n");
            int error = client.open("error", Map.of("port", "80", "requestid", "0"));
            int data = client.open("data", Map.of("port", "80", "requestid", "0"));
            client.send(data, "GET /", true);

            Map<Integer, String> got = client.readUntilFin(Set.of(data, error));

            assertThat(got.get(data)).isEqualTo("echo:GET /");
            assertThat(got.getOrDefault(error, "")).isEmpty();
            assertThat(client.replies).containsEntry(error, "error").containsEntry(data, "data");

            int refusedError = client.open("error", Map.of("port", "81", "requestid", "1"));
            int refusedData = client.open("data", Map.of("port", "81", "requestid", "1"));
            assertThat(client.readUntilFin(Set.of(refusedData, refusedError)).get(refusedError))
                    .isEqualTo("error forwarding port 81 to pod s-web, uid : connect to 172.17.0.9:81: Connection refused");
        }
    }

    @Test
    void versionsThatCannotBeNegotiatedAreRefused() throws Exception {
        try (SpdyClient client = SpdyClient.connect(server.port(), "/exec/default/web/app?command=true&output=1",
                "v9.channel.k8s.io")) {
            assertThat(client.head).startsWith("HTTP/1.1 403 ")
                    .contains("\r\nX-Accepted-Stream-Protocol-Versions: v4.channel.k8s.io\r\n");
            assertThat(client.body()).isEqualTo("unable to upgrade: unable to negotiate protocol: client supports"
                    + " [v9.channel.k8s.io], server accepts [v5.channel.k8s.io v4.channel.k8s.io v3.channel.k8s.io"
                    + " v2.channel.k8s.io]\n");
        }
        try (SpdyClient client = SpdyClient.connect(server.port(), "/exec/default/web/app?command=true&output=1")) {
            assertThat(client.head).startsWith("HTTP/1.1 400 ");
            assertThat(client.body()).isEqualTo("unable to upgrade: X-Stream-Protocol-Version is required\n");
        }
    }
}
