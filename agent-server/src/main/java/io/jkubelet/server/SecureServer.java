package io.jkubelet.server;

import io.jkubelet.server.http.HttpServer;
import io.jkubelet.server.http.HttpServerConfig;
import io.jkubelet.server.http.RequestFilter;
import io.jkubelet.server.http.Router;
import io.jkubelet.server.tls.TlsContext;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * The kubelet's main server on {@code port} (10250): always TLS, every request authenticated and
 * authorized by the {@linkplain io.jkubelet.server.auth.AuthFilter auth filter} before it is routed,
 * serving the default handlers and, when {@code enableDebuggingHandlers}, the debugging ones (else
 * those answer 405).
 */
public final class SecureServer implements AutoCloseable {

    /** Upstream's default {@code port}. */
    public static final int DEFAULT_PORT = 10250;

    private final HttpServer server;

    private SecureServer(HttpServer server) {
        this.server = server;
    }

    /**
     * @param auth authentication and authorization of every request
     * @param debug the debugging extras, served only with {@code debugging}
     * @throws IOException when the address cannot be bound; the message names it
     */
    public static SecureServer start(HttpServerConfig config, TlsContext tls, RequestFilter auth, KubeletHandlers handlers,
            boolean debugging, DebugHandlers debug) throws IOException {
        return new SecureServer(HttpServer.start(config, router(handlers, debugging, debug), tls::sslContext, auth));
    }

    static Router router(KubeletHandlers handlers, boolean debugging, DebugHandlers debug) {
        Router.Builder router = Router.builder();
        handlers.installAuthNotRequired(router);
        if (debugging) {
            handlers.installDebugging(router);
            handlers.installStreaming(router);
            debug.install(router);
        } else {
            KubeletHandlers.installDebuggingDisabled(router);
        }
        return router.build();
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
