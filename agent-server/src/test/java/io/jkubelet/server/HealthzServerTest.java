package io.jkubelet.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class HealthzServerTest {

    @Test
    void servesPingOnlyHealthzAndNothingElse() throws Exception {
        try (HealthzServer server = HealthzServer.start(InetAddress.getLoopbackAddress(), 0);
                HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            URI base = URI.create("http://127.0.0.1:" + server.port());

            HttpResponse<String> ok = client.send(HttpRequest.newBuilder(base.resolve("/healthz")).build(), HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> verbose =
                    client.send(HttpRequest.newBuilder(base.resolve("/healthz?verbose")).build(), HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> pods = client.send(HttpRequest.newBuilder(base.resolve("/pods")).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(ok.body()).isEqualTo("ok");
            assertThat(verbose.body()).isEqualTo("[+]ping ok\nhealthz check passed\n");
            assertThat(pods.statusCode()).isEqualTo(404);
            assertThat(pods.body()).isEqualTo("404 page not found\n");
        }
    }
}
