package io.jkubelet.cmd;

import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.jkubelet.cmd.apiserver.ClientReviewersTest;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.apis.config.KubeletConfigurationDefaults;
import io.jkubelet.core.container.GCPolicy;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.server.KubeletView;
import io.jkubelet.server.SecureServer;
import io.jkubelet.server.healthz.HealthChecker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The secure server over real TLS with webhook authentication and authorization answered by a (mock) apiserver. */
class SecureServingWebhookTest {
    @TempDir Path dir;

    private KubernetesMockServer apiserver;
    private KubernetesClient client;
    private SecureServer server;
    private final List<TokenReview> tokenReviews = new CopyOnWriteArrayList<>();
    private final List<SubjectAccessReview> accessReviews = new CopyOnWriteArrayList<>();

    @BeforeEach
    void startApiserver() {
        apiserver = new KubernetesMockServer(false);
        apiserver.init();
        client = apiserver.createClient(b -> b.editOrNewConfig().withRequestRetryBackoffLimit(0).endConfig());
        ClientReviewersTest.serveReviews(apiserver, client, tokenReviews, accessReviews);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        client.close();
        apiserver.destroy();
    }

    private KubeletFlags flags() {
        return new KubeletFlags("", "", "", "node-a", "", dir.toString(), dir.resolve("pki").toString(), Map.of(),
                dir.resolve("containers").toString(), "jkubelet/pause:3.9", GCPolicy.DEFAULT, 0);
    }

    /** The defaults: webhook authentication (cacheTTL 2m), no anonymous, authorization mode Webhook. */
    private static KubeletConfiguration config() {
        return KubeletConfiguration.builder().from(KubeletConfigurationDefaults.newDefaulted())
                .port(0).address("127.0.0.1").build();
    }

    private void startServer() throws Exception {
        SecureServing serving = SecureServing.prepare(flags(), config(), "node-a", Clock.systemUTC(), Optional.of(client))
                .orElseThrow();
        KubeletView view = NodeView.of(new ContainerAccess(List::of, List::of, new FakeRuntime(Clock.systemUTC())));
        server = serving.start(view, List.of(HealthChecker.named("log", Optional::empty)), v -> {});
    }

    private HttpResponse<String> get(String token, String path) throws Exception {
        HttpClient http = HttpClient.newBuilder().sslContext(TrustingTls.context()).version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + path));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void bearerTokenReviewedThenAccessReviewedAndBothAnswersCached() throws Exception {
        startServer();

        HttpResponse<String> first = get("alice-token", "/pods");
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.body()).contains("\"kind\":\"PodList\"");
        assertThat(tokenReviews).hasSize(1);
        assertThat(accessReviews).hasSize(1);
        var ra = accessReviews.get(0).getSpec().getResourceAttributes();
        assertThat(List.of(ra.getVerb(), ra.getResource(), ra.getSubresource(), ra.getName()))
                .containsExactly("get", "nodes", "proxy", "node-a");
        assertThat(accessReviews.get(0).getSpec().getUser()).isEqualTo("alice");
        assertThat(accessReviews.get(0).getSpec().getGroups()).contains("dev", "system:authenticated");

        // Within cacheTTL (2m) and cacheAuthorizedTTL (5m): no second review of either kind.
        assertThat(get("alice-token", "/pods").statusCode()).isEqualTo(200);
        assertThat(tokenReviews).hasSize(1);
        assertThat(accessReviews).hasSize(1);
    }

    @Test
    void unknownTokenIs401AndDeniedUserIs403() throws Exception {
        startServer();
        HttpResponse<String> unknown = get("stolen-token", "/pods");
        assertThat(unknown.statusCode()).isEqualTo(401);
        assertThat(unknown.body()).isEqualTo("Unauthorized");
        assertThat(get(null, "/pods").statusCode()).isEqualTo(401);

        HttpResponse<String> denied = get("bob-token", "/stats/summary");
        assertThat(denied.statusCode()).isEqualTo(403);
        assertThat(denied.body()).isEqualTo("Forbidden (user=bob, verb=get, resource=nodes, subresource=stats)");
        assertThat(accessReviews).extracting(r -> r.getSpec().getUser()).containsExactly("bob");

        // Within cacheUnauthorizedTTL (30s): the denial is answered from the cache.
        assertThat(get("bob-token", "/stats/summary").statusCode()).isEqualTo(403);
        assertThat(accessReviews).extracting(r -> r.getSpec().getUser()).containsExactly("bob");
    }

    @Test
    void standaloneStillRefusesWebhookModes() {
        assertThatThrownBy(() -> SecureServing.prepare(flags(), config(), "node-a", Clock.systemUTC(), Optional.empty()))
                .isInstanceOf(StartupException.class)
                .hasMessageContaining("no client provided, cannot use webhook authentication");
        assertThatThrownBy(() -> SecureServing.prepare(flags(), config(), "node-a", Clock.systemUTC()))
                .hasMessageContaining("no client provided, cannot use webhook authentication");
    }
}
