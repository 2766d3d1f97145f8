package io.jkubelet.server.tls;

import io.netty.handler.ssl.SslContext;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * The secure server's TLS settings, made at start-up from the serving certificate, {@code tlsMinVersion},
 * {@code tlsCipherSuites} and the client CAs. Opaque outside this module: only the server reads the Netty context.
 * The serving certificate can be {@linkplain #use replaced} (a rotated one): new handshakes get it, open connections
 * keep theirs. Thread-safe.
 */
public final class TlsContext {
    /** Builds a context for a certificate with the settings fixed at start-up. */
    @FunctionalInterface
    interface Builder {
        SslContext build(List<X509Certificate> chain, PrivateKey key, String what) throws TlsConfigException;
    }

    private final Builder builder;
    private volatile SslContext sslContext;

    TlsContext(SslContext sslContext, Builder builder) {
        this.sslContext = sslContext;
        this.builder = builder;
    }

    /** For the server's channel pipeline: read for each new connection. */
    public SslContext sslContext() {
        return sslContext;
    }

    /**
     * Serves {@code chain} from the next handshake on; connections already open keep the certificate they got.
     *
     * @param what where the certificate comes from, for messages
     * @throws TlsConfigException when the pair cannot be served; the one before stays
     */
    public void use(List<X509Certificate> chain, PrivateKey key, String what) throws TlsConfigException {
        sslContext = builder.build(chain, key, what);
    }
}
