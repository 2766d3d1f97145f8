package io.jkubelet.core.nodestatus;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.TimeUnit;

/**
 * fabric8's mock apiserver in CRUD mode with scripted expectations taking precedence (for the errors CRUD
 * mode never returns), and the requests it received as "METHOD path" lines.
 */
public final class MockApiserver implements AutoCloseable {
    public final KubernetesMockServer server;
    public final KubernetesClient client;

    public MockApiserver() {
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        server = new KubernetesMockServer(new Context(), new MockWebServer(), responses,
                new KubernetesMixedDispatcher(responses), false);
        server.init();
        // no hidden retries, as KubeClients configures the agent's client: the code under test must retry itself
        client = new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(
                new io.fabric8.kubernetes.client.ConfigBuilder(io.fabric8.kubernetes.client.Config.empty())
                        .withMasterUrl(server.url("/")).withRequestRetryBackoffLimit(0).build()).build();
    }

    /** The requests received since the last call, as "METHOD path", with their bodies in {@code bodies}. */
    public List<String> requests(List<String> bodies) throws InterruptedException {
        List<String> seen = new ArrayList<>();
        RecordedRequest r;
        while ((r = server.takeRequest(50, TimeUnit.MILLISECONDS)) != null) {
            seen.add(r.getMethod() + " " + r.getPath());
            if (bodies != null) {
                bodies.add(r.getUtf8Body());
            }
        }
        return seen;
    }

    public List<String> requests() throws InterruptedException {
        return requests(null);
    }

    @Override
    public void close() {
        client.close();
        server.destroy();
    }
}
