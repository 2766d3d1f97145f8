package io.jkubelet.server.timeline;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.timeline.PodTimeline;
import io.jkubelet.core.timeline.TimelineEntry;
import io.jkubelet.core.timeline.WaitingReasons;
import io.jkubelet.server.KubeletView;
import io.jkubelet.server.http.Handler;
import io.jkubelet.server.http.Request;
import io.jkubelet.server.http.Response;
import io.jkubelet.server.http.Router;
import java.io.ByteArrayOutputStream;
import java.time.Clock;
import java.util.Optional;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonWriteFeature;

/**
 * {@code GET /debug/pods/<namespace>/<name>/timeline} (jkubelet's): what happened to the pod, oldest first, and why
 * each of its waiting containers waits, spelled out ({@link WaitingReasons}). 404 with a message for a pod this
 * node has no timeline of. Query parameters are refused (400): there are none.
 */
public final class PodTimelineHandler implements Handler {
    public static final String ROUTE = "/debug/pods/{podNamespace}/{podID}/timeline";
    /** Characters outside the Basic Multilingual Plane as {@code \\uXXXX} surrogate pairs, as under Jackson 2. */
    private static final JsonFactory JSON =
            JsonFactory.builder().disable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8).build();

    private final KubeletView view;
    private final Clock clock;

    public PodTimelineHandler(KubeletView view, Clock clock) {
        this.view = view;
        this.clock = clock;
    }

    public void install(Router.Builder router) {
        router.get(ROUTE, Handler.blocking(this));
    }

    @Override
    public Response handle(Request request) {
        if (!request.query().isEmpty()) {
            return Response.text(400, "unknown query parameter \"" + request.query().keySet().iterator().next()
                    + "\": the timeline takes none");
        }
        String namespace = request.pathParam("podNamespace");
        String name = request.pathParam("podID");
        Optional<PodTimeline> timeline = view.podTimeline(namespace, name);
        if (timeline.isEmpty()) {
            return Response.text(404, "pod " + namespace + "/" + name + " has no timeline on this node");
        }
        Optional<Pod> pod = view.podByName(namespace, name)
                .filter(p -> timeline.get().uid().equals(p.getMetadata().getUid()));
        PodStatus status = pod.map(Pod::getStatus).orElse(null);
        return Response.json(encode(timeline.get(), status));
    }

    private byte[] encode(PodTimeline timeline, PodStatus status) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeObjectPropertyStart("podRef");
            g.writeStringProperty("namespace", timeline.namespace());
            g.writeStringProperty("name", timeline.name());
            g.writeStringProperty("uid", timeline.uid());
            g.writeEndObject();
            // A pod no longer on the node keeps its timeline a while; it has no phase then.
            if (status != null && status.getPhase() != null) {
                g.writeStringProperty("phase", status.getPhase());
            }
            g.writeArrayPropertyStart("waiting");
            for (WaitingReasons.Waiting w : WaitingReasons.of(status, clock.instant())) {
                g.writeStartObject();
                g.writeStringProperty("container", w.container());
                g.writeStringProperty("reason", w.reason());
                g.writeStringProperty("text", w.text());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayPropertyStart("entries");
            for (TimelineEntry e : timeline.entries()) {
                g.writeStartObject();
                g.writeStringProperty("time", e.time().toString());
                if (e.count() > 1) {
                    g.writeStringProperty("lastTime", e.lastTime().toString());
                    g.writeNumberProperty("count", e.count());
                }
                g.writeStringProperty("type", e.type());
                g.writeStringProperty("reason", e.reason());
                if (e.container() != null) {
                    g.writeStringProperty("container", e.container());
                }
                g.writeStringProperty("message", e.message());
                if (e.exitCode() != null) {
                    g.writeNumberProperty("exitCode", e.exitCode());
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        return out.toByteArray();
    }
}
