package io.jkubelet.server;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.stats.StatsProvider;
import io.jkubelet.server.dashboard.DashboardHandlers;
import io.jkubelet.server.healthz.HealthChecker;
import io.jkubelet.server.healthz.Healthz;
import io.jkubelet.server.http.Handler;
import io.jkubelet.server.http.Response;
import io.jkubelet.server.http.Router;
import io.jkubelet.server.json.PodListEncoder;
import io.jkubelet.server.logs.ContainerLogReader;
import io.jkubelet.server.logs.ContainerLogsHandler;
import io.jkubelet.server.logs.SystemLogHandler;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import io.jkubelet.server.stats.StatsHandlers;
import io.jkubelet.server.stats.StatsHistoryHandler;
import io.jkubelet.server.streaming.StreamingHandlers;
import io.jkubelet.server.streaming.StreamingSessions;
import io.jkubelet.server.timeline.PodTimelineHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's endpoints, grouped as upstream's {@code server.Server} installs them, so that each server
 * (10250, 10255) assembles the groups it serves.
 *
 * <ul>
 *   <li>{@link #installAuthNotRequired}: {@code /healthz} ({@code ping} first, then the given checks),
 *       {@code GET /pods}, {@code GET /metrics}, {@code /metrics/probes}, {@code /metrics/resource},
 *       {@code /metrics/cadvisor}, {@code GET|POST /stats/summary} jkubelet's {@code GET /stats/history} and
 *       {@code GET /debug/pods/<namespace>/<name>/timeline}, and the dashboard ({@code /dashboard/}). Served on
 *       every kubelet port.
 *   <li>{@link #installDebugging}: {@code GET /runningpods/}, {@code POST /run/...}, {@code GET
 *       /containerLogs/...} and {@code GET /logs/} (or its 405 when {@code enableSystemLogHandler} is off).
 *       Only on the authenticated port with {@code enableDebuggingHandlers}.
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

    /** Upstream's {@code /containerLogs} route. */
    public static final String CONTAINER_LOGS_ROUTE = "/containerLogs/{podNamespace}/{podID}/{containerName}";

    /** Upstream's two {@code /run} routes. */
    public static final List<String> RUN_ROUTES =
            List.of("/run/{podNamespace}/{podID}/{containerName}", "/run/{podNamespace}/{podID}/{uid}/{containerName}");

    /**
     * Settings of the debugging handlers that read the node.
     *
     * @param systemLogDir what {@code /logs/} serves (upstream: {@code /var/log})
     * @param enableSystemLogHandler {@code enableSystemLogHandler}; false answers 405 {@code logs endpoint is
     *     disabled.} on {@code /logs/}
     * @param logFollowPoll how often a followed container log looks for new lines
     * @param clock the clock {@code sinceSeconds} counts back from
     */
    public record DebuggingOptions(Path systemLogDir, boolean enableSystemLogHandler, Duration logFollowPoll, Clock clock) {
        public DebuggingOptions {
            Objects.requireNonNull(systemLogDir, "systemLogDir");
            Objects.requireNonNull(logFollowPoll, "logFollowPoll");
            Objects.requireNonNull(clock, "clock");
        }

        /** The kubelet's: {@code /var/log}, enabled, one-second follow checks. */
        public static DebuggingOptions defaults() {
            return new DebuggingOptions(Path.of("/var/log"), true, ContainerLogReader.DEFAULT_POLL_INTERVAL, Clock.systemUTC());
        }

        /** The defaults with the configuration's {@code enableSystemLogHandler} (unset means true, its default). */
        public static DebuggingOptions of(KubeletConfiguration config) {
            DebuggingOptions d = defaults();
            return new DebuggingOptions(d.systemLogDir(), !Boolean.FALSE.equals(config.enableSystemLogHandler()),
                    d.logFollowPoll(), d.clock());
        }
    }

    private final KubeletView view;
    private final List<HealthChecker> healthChecks;
    private final PodListEncoder encoder;
    private final StatsHandlers stats;
    private final DebuggingOptions debugging;
    private final StreamingSessions streamingSessions;

    /**
     * @param view the pods to serve
     * @param healthChecks the kubelet's checks after {@code ping}, in order (upstream: {@code log},
     *     {@code syncloop}, then any extra checkers)
     */
    public KubeletHandlers(KubeletView view, List<HealthChecker> healthChecks) {
        this(view, healthChecks, DebuggingOptions.defaults());
    }

    /** As {@link #KubeletHandlers(KubeletView, List)} with the debugging handlers' settings. */
    public KubeletHandlers(KubeletView view, List<HealthChecker> healthChecks, DebuggingOptions debugging) {
        this(view, healthChecks, new PodListEncoder(), debugging, StreamingSessions.defaults());
    }

    /** @param streamingSessions the bounds on exec, attach and port-forward sessions */
    public KubeletHandlers(KubeletView view, List<HealthChecker> healthChecks,
            StreamingSessions streamingSessions) {
        this(view, healthChecks, new PodListEncoder(), DebuggingOptions.defaults(), streamingSessions);
    }

    /** The secure server's handlers: debugging settings and streaming bounds. */
    public KubeletHandlers(KubeletView view, List<HealthChecker> healthChecks, DebuggingOptions debugging,
            StreamingSessions streamingSessions) {
        this(view, healthChecks, new PodListEncoder(), debugging, streamingSessions);
    }

    KubeletHandlers(KubeletView view, List<HealthChecker> healthChecks, PodListEncoder encoder) {
        this(view, healthChecks, encoder, DebuggingOptions.defaults(), StreamingSessions.defaults());
    }

    private KubeletHandlers(KubeletView view, List<HealthChecker> healthChecks, PodListEncoder encoder, DebuggingOptions debugging,
            StreamingSessions streamingSessions) {
        this.view = Objects.requireNonNull(view, "view");
        this.healthChecks = List.copyOf(healthChecks);
        this.encoder = encoder;
        this.stats = new StatsHandlers(view::stats);
        this.debugging = Objects.requireNonNull(debugging, "debugging");
        this.streamingSessions = Objects.requireNonNull(streamingSessions, "streamingSessions");
    }

    /** Registers {@code /healthz} (and one path per check), {@code GET /pods}, the metrics paths and {@code /stats/summary}. */
    public void installAuthNotRequired(Router.Builder router) {
        List<HealthChecker> checks = new ArrayList<>();
        checks.add(HealthChecker.PING);
        checks.addAll(healthChecks);
        Healthz.install(router, "/healthz", checks, view.healthcheckSlis());
        router.get(PODS_PATH, Handler.blocking(request -> Response.sharedJson(encoder.encode(pods(view.pods())))));
        MetricsHandlers.installProbes(router, view.probeMetrics());
        MetricsHandlers.installSlis(router, view.healthcheckSlis().registry());
        // Upstream installs /metrics, /metrics/cadvisor, /metrics/resource and /stats/ here too (auth-not-required group).
        MetricsHandlers.installKubelet(router, view.kubeletMetrics());
        stats.install(router);
        new StatsHistoryHandler(view::statsHistory,
                StatsProvider.DEFAULT_PERIOD.toSeconds()).install(router);
        new PodTimelineHandler(view, debugging.clock()).install(router);
        new DashboardHandlers(view).install(router);
    }

    /**
     * Registers the debugging endpoints this module implements so far, as upstream's {@code
     * InstallAuthRequiredHandlers} and {@code InstallSystemLogHandler}: {@code GET /runningpods/}, {@code POST
     * /run/...}, {@code GET /containerLogs/...}, {@code GET /logs/}.
     */
    public void installDebugging(Router.Builder router) {
        installRunningPods(router);
        RunInContainerHandler run = new RunInContainerHandler(view);
        for (String route : RUN_ROUTES) {
            router.route("POST", route, run);
        }
        // The ContainerCheckpoint gate is on in v1.30 (jkubelet takes only its default).
        router.route("POST", CheckpointHandler.ROUTE, new CheckpointHandler(view));
        router.get(CONTAINER_LOGS_ROUTE,
                new ContainerLogsHandler(view, debugging.clock(), new ContainerLogReader(debugging.logFollowPoll())));
        if (debugging.enableSystemLogHandler()) {
            router.get(SystemLogHandler.PATH, new SystemLogHandler(debugging.systemLogDir()));
        } else {
            router.any(SystemLogHandler.PATH, request -> Response.goError(405, "logs endpoint is disabled."));
        }
    }

    /** Registers {@code GET /runningpods/} alone (what the read-only port may serve, see {@link ReadOnlyServer}). */
    public void installRunningPods(Router.Builder router) {
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
        new StreamingHandlers(() -> pods(view.pods()), view.streaming(), streamingSessions)
                .install(router);
    }

    /** Registers 405 {@code Debug endpoints are disabled.} on every debugging path. */
    public static void installDebuggingDisabled(Router.Builder router) {
        installDebuggingDisabled(router, Set.of());
    }

    /** Registers 405 {@code Debug endpoints are disabled.} on every debugging path but {@code served}. */
    public static void installDebuggingDisabled(Router.Builder router, Set<String> served) {
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
