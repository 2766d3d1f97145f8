package io.jkubelet.server;

import io.jkubelet.server.healthz.HealthChecker;
import io.jkubelet.server.healthz.HealthcheckSlis;
import io.jkubelet.server.healthz.Healthz;
import io.jkubelet.server.http.HttpServer;
import io.jkubelet.server.http.HttpServerConfig;
import io.jkubelet.server.http.Router;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * The kubelet's healthz port ({@code healthzPort} 10248 on {@code healthzBindAddress} 127.0.0.1): only
 * {@code /healthz}. Upstream installs it with no checks, so only {@code ping} runs: it answers whether
 * the process serves HTTP at all, not whether the sync loop is healthy (that is {@code /healthz} on the
 * main and read-only ports).
 *
 * <p>Thread-safe; {@link #close()} is idempotent.
 */
public final class HealthzServer implements AutoCloseable {

    /** Upstream's default {@code healthzPort}. */
    public static final int DEFAULT_PORT = 10248;

    private final HttpServer server;

    private HealthzServer(HttpServer server) {
        this.server = server;
    }

    /**
     * Serves {@code /healthz} (ping only, as upstream) on {@code bindAddress:port}.
     *
     * @throws IOException when the address cannot be bound; the message names it
     */
    public static HealthzServer start(InetAddress bindAddress, int port) throws IOException {
        return start(bindAddress, port, null);
    }

    /** As {@link #start(InetAddress, int)}, recording the checks in {@code slis} (the agent's shared SLIs). */
    public static HealthzServer start(InetAddress bindAddress, int port, HealthcheckSlis slis) throws IOException {
        Router.Builder router = Router.builder();
        Healthz.install(router, "/healthz", List.of(), slis);
        return new HealthzServer(HttpServer.start(HttpServerConfig.kubeletDefaults("healthz", bindAddress, port),
                router.build()));
    }

    /** With explicit settings and checks (none means {@code ping} alone, as upstream). */
    public static HealthzServer start(HttpServerConfig config, List<HealthChecker> checks) throws IOException {
        Router.Builder router = Router.builder();
        Healthz.install(router, "/healthz", checks);
        return new HealthzServer(HttpServer.start(config, router.build()));
    }

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
