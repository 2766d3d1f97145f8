package io.jkubelet.server;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.server.healthz.HealthChecker;
import io.jkubelet.server.healthz.Healthz;
import io.jkubelet.server.http.Handler;
import io.jkubelet.server.http.Response;
import io.jkubelet.server.http.Router;
import io.jkubelet.server.json.PodListEncoder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's endpoints, grouped as upstream's {@code server.Server} installs them, so that each server
 * (10250, 10255) assembles the groups it serves.
 *
 * <ul>
 *   <li>{@link #installAuthNotRequired}: {@code /healthz} ({@code ping} first, then the given checks) and
 *       {@code GET /pods}, {@code GET /metrics/probes}. Served on every kubelet port (later also /stats and
 *       the other /metrics paths).
 *   <li>{@link #installDebugging}: {@code GET /runningpods/} (later run, exec, attach, portForward,
 *       containerLogs, configz). Only on the authenticated port with {@code enableDebuggingHandlers}.
 *   <li>{@link #installDebuggingDisabled}: the same paths answering 405 {@code Debug endpoints are
 *       disabled.}: on the read-only port, and on 10250 when debugging handlers are off.
 * </ul>
 *
 * Immutable and thread-safe.
 */
public final class KubeletHandlers {

    private static final Logger log = LoggerFactory.getLogger(KubeletHandlers.class);

    /** Upstream's {@code runningPodsPath}; a subtree, so {@code /runningpods} redirects to it. */
    public static final String RUNNING_PODS_PATH = "/runningpods/";

    /** Upstream's {@code podsPath}. */
    public static final String PODS_PATH = "/pods";

    /** The paths {@code InstallDebuggingDisabledHandlers} registers, in upstream's order. */
    public static final List<String> DEBUGGING_PATHS =
            List.of("/run/", "/exec/", "/attach/", "/portForward/", "/containerLogs/", RUNNING_PODS_PATH, "/debug/pprof/", "/logs/");

    private final KubeletView view;
    private final List<HealthChecker> healthChecks;
    private final PodListEncoder encoder;
    private final io.jkubelet.server.streaming.StreamingSessions streamingSessions;

    /**
     * @param view the pods to serve
     * @param healthChecks the kubelet's checks after {@code ping}, in order (upstream: {@code log},
     *     {@code syncloop}, then any extra checkers)
     */
    public KubeletHandlers(KubeletView view, List<HealthChecker> healthChecks) {
        this(view, healthChecks, new PodListEncoder());
    }

    /** @param streamingSessions the bounds on exec, attach and port-forward sessions */
    public KubeletHandlers(KubeletView view, List<HealthChecker> healthChecks,
            io.jkubelet.server.streaming.StreamingSessions streamingSessions) {
        this(view, healthChecks, new PodListEncoder(), streamingSessions);
    }

    KubeletHandlers(KubeletView view, List<HealthChecker> healthChecks, PodListEncoder encoder) {
        this(view, healthChecks, encoder, io.jkubelet.server.streaming.StreamingSessions.defaults());
    }

    private KubeletHandlers(KubeletView view, List<HealthChecker> healthChecks, PodListEncoder encoder,
            io.jkubelet.server.streaming.StreamingSessions streamingSessions) {
        this.view = Objects.requireNonNull(view, "view");
        this.healthChecks = List.copyOf(healthChecks);
        this.encoder = encoder;
        this.streamingSessions = Objects.requireNonNull(streamingSessions, "streamingSessions");
    }

    /** Registers {@code /healthz} (and one path per check), {@code GET /pods} and {@code GET /metrics/probes}. */
    public void installAuthNotRequired(Router.Builder router) {
        List<HealthChecker> checks = new ArrayList<>();
        checks.add(HealthChecker.PING);
        checks.addAll(healthChecks);
        Healthz.install(router, "/healthz", checks);
        router.get(PODS_PATH, Handler.blocking(request -> Response.json(encoder.encode(pods(view.pods())))));
        MetricsHandlers.installProbes(router, view.probeMetrics());
    }

    /** Registers the debugging endpoints this module implements so far: {@code GET /runningpods/}. */
    public void installDebugging(Router.Builder router) {
        router.get(RUNNING_PODS_PATH, Handler.blocking(request -> {
            List<Pod> running;
            try {
                running = view.runningPods();
            } catch (Exception e) {
                log.warn("cannot list running pods for {}", RUNNING_PODS_PATH, e);
                // Upstream: response.WriteError(500, err), the error's text as the body.
                return Response.restfulError(500, e.getMessage() == null ? e.toString() : e.getMessage());
            }
            return Response.json(encoder.encode(pods(running)));
        }));
    }

    /**
     * Registers the streaming debugging endpoints: {@code /exec}, {@code /attach} and {@code /portForward}
     * (GET and POST, with and without the pod UID), served over WebSocket. Only for the authenticated
     * port with {@code enableDebuggingHandlers}: never on the read-only port, which has no auth.
     */
    public void installStreaming(Router.Builder router) {
        new io.jkubelet.server.streaming.StreamingHandlers(() -> pods(view.pods()), view.streaming(), streamingSessions)
                .install(router);
    }

    /** Registers 405 {@code Debug endpoints are disabled.} on every debugging path. */
    public static void installDebuggingDisabled(Router.Builder router) {
        installDebuggingDisabled(router, java.util.Set.of());
    }

    /** Registers 405 {@code Debug endpoints are disabled.} on every debugging path but {@code served}. */
    public static void installDebuggingDisabled(Router.Builder router, java.util.Set<String> served) {
        Handler disabled = request -> Response.goError(405, "Debug endpoints are disabled.");
        for (String path : DEBUGGING_PATHS) {
            if (!served.contains(path)) {
                router.any(path, disabled);
            }
        }
    }

    private static List<Pod> pods(List<Pod> pods) {
        return pods == null ? List.of() : pods;
    }
}
