package io.jkubelet.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The dashboard's files and its node on the read-only port: everything from the jar, nothing else. */
class DashboardEndpointTest {
    private ReadOnlyServer server;
    private final FakeKubeletView view = new FakeKubeletView();

    @BeforeEach
    void start() throws Exception {
        server = ReadOnlyServer.start(java.net.InetAddress.getLoopbackAddress(), 0, view, List.of());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> get(String path) throws Exception {
        try (var http = java.net.http.HttpClient.newHttpClient()) {
            return http.send(HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + server.port() + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
        }
    }

    @Test
    void thePageItsScriptAndUplotComeFromTheJar() throws Exception {
        HttpResponse<String> page = get("/dashboard/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("content-type")).hasValue("text/html; charset=utf-8");
        assertThat(page.body()).contains("<script src=\"uPlot.iife.min.js\"></script>", "<script src=\"dashboard.js\" defer>");
        // No request leaves the kubelet: every src and href is relative.
        assertThat(page.body()).doesNotContain("http://", "https://", "src=\"/", "href=\"/");
        // And the browser is told to load nothing from elsewhere.
        assertThat(page.headers().firstValue("content-security-policy")).hasValueSatisfying(csp ->
                assertThat(csp).startsWith("default-src 'self';"));

        assertThat(get("/dashboard/dashboard.js").body()).contains("getJson('stats/history')");
        HttpResponse<String> uplot = get("/dashboard/uPlot.iife.min.js");
        assertThat(uplot.statusCode()).isEqualTo(200);
        assertThat(uplot.headers().firstValue("content-type")).hasValue("text/javascript; charset=utf-8");
        assertThat(uplot.body()).contains("uPlot");
        assertThat(get("/dashboard/uPlot.min.css").statusCode()).isEqualTo(200);
    }

    @Test
    void theRootWithoutItsSlashRedirectsAndUnknownFilesAre404() throws Exception {
        try (var http = java.net.http.HttpClient.newHttpClient()) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                    java.net.URI.create("http://127.0.0.1:" + server.port() + "/dashboard")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(301);
            assertThat(r.headers().firstValue("location")).hasValue("/dashboard/");
        }
        assertThat(get("/dashboard/../pods").statusCode()).isNotEqualTo(200);
        HttpResponse<String> missing = get("/dashboard/secret.txt");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.body()).isEqualTo("no such dashboard file: /dashboard/secret.txt");
    }

    @Test
    void onlyGetAndHead() throws Exception {
        try (var http = java.net.http.HttpClient.newHttpClient()) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                    java.net.URI.create("http://127.0.0.1:" + server.port() + "/dashboard/"))
                    .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(405);
            assertThat(r.body()).isEqualTo("Method Not Allowed: the dashboard only answers GET");
        }
    }

    @Test
    void theNodeAsJsonOr404BeforeItIsKnown() throws Exception {
        assertThat(get("/dashboard/api/node")).satisfies(r -> {
            assertThat(r.statusCode()).isEqualTo(404);
            assertThat(r.body()).isEqualTo("the node is not known yet");
        });
        view.node.set(new NodeBuilder().withNewMetadata().withName("node-a").endMetadata().withNewStatus()
                .addToCapacity("cpu", new Quantity("4")).addNewCondition().withType("Ready").withStatus("True").endCondition()
                .endStatus().build());

        JsonNode json = new ObjectMapper().readTree(get("/dashboard/api/node").body());

        assertThat(json.at("/metadata/name").asText()).isEqualTo("node-a");
        assertThat(json.at("/status/capacity/cpu").asText()).isEqualTo("4");
        assertThat(json.at("/status/conditions/0/type").asText()).isEqualTo("Ready");
    }
}
