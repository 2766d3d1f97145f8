package io.jkubelet.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodList;
import io.jkubelet.server.http.HttpServer;
import io.jkubelet.server.http.HttpServerConfig;
import io.jkubelet.server.http.Router;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The debugging handlers as the authenticated port will mount them (runningpods for now). */
class KubeletHandlersTest {

    private final FakeKubeletView view = new FakeKubeletView();
    private HttpServer server;
    private HttpClient client;

    @BeforeEach
    void start() throws Exception {
        Router.Builder router = Router.builder();
        KubeletHandlers handlers = new KubeletHandlers(view, List.of());
        handlers.installAuthNotRequired(router);
        handlers.installDebugging(router);
        server = HttpServer.start(HttpServerConfig.kubeletDefaults("main", InetAddress.getLoopbackAddress(), 0), router.build());
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    @AfterEach
    void stop() {
        server.close();
        client.close();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void runningPodsListsThePodsTheRuntimeRuns() throws Exception {
        Pod running = new PodBuilder()
                .withNewMetadata().withName("web").withNamespace("default").withUid("u1").endMetadata()
                .withNewSpec().addNewContainer().withName("app").withImage("busybox").endContainer().endSpec()
                .build();
        view.running.set(List.of(running));

        HttpResponse<String> response = get("/runningpods/");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(response.body())
                .isEqualTo("{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{},\"items\":[{\"metadata\":{\"name\":\"web\","
                        + "\"namespace\":\"default\",\"uid\":\"u1\",\"creationTimestamp\":null},\"spec\":{\"containers\":[{\"name\":"
                        + "\"app\",\"image\":\"busybox\",\"resources\":{}}]},\"status\":{}}]}\n");
        PodList list = new tools.jackson.databind.json.JsonMapper().readValue(response.body(), PodList.class);
        assertThat(list.getItems()).hasSize(1);
    }

    @Test
    void runtimeFailureIs500WithItsMessage() throws Exception {
        view.runtimeError.set(new java.io.IOException("Cannot connect to the Docker daemon"));

        HttpResponse<String> response = get("/runningpods/");

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.body()).isEqualTo("Cannot connect to the Docker daemon");
    }

    @Test
    void runningPodsAcceptsOnlyGet() throws Exception {
        HttpResponse<String> response = client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/runningpods/"))
                        .POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().firstValue("allow")).hasValue("GET");
    }
}
