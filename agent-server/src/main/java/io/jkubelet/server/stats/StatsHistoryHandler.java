package io.jkubelet.server.stats;

import io.jkubelet.core.stats.history.StatsHistory;
import io.jkubelet.core.stats.history.UsageRing;
import io.jkubelet.server.http.Handler;
import io.jkubelet.server.http.Request;
import io.jkubelet.server.http.Response;
import io.jkubelet.server.http.Router;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonWriteFeature;

/**
 * {@code GET /stats/history}: the last 15 minutes of usage from the {@link StatsHistory}, one sample per stats
 * round, as columns (what a chart plots, and easy to read from a script):
 *
 * <ul>
 *   <li>no parameter: the node;
 *   <li>{@code ?pod=<namespace>/<name>}: that pod (its sandbox and containers together), and the names of its
 *       containers that have a history;
 *   <li>{@code ?pod=<namespace>/<name>&container=<name>}: one container (no network: it shares the pod's).
 * </ul>
 *
 * <p>The answer has {@code periodSeconds}, {@code windowSeconds}, {@code time} (Unix seconds of each round) and one
 * array per metric ({@code cpuNanoCores}, {@code memoryWorkingSetBytes}, {@code rxBytesPerSecond},
 * {@code txBytesPerSecond}, {@code fsUsedBytes}) with {@code null} where a round did not measure it. A parameter
 * it does not know, a pod not written {@code namespace/name}, or a container without a pod is 400; a pod or
 * container with no history is 404; each with a message saying which.
 */
public final class StatsHistoryHandler implements Handler {
    public static final String PATH = "/stats/history";
    private static final Set<String> PARAMETERS = Set.of("pod", "container");
    /** Characters outside the Basic Multilingual Plane as {@code \\uXXXX} surrogate pairs, as under Jackson 2. */
    private static final JsonFactory JSON =
            JsonFactory.builder().disable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8).build();

    private final Supplier<Optional<StatsHistory>> history;
    private final long periodSeconds;

    /** @param history the kubelet's history; empty where the node keeps none (then 404) */
    public StatsHistoryHandler(Supplier<Optional<StatsHistory>> history, long periodSeconds) {
        this.history = history;
        this.periodSeconds = periodSeconds;
    }

    public void install(Router.Builder router) {
        router.get(PATH, Handler.blocking(this));
    }

    @Override
    public Response handle(Request request) {
        for (String name : request.query().keySet()) {
            if (!PARAMETERS.contains(name)) {
                return Response.text(400, "unknown query parameter \"" + name + "\": " + PATH
                        + " takes pod=<namespace>/<name> and container=<name>");
            }
            if (request.queryParams(name).size() > 1) {
                return Response.text(400, "query parameter \"" + name + "\" given more than once");
            }
        }
        String pod = request.queryParam("pod");
        String container = request.queryParam("container");
        if (container != null && pod == null) {
            return Response.text(400, "container=" + container + " needs pod=<namespace>/<name>");
        }
        Optional<StatsHistory> kept = history.get();
        if (kept.isEmpty()) {
            return Response.text(404, "this node keeps no stats history");
        }
        StatsHistory h = kept.get();
        if (pod == null) {
            return encode("node", null, null, null, h.node());
        }
        int slash = pod.indexOf('/');
        if (slash <= 0 || slash == pod.length() - 1 || pod.indexOf('/', slash + 1) >= 0) {
            return Response.text(400, "pod=" + pod + ": expected <namespace>/<name>");
        }
        String namespace = pod.substring(0, slash);
        String name = pod.substring(slash + 1);
        Optional<StatsHistory.PodSeries> podSeries = h.pod(namespace, name);
        if (podSeries.isEmpty()) {
            return Response.text(404, "no stats history for pod " + pod
                    + " (not on this node, or not yet in a stats round: they run every " + periodSeconds + " s)");
        }
        if (container == null) {
            return encode("pod", podSeries.get(), null, podSeries.get().containers(), podSeries.get().series());
        }
        Optional<UsageRing.Series> series = h.container(namespace, name, container);
        if (series.isEmpty()) {
            return Response.text(404, "no stats history for container \"" + container + "\" of pod " + pod
                    + "; containers with one: " + podSeries.get().containers());
        }
        return encode("container", podSeries.get(), container, null, series.get());
    }

    private Response encode(String kind, StatsHistory.PodSeries pod, String container,
                            List<String> containers, UsageRing.Series series) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1024 + series.size() * 64);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringProperty("kind", kind);
            if (pod != null) {
                g.writeObjectPropertyStart("podRef");
                g.writeStringProperty("namespace", pod.ref().namespace());
                g.writeStringProperty("name", pod.ref().name());
                g.writeStringProperty("uid", pod.ref().uid());
                g.writeEndObject();
            }
            if (container != null) {
                g.writeStringProperty("container", container);
            }
            if (containers != null) {
                g.writeArrayPropertyStart("containers");
                for (String c : containers) {
                    g.writeString(c);
                }
                g.writeEndArray();
            }
            g.writeNumberProperty("periodSeconds", periodSeconds);
            g.writeNumberProperty("windowSeconds", StatsHistory.WINDOW.toSeconds());
            g.writeArrayPropertyStart("time");
            for (long t : series.timesMillis()) {
                g.writeNumber(t / 1000);
            }
            g.writeEndArray();
            for (UsageRing.Metric m : UsageRing.Metric.values()) {
                g.writeArrayPropertyStart(m.jsonName());
                for (long v : series.column(m)) {
                    if (v == UsageRing.MISSING) {
                        g.writeNull();
                    } else {
                        g.writeNumber(v);
                    }
                }
                g.writeEndArray();
            }
            g.writeEndObject();
        }
        return Response.json(out.toByteArray());
    }
}
