package io.jkubelet.cmd.e2e;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Static pods from --manifest-url, served by a local HTTP server with a required header. */
class UrlSourceIT extends AgentTestBase {
    private HttpServer server;

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void podsFromAUrlRunAndSurviveTheUrlFailing() throws Exception {
        AtomicReference<String> body = new AtomicReference<>("""
                {"apiVersion": "v1", "kind": "PodList", "items": [
                  {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "from-url"},
                   "spec": {"containers": [{"name": "a", "image": "%s",
                     "command": ["sh", "-c", "trap 'exit 0' TERM; sleep 3600 & wait"]}]}}]}
                """.formatted(IMAGE));
        AtomicInteger status = new AtomicInteger(200);
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/pods", ex -> {
            boolean authorized = "Bearer e2e".equals(ex.getRequestHeaders().getFirst("Authorization"));
            byte[] b = body.get().getBytes(StandardCharsets.UTF_8);
            int code = authorized ? status.get() : 401;
            ex.sendResponseHeaders(code, code == 200 ? b.length : -1);
            if (code == 200) {
                ex.getResponseBody().write(b);
            }
            ex.close();
        });
        server.start();
        String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/pods";
        startAgent("--manifest-url", url, "--manifest-url-header", "Authorization:Bearer e2e",
                "--http-check-frequency", "1s");
        Pod pod = awaitPod("from-url", Duration.ofSeconds(60), AgentTestBase::running);
        assertThat(pod.getMetadata().getAnnotations()).containsEntry("kubernetes.io/config.source", "http");
        String id = id(container(pod, "a").orElseThrow());

        // A failing URL keeps what runs.
        status.set(500);
        await().pollDelay(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(() -> true);
        assertThat(Docker.running(agent.nodeName, "label=io.kubernetes.container.name=a")).containsExactly(id.substring(0, 12));

        // An empty list from the URL removes the pod.
        status.set(200);
        body.set("{\"apiVersion\": \"v1\", \"kind\": \"PodList\", \"items\": []}");
        await().atMost(Duration.ofSeconds(60)).until(() -> Docker.ids(agent.nodeName).isEmpty());
    }
}
