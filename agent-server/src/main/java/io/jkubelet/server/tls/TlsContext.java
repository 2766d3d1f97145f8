package io.jkubelet.server.tls;

import io.netty.handler.ssl.SslContext;

/**
 * The secure server's TLS settings, made once at start-up from the serving certificate, {@code tlsMinVersion},
 * {@code tlsCipherSuites} and the client CAs. Opaque outside this module: only the server reads the Netty context.
 */
public final class TlsContext {
    private final SslContext sslContext;

    TlsContext(SslContext sslContext) {
        this.sslContext = sslContext;
    }

    /** For the server's channel pipeline. */
    public SslContext sslContext() {
        return sslContext;
    }
}
