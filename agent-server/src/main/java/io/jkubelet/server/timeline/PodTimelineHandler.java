package io.jkubelet.server.timeline;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
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
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.Optional;

/**
 * {@code GET /debug/pods/<namespace>/<name>/timeline} (jkubelet's): what happened to the pod, oldest first, and why
 * each of its waiting containers waits, spelled out ({@link WaitingReasons}). 404 with a message for a pod this
 * node has no timeline of. Query parameters are refused (400): there are none.
 */
public final class PodTimelineHandler implements Handler {
    public static final String ROUTE = "/debug/pods/{podNamespace}/{podID}/timeline";
    private static final JsonFactory JSON = new JsonFactory();

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
            g.writeObjectFieldStart("podRef");
            g.writeStringField("namespace", timeline.namespace());
            g.writeStringField("name", timeline.name());
            g.writeStringField("uid", timeline.uid());
            g.writeEndObject();
            // A pod no longer on the node keeps its timeline a while; it has no phase then.
            if (status != null && status.getPhase() != null) {
                g.writeStringField("phase", status.getPhase());
            }
            g.writeArrayFieldStart("waiting");
            for (WaitingReasons.Waiting w : WaitingReasons.of(status, clock.instant())) {
                g.writeStartObject();
                g.writeStringField("container", w.container());
                g.writeStringField("reason", w.reason());
                g.writeStringField("text", w.text());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("entries");
            for (TimelineEntry e : timeline.entries()) {
                g.writeStartObject();
                g.writeStringField("time", e.time().toString());
                if (e.count() > 1) {
                    g.writeStringField("lastTime", e.lastTime().toString());
                    g.writeNumberField("count", e.count());
                }
                g.writeStringField("type", e.type());
                g.writeStringField("reason", e.reason());
                if (e.container() != null) {
                    g.writeStringField("container", e.container());
                }
                g.writeStringField("message", e.message());
                if (e.exitCode() != null) {
                    g.writeNumberField("exitCode", e.exitCode());
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
