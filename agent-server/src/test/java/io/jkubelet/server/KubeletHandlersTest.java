package io.jkubelet.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodList;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The debugging handlers as the authenticated port will mount them (runningpods for now). */
class KubeletHandlersTest {

    private final FakeKubeletView view = new FakeKubeletView();
    private ServedHandlers server;

    @BeforeEach
    void start() throws Exception {
        server = ServedHandlers.start(new KubeletHandlers(view, List.of()));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return server.get(path);
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
        HttpResponse<String> response = server.send(server.request("/runningpods/")
                        .POST(HttpRequest.BodyPublishers.noBody()),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().firstValue("allow")).hasValue("GET");
    }
}
