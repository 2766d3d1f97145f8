package io.jkubelet.core.probe;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;

/**
 * The TLS client of {@code https} probes and hooks, which (as upstream's {@code InsecureSkipVerify}) checks
 * neither the certificate chain nor the host name: containers serve self-signed certificates for their
 * pod IPs. The trust manager lives only in the {@link SSLContext} made here, never installed as a JVM
 * default, so no other TLS client of the agent is weakened.
 */
final class InsecureTls {
    private InsecureTls() {}

    static SSLSocketFactory socketFactory() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new TrustAll()}, null);
            return context.getSocketFactory();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK offers no TLS client: " + e.getMessage(), e);
        }
    }

    /**
     * An {@link X509ExtendedTrustManager}, not a plain {@code X509TrustManager}: the JDK wraps a plain one in
     * a manager that still checks the host name, which upstream does not.
     */
    private static final class TrustAll extends X509ExtendedTrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {}

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
