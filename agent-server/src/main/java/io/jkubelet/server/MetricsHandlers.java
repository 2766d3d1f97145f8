package io.jkubelet.server;

import io.jkubelet.server.http.Handler;
import io.jkubelet.server.http.Response;
import io.jkubelet.server.http.Router;
import io.jkubelet.server.stats.GoTextFormat;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * The kubelet's {@code /metrics/*} paths, each scraping its own registry in the Prometheus text format
 * 0.0.4, as upstream's {@code promhttp} handlers answer when OpenMetrics is not enabled. Thread-safe.
 */
public final class MetricsHandlers {
    /** Upstream's {@code proberMetricsPath}. */
    public static final String PROBER_METRICS_PATH = "/metrics/probes";
    /** component-base's {@code slis} path. */
    public static final String SLIS_METRICS_PATH = "/metrics/slis";
    /** Upstream's {@code metricsPath}: the legacy registry, the kubelet's own metrics. */
    public static final String METRICS_PATH = "/metrics";
    /** A registry with nothing in it, for views that have no kubelet metrics. */
    static final PrometheusRegistry EMPTY_REGISTRY = new PrometheusRegistry();
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private static final PrometheusTextFormatWriter WRITER = PrometheusTextFormatWriter.create();

    private MetricsHandlers() {}

    /** Registers {@code GET /metrics/probes}: {@code prober_probe_total} and {@code prober_probe_duration_seconds}. */
    public static void installProbes(Router.Builder router, PrometheusRegistry registry) {
        router.get(PROBER_METRICS_PATH, Handler.blocking(request -> scrape(registry)));
    }

    /** Registers {@code GET /metrics/slis}: the health check SLIs (upstream's {@code ComponentSLIs} gate, on). */
    public static void installSlis(Router.Builder router, PrometheusRegistry registry) {
        router.get(SLIS_METRICS_PATH, Handler.blocking(request ->
                Response.of(200, CONTENT_TYPE, GoTextFormat.write(registry.scrape()))));
    }

    /** Registers {@code GET /metrics}: the kubelet's own metrics, numbers written as Go writes them. */
    public static void installKubelet(Router.Builder router, PrometheusRegistry registry) {
        router.get(METRICS_PATH, Handler.blocking(request ->
                Response.of(200, CONTENT_TYPE, GoTextFormat.write(registry.scrape()))));
    }

    static Response scrape(PrometheusRegistry registry) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        WRITER.write(out, registry.scrape());
        return Response.of(200, CONTENT_TYPE, out.toByteArray());
    }
}
