package io.jkubelet.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jkubelet.core.metrics.InstrumentedRuntimeService;
import io.jkubelet.core.metrics.KubeletMetrics;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.stats.StatsSnapshot;
import io.jkubelet.server.http.Router;
import io.jkubelet.server.stats.StatsFixtures;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** /stats/summary and the /metrics paths on the read-only port, which serves the auth-not-required group. */
class StatsEndpointsTest {
    private final FakeKubeletView view = new FakeKubeletView();
    private ReadOnlyServer server;
    private HttpClient client;

    @BeforeEach
    void start() throws Exception {
        server = ReadOnlyServer.start(java.net.InetAddress.getLoopbackAddress(), 0, view, List.of());
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    @AfterEach
    void stop() {
        server.close();
        client.close();
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
    }

    @Test
    void summaryBeforeTheFirstCollectionIs500() throws Exception {
        HttpResponse<String> r = send(request("/stats/summary"));

        assertThat(r.statusCode()).isEqualTo(500);
        assertThat(r.body()).isEqualTo("Internal Error: stats have not been collected yet");
    }

    @Test
    void summaryIsServedOnGetAndPostAsJson() throws Exception {
        view.stats.set(StatsFixtures.snapshot());

        HttpResponse<String> get = send(request("/stats/summary"));
        HttpResponse<String> post = send(request("/stats/summary").POST(HttpRequest.BodyPublishers.noBody()));

        assertThat(get.statusCode()).isEqualTo(200);
        assertThat(get.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(post.statusCode()).isEqualTo(200);
        assertThat(post.body()).isEqualTo(get.body());
        JsonNode json = new ObjectMapper().readTree(get.body());
        assertThat(json.at("/node/nodeName").asText()).isEqualTo("node-a");
        assertThat(json.at("/pods/0/containers/0/name").asText()).isEqualTo("app");
        assertThat(json.at("/pods/0/ephemeral-storage/usedBytes").asLong()).isEqualTo(5096);
        assertThat(send(request("/stats/summary").method("DELETE", HttpRequest.BodyPublishers.noBody())).statusCode())
                .isEqualTo(405);
    }

    @Test
    void onlyCpuAndMemoryOnlyWhenExactlyOneValueIsTrue() throws Exception {
        view.stats.set(StatsFixtures.snapshot());

        assertThat(hasFs("/stats/summary?only_cpu_and_memory=true")).isFalse();
        // Upstream never rejects the parameter: anything but one "true" is the full summary.
        assertThat(hasFs("/stats/summary?only_cpu_and_memory=false")).isTrue();
        assertThat(hasFs("/stats/summary?only_cpu_and_memory=yes")).isTrue();
        assertThat(hasFs("/stats/summary?only_cpu_and_memory=True")).isTrue();
        assertThat(hasFs("/stats/summary?only_cpu_and_memory=true&only_cpu_and_memory=true")).isTrue();
        assertThat(hasFs("/stats/summary?only_cpu_and_memory")).isTrue();
        // A POST form counts as ParseForm counts it.
        HttpResponse<String> form = send(request("/stats/summary").header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("only_cpu_and_memory=true")));
        assertThat(new ObjectMapper().readTree(form.body()).at("/node").has("fs")).isFalse();
    }

    private boolean hasFs(String path) throws Exception {
        HttpResponse<String> r = send(request(path));
        assertThat(r.statusCode()).isEqualTo(200);
        return new ObjectMapper().readTree(r.body()).at("/node").has("fs");
    }

    @Test
    void resourceMetricsAreUpstreamsCollectorOutput() throws Exception {
        view.stats.set(StatsFixtures.snapshot());

        HttpResponse<String> r = send(request("/metrics/resource"));

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("content-type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(r.body()).isEqualTo("""
                # HELP container_cpu_usage_seconds_total [STABLE] Cumulative cpu time consumed by the container in core-seconds
                # TYPE container_cpu_usage_seconds_total counter
                container_cpu_usage_seconds_total{container="app",namespace="default",pod="web"} 1.5 1796284800123
                # HELP container_memory_working_set_bytes [STABLE] Current working set of the container in bytes
                # TYPE container_memory_working_set_bytes gauge
                container_memory_working_set_bytes{container="app",namespace="default",pod="web"} 60 1796284800123
                # HELP container_start_time_seconds [STABLE] Start time of the container since unix epoch in seconds
                # TYPE container_start_time_seconds gauge
                container_start_time_seconds{container="app",namespace="default",pod="web"} 1.7962847905e+09
                # HELP node_cpu_usage_seconds_total [STABLE] Cumulative cpu time consumed by the node in core-seconds
                # TYPE node_cpu_usage_seconds_total counter
                node_cpu_usage_seconds_total 12.5 1796284800123
                # HELP node_memory_working_set_bytes [STABLE] Current working set of the node in bytes
                # TYPE node_memory_working_set_bytes gauge
                node_memory_working_set_bytes 2000 1796284800123
                # HELP pod_cpu_usage_seconds_total [STABLE] Cumulative cpu time consumed by the pod in core-seconds
                # TYPE pod_cpu_usage_seconds_total counter
                pod_cpu_usage_seconds_total{namespace="default",pod="web"} 1.6 1796284800123
                # HELP pod_memory_working_set_bytes [STABLE] Current working set of the pod in bytes
                # TYPE pod_memory_working_set_bytes gauge
                pod_memory_working_set_bytes{namespace="default",pod="web"} 70 1796284800123
                # HELP resource_scrape_error [STABLE] 1 if there was an error while getting container metrics, 0 otherwise
                # TYPE resource_scrape_error gauge
                resource_scrape_error 0
                """);
    }

    @Test
    void aFailedRoundOrNoDataIsAScrapeError() throws Exception {
        assertThat(send(request("/metrics/resource")).body()).endsWith("resource_scrape_error 1\n");
        StatsSnapshot ok = StatsFixtures.snapshot();
        view.stats.set(new StatsSnapshot(ok.collectedAt(), ok.summary(), ok.sandboxes(), "docker is gone"));
        assertThat(send(request("/metrics/resource")).body()).contains("pod_cpu_usage_seconds_total{")
                .endsWith("resource_scrape_error 1\n");
    }

    @Test
    void cadvisorMetricsLabelContainersAsCadvisor() throws Exception {
        view.stats.set(StatsFixtures.snapshot());

        String body = send(request("/metrics/cadvisor")).body();

        assertThat(body).contains("""
                # HELP container_cpu_usage_seconds_total Cumulative cpu time consumed in seconds.
                # TYPE container_cpu_usage_seconds_total counter
                container_cpu_usage_seconds_total{container="",cpu="total",id="/",image="",name="",namespace="",pod=""} 12.5 1796284800123
                container_cpu_usage_seconds_total{container="",cpu="total",id="/docker/s1",image="pause:3.9",name="k8s_POD_web_default_uid-1_0",namespace="default",pod="web"} 0.1 1796284800123
                container_cpu_usage_seconds_total{container="app",cpu="total",id="/docker/c1",image="busybox:1",name="k8s_app_web_default_uid-1_0",namespace="default",pod="web"} 1.5 1796284800123
                """)
                .contains("container_memory_working_set_bytes{container=\"app\",id=\"/docker/c1\",image=\"busybox:1\","
                        + "name=\"k8s_app_web_default_uid-1_0\",namespace=\"default\",pod=\"web\"} 60 1796284800123\n")
                .contains("container_memory_rss{container=\"app\",")
                .contains("container_memory_usage_bytes{container=\"app\",")
                .contains("container_spec_memory_limit_bytes{container=\"app\",id=\"/docker/c1\",image=\"busybox:1\","
                        + "name=\"k8s_app_web_default_uid-1_0\",namespace=\"default\",pod=\"web\"} 1.34217728e+08\n")
                .contains("container_spec_cpu_quota{container=\"app\",")
                .doesNotContain("container_spec_cpu_quota{container=\"\",id=\"/docker/s1\"")
                .contains("container_spec_cpu_shares{container=\"app\",id=\"/docker/c1\",image=\"busybox:1\","
                        + "name=\"k8s_app_web_default_uid-1_0\",namespace=\"default\",pod=\"web\"} 512\n")
                .endsWith("container_start_time_seconds{container=\"app\",id=\"/docker/c1\",image=\"busybox:1\","
                        + "name=\"k8s_app_web_default_uid-1_0\",namespace=\"default\",pod=\"web\"} 1.79628479e+09\n");
    }

    @Test
    void kubeletMetricsCountRuntimeOperationsAndErrorsAsUpstreamWritesThem() throws Exception {
        KubeletMetrics metrics = new KubeletMetrics("node-a");
        view.kubeletMetrics.set(metrics.registry());
        server.close(); // the handlers take the registry when they are installed
        server = ReadOnlyServer.start(java.net.InetAddress.getLoopbackAddress(), 0, view, List.of());
        FakeRuntime fake = new FakeRuntime(Clock.systemUTC());
        InstrumentedRuntimeService runtime = new InstrumentedRuntimeService(fake, metrics);
        runtime.listContainers(ContainerFilter.ALL);
        runtime.listContainers(ContainerFilter.ALL);
        fake.injectError("startContainer", new IllegalStateException("boom"));
        assertThatThrownBy(() -> runtime.startContainer("nope")).isInstanceOf(RuntimeException.class);
        metrics.observeRelist(Duration.ofMillis(20), null, 2, Map.of("running", 3, "exited", 1));
        metrics.observePodWorker("sync", Duration.ofMillis(30));

        String body = send(request("/metrics")).body();

        assertThat(body)
                .contains("""
                        # HELP kubelet_running_pods [ALPHA] Number of pods that have a running pod sandbox
                        # TYPE kubelet_running_pods gauge
                        kubelet_running_pods 2
                        """)
                .contains("""
                        # HELP kubelet_running_containers [ALPHA] Number of containers currently running
                        # TYPE kubelet_running_containers gauge
                        kubelet_running_containers{container_state="exited"} 1
                        kubelet_running_containers{container_state="running"} 3
                        """)
                .contains("""
                        # TYPE kubelet_runtime_operations_total counter
                        kubelet_runtime_operations_total{operation_type="list_containers"} 2
                        kubelet_runtime_operations_total{operation_type="start_container"} 1
                        """)
                .contains("""
                        # HELP kubelet_runtime_operations_errors_total [ALPHA] Cumulative number of runtime operation errors by operation type.
                        # TYPE kubelet_runtime_operations_errors_total counter
                        kubelet_runtime_operations_errors_total{operation_type="start_container"} 1
                        """)
                .contains("kubelet_runtime_operations_duration_seconds_bucket{operation_type=\"list_containers\",le=\"0.005\"} ")
                .contains("kubelet_runtime_operations_duration_seconds_bucket{operation_type=\"list_containers\",le=\"0.0125\"} ")
                .contains("kubelet_runtime_operations_duration_seconds_bucket{operation_type=\"list_containers\",le=\"745.0580596923828\"} 2\n")
                .contains("kubelet_runtime_operations_duration_seconds_count{operation_type=\"list_containers\"} 2\n")
                .contains("""
                        kubelet_pleg_relist_duration_seconds_bucket{le="0.01"} 0
                        kubelet_pleg_relist_duration_seconds_bucket{le="0.025"} 1
                        """)
                .contains("kubelet_pleg_relist_duration_seconds_bucket{le=\"10\"} 1\nkubelet_pleg_relist_duration_seconds_bucket{le=\"+Inf\"} 1\n"
                        + "kubelet_pleg_relist_duration_seconds_sum 0.02\nkubelet_pleg_relist_duration_seconds_count 1\n")
                .contains("kubelet_pod_worker_duration_seconds_bucket{operation_type=\"sync\",le=\"0.05\"} 1\n")
                .contains("kubelet_node_name{node=\"node-a\"} 1\n")
                .contains("# HELP process_start_time_seconds [ALPHA] Start time of the process since unix epoch in seconds.\n")
                // An unlabelled histogram shows from the start, as Go's does; the first relist has no interval.
                .contains("kubelet_pleg_relist_interval_seconds_count 0\n")
                // So do the resource managers' counters, whatever their policies (ResourceManagerMetricsTest counts).
                .contains("""
                        # HELP kubelet_topology_manager_admission_requests_total [ALPHA] The number of admission requests where resources have to be aligned.
                        # TYPE kubelet_topology_manager_admission_requests_total counter
                        kubelet_topology_manager_admission_requests_total 0
                        """)
                .contains("kubelet_topology_manager_admission_errors_total 0\n")
                .contains("kubelet_topology_manager_admission_duration_ms_count 0\n")
                .contains("kubelet_cpu_manager_pinning_requests_total 0\n")
                .contains("kubelet_cpu_manager_pinning_errors_total 0\n")
                .contains("kubelet_memory_manager_pinning_requests_total 0\n")
                .contains("kubelet_memory_manager_pinning_errors_total 0\n");
    }

    @Test
    void theStatsPathsAreInTheAuthNotRequiredGroup() {
        Router.Builder router = Router.builder();
        new KubeletHandlers(view, List.of()).installAuthNotRequired(router);
        Router built = router.build();
        for (String path : List.of("/stats/summary", "/metrics", "/metrics/resource", "/metrics/cadvisor", "/metrics/probes")) {
            assertThat(built.match("GET", path)).as(path).isInstanceOf(Router.Found.class);
        }
        assertThat(built.match("POST", "/stats/summary")).isInstanceOf(Router.Found.class);
    }
}
