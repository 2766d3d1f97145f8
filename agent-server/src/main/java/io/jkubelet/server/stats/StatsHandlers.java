package io.jkubelet.server.stats;

import io.jkubelet.core.stats.StatsSnapshot;
import io.jkubelet.server.http.Handler;
import io.jkubelet.server.http.Request;
import io.jkubelet.server.http.Response;
import io.jkubelet.server.http.Router;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code /stats/summary}, {@code /metrics/resource} and {@code /metrics/cadvisor}, all answered from the stats
 * provider's latest snapshot: a request never reaches the runtime. What is encoded from one snapshot is
 * cached until the next snapshot, so that many scrapers cost one encoding per collection round.
 * Thread-safe.
 */
public final class StatsHandlers {
    /** Upstream's {@code statsPath} + {@code /summary}. */
    public static final String SUMMARY_PATH = "/stats/summary";
    /** Upstream's {@code resourceMetricsPath}. */
    public static final String RESOURCE_METRICS_PATH = "/metrics/resource";
    /** Upstream's {@code cadvisorMetricsPath}. */
    public static final String CADVISOR_METRICS_PATH = "/metrics/cadvisor";
    /** What the promhttp handlers answer with when OpenMetrics is not negotiated. */
    static final String METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    static final String ONLY_CPU_AND_MEMORY = "only_cpu_and_memory";

    private final Supplier<Optional<StatsSnapshot>> stats;
    private final SummaryEncoder summaryEncoder = new SummaryEncoder();
    private final ResourceMetricsEncoder resourceEncoder = new ResourceMetricsEncoder();
    private final CadvisorMetricsEncoder cadvisorEncoder = new CadvisorMetricsEncoder();
    private final AtomicReference<Encoded> cache = new AtomicReference<>();

    /** The encodings of one snapshot, each made on first use. */
    private final class Encoded {
        final StatsSnapshot snapshot;
        volatile byte[] summary;
        volatile byte[] cpuAndMemory;
        volatile byte[] resource;
        volatile byte[] cadvisor;

        Encoded(StatsSnapshot snapshot) {
            this.snapshot = snapshot;
        }
    }

    public StatsHandlers(Supplier<Optional<StatsSnapshot>> stats) {
        this.stats = stats;
    }

    /** Registers the three paths, GET and POST for the summary (as upstream), GET for the metrics. */
    public void install(Router.Builder router) {
        Handler summary = Handler.blocking(this::summary);
        router.get(SUMMARY_PATH, summary);
        router.route("POST", SUMMARY_PATH, summary);
        router.get(RESOURCE_METRICS_PATH, Handler.blocking(request -> metrics(e -> {
            if (e.resource == null) {
                e.resource = resourceEncoder.encode(e.snapshot);
            }
            return e.resource;
        })));
        router.get(CADVISOR_METRICS_PATH, Handler.blocking(request -> metrics(e -> {
            if (e.cadvisor == null) {
                e.cadvisor = cadvisorEncoder.encode(e.snapshot);
            }
            return e.cadvisor;
        })));
    }

    private Response summary(Request request) {
        Encoded e = current();
        if (e.snapshot == null) {
            // Upstream's handleError: 500 with "Internal Error: <err>" as plain text.
            return Response.text(500, "Internal Error: stats have not been collected yet");
        }
        if (onlyCpuAndMemory(request)) {
            if (e.cpuAndMemory == null) {
                e.cpuAndMemory = summaryEncoder.encode(e.snapshot.summary().onlyCpuAndMemory());
            }
            return Response.sharedJson(e.cpuAndMemory);
        }
        if (e.summary == null) {
            e.summary = summaryEncoder.encode(e.snapshot.summary());
        }
        return Response.sharedJson(e.summary);
    }

    private Response metrics(Function<Encoded, byte[]> encoding) {
        return Response.of(200, METRICS_CONTENT_TYPE, encoding.apply(current()));
    }

    private Encoded current() {
        StatsSnapshot latest = stats.get().orElse(null);
        Encoded e = cache.get();
        if (e == null || e.snapshot != latest) {
            Encoded fresh = new Encoded(latest);
            e = cache.compareAndSet(e, fresh) ? fresh : new Encoded(latest);
        }
        return e;
    }

    /**
     * Upstream's test: after {@code ParseForm} (the query, and for a POST a form body), exactly one value,
     * and it is {@code true}. Any other value, or several, means the full summary; never an error.
     */
    static boolean onlyCpuAndMemory(Request request) {
        List<String> values = new ArrayList<>();
        String contentType = request.header("content-type");
        if (("POST".equals(request.method()) || "PUT".equals(request.method()) || "PATCH".equals(request.method()))
                && contentType != null && contentType.toLowerCase(Locale.ROOT).startsWith("application/x-www-form-urlencoded")) {
            for (String pair : new String(request.body(), StandardCharsets.UTF_8).split("&")) {
                int eq = pair.indexOf('=');
                String name = eq < 0 ? pair : pair.substring(0, eq);
                try {
                    if (URLDecoder.decode(name, StandardCharsets.UTF_8).equals(ONLY_CPU_AND_MEMORY)) {
                        values.add(eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                    }
                } catch (IllegalArgumentException e) {
                    // an undecodable pair does not name the parameter
                }
            }
        }
        values.addAll(request.queryParams(ONLY_CPU_AND_MEMORY));
        return values.size() == 1 && values.get(0).equals("true");
    }
}
