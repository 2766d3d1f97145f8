package io.jkubelet.server;

import io.jkubelet.server.healthz.HealthChecker;
import io.jkubelet.server.http.HttpServer;
import io.jkubelet.server.http.HttpServerConfig;
import io.jkubelet.server.http.Router;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;

/**
 * The kubelet's read-only port ({@code readOnlyPort}, 10255 by convention, off by default): no
 * authentication, so only the handlers that need none: {@code /healthz} and {@code /pods}; every
 * debugging path ({@code /runningpods/}, {@code /exec/}, {@code /containerLogs/}, ...) answers 405 {@code
 * Debug endpoints are disabled.}, as upstream's {@code ListenAndServeKubeletReadOnlyServer}.
 *
 * <p>Thread-safe; {@link #close()} is idempotent.
 */
public final class ReadOnlyServer implements AutoCloseable {

    /** The read-only port by convention, when {@code readOnlyPort} enables it. */
    public static final int DEFAULT_PORT = 10255;

    private final HttpServer server;

    private ReadOnlyServer(HttpServer server) {
        this.server = server;
    }

    /**
     * Serves the read-only port on {@code address:port} (the kubelet's {@code address} and {@code
     * readOnlyPort}) with the kubelet's HTTP settings.
     *
     * @param healthChecks the checks after {@code ping} (upstream: {@code log}, {@code syncloop}, ...)
     * @throws IOException when the address cannot be bound; the message names it
     */
    public static ReadOnlyServer start(InetAddress address, int port, KubeletView view, List<HealthChecker> healthChecks)
            throws IOException {
        return start(HttpServerConfig.kubeletDefaults("readonly", address, port), view, healthChecks, false);
    }

    /**
     * As {@link #start(InetAddress, int, KubeletView, List)}, optionally also serving {@code GET /runningpods/}.
     * Upstream answers 405 there; jkubelet serves it when debugging handlers are enabled, because it only
     * reads, and a standalone node has no other port that shows what the runtime runs.
     */
    public static ReadOnlyServer start(InetAddress address, int port, KubeletView view, List<HealthChecker> healthChecks,
            boolean serveRunningPods) throws IOException {
        return start(HttpServerConfig.kubeletDefaults("readonly", address, port), view, healthChecks, serveRunningPods);
    }

    /** As {@link #start(InetAddress, int, KubeletView, List, boolean)} with explicit server settings. */
    public static ReadOnlyServer start(HttpServerConfig config, KubeletView view, List<HealthChecker> healthChecks,
            boolean serveRunningPods) throws IOException {
        return new ReadOnlyServer(HttpServer.start(config, router(view, healthChecks, serveRunningPods)));
    }

    static Router router(KubeletView view, List<HealthChecker> healthChecks, boolean serveRunningPods) {
        Router.Builder router = Router.builder();
        KubeletHandlers handlers = new KubeletHandlers(view, healthChecks);
        handlers.installAuthNotRequired(router);
        if (serveRunningPods) {
            handlers.installRunningPods(router);
            KubeletHandlers.installDebuggingDisabled(router, Set.of(KubeletHandlers.RUNNING_PODS_PATH));
        } else {
            KubeletHandlers.installDebuggingDisabled(router);
        }
        return router.build();
    }

    /** The bound port (useful when started on port 0). */
    public int port() {
        return server.port();
    }

    public InetSocketAddress localAddress() {
        return server.localAddress();
    }

    @Override
    public void close() {
        server.close();
    }
}
