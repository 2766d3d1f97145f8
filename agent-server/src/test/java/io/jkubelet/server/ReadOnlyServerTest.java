package io.jkubelet.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodList;
import io.jkubelet.server.healthz.HealthChecker;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ReadOnlyServerTest {

    private final FakeKubeletView view = new FakeKubeletView();
    private final AtomicReference<Optional<String>> syncLoop = new AtomicReference<>(Optional.empty());
    private ReadOnlyServer server;
    private HttpClient client;

    @BeforeEach
    void start() throws Exception {
        List<HealthChecker> checks =
                List.of(HealthChecker.named("log", Optional::empty), HealthChecker.named("syncloop", syncLoop::get));
        server = ReadOnlyServer.start(InetAddress.getLoopbackAddress(), 0, view, checks);
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    @AfterEach
    void stop() {
        server.close();
        client.close();
    }

    private HttpResponse<String> send(String method, String path) throws Exception {
        HttpRequest request =
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                        .method(method, HttpRequest.BodyPublishers.noBody())
                        .build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path) throws Exception {
        return send("GET", path);
    }

    private static Pod pod(String name) {
        return new PodBuilder()
                .withNewMetadata().withName(name).withNamespace("default").withUid("uid-" + name).endMetadata()
                .withNewSpec().addNewContainer().withName("c").withImage("busybox").endContainer().endSpec()
                .withNewStatus().withPhase("Running").endStatus()
                .build();
    }

    @Test
    void podsIsAV1PodListOfTheDesiredPods() throws Exception {
        view.pods.set(List.of(pod("a"), pod("b")));

        HttpResponse<String> response = get("/pods");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(response.body()).startsWith("{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{},\"items\":[{\"metadata\":");
        PodList list = new tools.jackson.databind.json.JsonMapper().readValue(response.body(), PodList.class);
        assertThat(list.getItems()).extracting(p -> p.getMetadata().getName()).containsExactly("a", "b");
        assertThat(list.getItems().get(0).getStatus().getPhase()).isEqualTo("Running");
    }

    @Test
    void metricsProbesServesTheProbeRegistryInPrometheusTextFormat() throws Exception {
        io.prometheus.metrics.core.metrics.Counter.builder().name("prober_probe_total")
                .help("[ALPHA] Cumulative number of a liveness, readiness or startup probe for a container by result.")
                .labelNames("probe_type", "result", "container", "pod", "namespace", "pod_uid")
                .withoutExemplars() // as ProberMetrics: no tracer on the class path
                .register(view.probeMetrics)
                .labelValues("Readiness", "successful", "c", "web", "default", "uid-web").inc(3);
        HttpResponse<String> r = get("/metrics/probes");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(r.body()).contains("# TYPE prober_probe_total counter\n").contains(
                "prober_probe_total{container=\"c\",namespace=\"default\",pod=\"web\",pod_uid=\"uid-web\","
                        + "probe_type=\"Readiness\",result=\"successful\"} 3.0\n");
    }

    @Test
    void metricsProbesWithNoProbesIsEmpty() throws Exception {
        HttpResponse<String> r = get("/metrics/probes");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEmpty();
    }

    @Test
    void podsWithNoPodsHasNullItems() throws Exception {
        assertThat(get("/pods").body()).isEqualTo("{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{},\"items\":null}\n");
    }

    @Test
    void podsAcceptsOnlyGet() throws Exception {
        HttpResponse<String> response = send("POST", "/pods");

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.body()).isEqualTo("405: Method Not Allowed");
        assertThat(response.headers().firstValue("allow")).hasValue("GET");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/runningpods/", "/exec/default/web/c", "/containerLogs/default/web/c", "/run/a/b/c",
            "/attach/a/b/c", "/portForward/a/b", "/debug/pprof/heap", "/logs/syslog"})
    void debuggingPathsAreDisabledOnTheReadOnlyPort(String path) throws Exception {
        HttpResponse<String> response = get(path);

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.body()).isEqualTo("Debug endpoints are disabled.\n");
        assertThat(response.headers().firstValue("content-type")).hasValue("text/plain; charset=utf-8");
    }

    @Test
    void runningPodsCanBeServedWhileOtherDebuggingPathsStayDisabled() throws Exception {
        view.running.set(List.of(new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata().withName("web")
                .withNamespace("default").withUid("u1").endMetadata().withNewSpec().addNewContainer().withName("c")
                .withImage("busybox").endContainer().endSpec().build()));
        try (ReadOnlyServer serving = ReadOnlyServer.start(InetAddress.getLoopbackAddress(), 0, view, List.of(), true)) {
            HttpResponse<String> running = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + serving.port() + "/runningpods/")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(running.statusCode()).isEqualTo(200);
            assertThat(running.body()).startsWith("{\"kind\":\"PodList\",\"apiVersion\":\"v1\"").contains("\"name\":\"web\"");
            HttpResponse<String> exec = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + serving.port() + "/exec/default/web/c")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(exec.statusCode()).isEqualTo(405);
            assertThat(exec.body()).isEqualTo("Debug endpoints are disabled.\n");
        }
    }

    @Test
    void logsAndRunStayDisabledWhenRunningPodsIsServed() throws Exception {
        view.pods.set(List.of(new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata().withName("web")
                .withNamespace("default").withUid("u1").endMetadata().withNewSpec().addNewContainer().withName("c")
                .withImage("busybox").endContainer().endSpec().build()));
        try (ReadOnlyServer serving = ReadOnlyServer.start(InetAddress.getLoopbackAddress(), 0, view, List.of(), true)) {
            for (HttpRequest request : List.of(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + serving.port() + "/containerLogs/default/web/c")).build(),
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + serving.port() + "/logs/")).build(),
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + serving.port() + "/run/default/web/c?cmd=ls"))
                            .POST(HttpRequest.BodyPublishers.noBody()).build())) {
                HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());

                assertThat(response.statusCode()).as(request.uri().toString()).isEqualTo(405);
                assertThat(response.body()).isEqualTo("Debug endpoints are disabled.\n");
            }
        }
    }

    @Test
    void runningPodsWithoutSlashRedirectsToTheDisabledSubtree() throws Exception {
        HttpResponse<String> response = get("/runningpods");

        assertThat(response.statusCode()).isEqualTo(301);
        assertThat(response.headers().firstValue("location")).hasValue("/runningpods/");
    }

    @Test
    void healthzIsOkWhenEveryCheckPasses() throws Exception {
        HttpResponse<String> response = get("/healthz");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("ok");
        assertThat(response.headers().firstValue("content-type")).hasValue("text/plain; charset=utf-8");
        assertThat(response.headers().firstValue("x-content-type-options")).hasValue("nosniff");
    }

    @Test
    void healthzVerboseListsEveryCheck() throws Exception {
        assertThat(get("/healthz?verbose").body())
                .isEqualTo("[+]ping ok\n[+]log ok\n[+]syncloop ok\nhealthz check passed\n");
    }

    @Test
    void healthzFailureIs500WithTheReasonWithheld() throws Exception {
        syncLoop.set(Optional.of("sync loop stuck for 5m"));

        HttpResponse<String> response = get("/healthz");

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.body())
                .isEqualTo("[+]ping ok\n[+]log ok\n[-]syncloop failed: reason withheld\nhealthz check failed\n");
        assertThat(response.headers().firstValue("content-type")).hasValue("text/plain; charset=utf-8");
    }

    @Test
    void singleCheckShowsItsReason() throws Exception {
        assertThat(get("/healthz/syncloop").body()).isEqualTo("ok");
        syncLoop.set(Optional.of("sync loop stuck for 5m"));

        HttpResponse<String> failed = get("/healthz/syncloop");

        assertThat(failed.statusCode()).isEqualTo(500);
        assertThat(failed.body()).isEqualTo("internal server error: sync loop stuck for 5m\n");
        assertThat(get("/healthz/ping").body()).isEqualTo("ok");
        assertThat(get("/healthz/nope").statusCode()).isEqualTo(404);
    }

    @Test
    void healthzExcludeSkipsAChecksAndWarnsAboutUnknownNames() throws Exception {
        syncLoop.set(Optional.of("broken"));

        HttpResponse<String> response = get("/healthz?exclude=syncloop&exclude=zz&verbose");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body())
                .isEqualTo("[+]ping ok\n[+]log ok\n[+]syncloop excluded: ok\n"
                        + "warn: some health checks cannot be excluded: no matches for \"zz\"\nhealthz check passed\n");
    }

    @Test
    void aCheckThatThrowsCountsAsFailed() throws Exception {
        try (ReadOnlyServer other =
                ReadOnlyServer.start(InetAddress.getLoopbackAddress(), 0, view,
                        List.of(HealthChecker.named("pleg", () -> { throw new IllegalStateException("pleg was last seen active 4m ago"); })))) {
            HttpResponse<String> response =
                    client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + other.port() + "/healthz/pleg")).build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(500);
            assertThat(response.body()).isEqualTo("internal server error: pleg was last seen active 4m ago\n");
        }
    }

    @Test
    void metricsSlisCountsEachHealthCheckRunThroughHealthzAsComponentBase() throws Exception {
        send("GET", "/healthz");
        syncLoop.set(Optional.of("sync Loop took longer than expected"));
        send("GET", "/healthz");
        send("GET", "/healthz/log"); // a single check's path records nothing, as upstream

        HttpResponse<String> slis = send("GET", "/metrics/slis");
        assertThat(slis.statusCode()).isEqualTo(200);
        assertThat(slis.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(slis.body()).contains(
                "# HELP kubernetes_healthcheck [STABLE] This metric records the result of a single healthcheck.",
                "# TYPE kubernetes_healthcheck gauge",
                "kubernetes_healthcheck{name=\"ping\",type=\"healthz\"} 1",
                "kubernetes_healthcheck{name=\"syncloop\",type=\"healthz\"} 0",
                "# TYPE kubernetes_healthchecks_total counter",
                "kubernetes_healthchecks_total{name=\"log\",status=\"success\",type=\"healthz\"} 2",
                "kubernetes_healthchecks_total{name=\"syncloop\",status=\"error\",type=\"healthz\"} 1",
                "kubernetes_healthchecks_total{name=\"syncloop\",status=\"success\",type=\"healthz\"} 1");
    }

    @Test
    void healthzAnswersAnyMethodAsGoMuxDoes() throws Exception {
        assertThat(send("POST", "/healthz").body()).isEqualTo("ok");
    }

    @Test
    void aFailingViewGives500AndTheServerKeepsServing() throws Exception {
        try (ReadOnlyServer other =
                ReadOnlyServer.start(InetAddress.getLoopbackAddress(), 0, new KubeletView() {
                    @Override
                    public List<Pod> pods() {
                        throw new IllegalStateException("pod manager not ready");
                    }

                    @Override
                    public List<Pod> runningPods() {
                        return List.of();
                    }

                    @Override
                    public io.prometheus.metrics.model.registry.PrometheusRegistry probeMetrics() {
                        return new io.prometheus.metrics.model.registry.PrometheusRegistry();
                    }

                    @Override
                    public io.jkubelet.server.healthz.HealthcheckSlis healthcheckSlis() {
                        return new io.jkubelet.server.healthz.HealthcheckSlis();
                    }
                }, List.of())) {
            URI base = URI.create("http://127.0.0.1:" + other.port());
            assertThat(client.send(HttpRequest.newBuilder(base.resolve("/pods")).build(), HttpResponse.BodyHandlers.ofString()).statusCode())
                    .isEqualTo(500);
            assertThat(client.send(HttpRequest.newBuilder(base.resolve("/healthz")).build(), HttpResponse.BodyHandlers.ofString()).body())
                    .isEqualTo("ok");
        }
    }
}
