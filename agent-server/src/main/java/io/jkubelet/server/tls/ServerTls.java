package io.jkubelet.server.tls;

import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.netty.handler.ssl.JdkSslContext;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * The secure server's TLS context from the kubelet's settings: the serving certificate, {@code
 * tlsMinVersion} (Go's {@code VersionTLS1x} names), {@code tlsCipherSuites} (Go's names) and, when
 * {@code authentication.x509.clientCAFile} is set, a request for client certificates.
 *
 * <p>As the kubelet does ({@code tls.RequestClientCert}), a client certificate is requested but not
 * verified during the handshake: the x509 authenticator verifies it against the client CAs, so that an
 * untrusted certificate gets the kubelet's 401 instead of a failed handshake. The CAs are still named in
 * the handshake so that clients pick the right certificate.
 */
public final class ServerTls {

    /** Go's version names, lowest first, and the JDK's protocol names. */
    private static final Map<String, String> VERSIONS = new LinkedHashMap<>();

    static {
        VERSIONS.put("VersionTLS10", "TLSv1");
        VERSIONS.put("VersionTLS11", "TLSv1.1");
        VERSIONS.put("VersionTLS12", "TLSv1.2");
        VERSIONS.put("VersionTLS13", "TLSv1.3");
    }

    /** Go's TLS 1.3 suites: Go does not let them be configured, so they are always on. */
    private static final List<String> TLS13_SUITES =
            List.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256");

    /** Go's short names for suites the JDK (and the IANA registry) name with a trailing {@code _SHA256}. */
    private static final Map<String, String> GO_ALIASES = Map.of(
            "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305", "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256");

    private ServerTls() {}

    /**
     * @param minVersion {@code tlsMinVersion}; empty for Go's server default (TLS 1.2)
     * @param cipherSuites {@code tlsCipherSuites}; empty or null for the JDK's defaults
     * @param clientCAs the x509 client CAs, empty when client certificates are not requested
     * @throws TlsConfigException naming the bad version or suite
     */
    public static TlsContext context(ServingCertificate serving, String minVersion, List<String> cipherSuites,
            List<X509Certificate> clientCAs) throws TlsConfigException {
        String[] protocols = protocols(minVersion);
        List<String> ciphers = ciphers(cipherSuites);
        TlsContext.Builder build = (chain, key, what) -> {
            try {
                return new JdkSslContext(sslContext(chain, key, clientCAs), false, ciphers.isEmpty() ? null : ciphers,
                        IdentityCipherSuiteFilter.INSTANCE, ApplicationProtocolConfig.DISABLED,
                        clientCAs.isEmpty() ? ClientAuth.NONE : ClientAuth.OPTIONAL, protocols, false);
            } catch (GeneralSecurityException | IllegalArgumentException e) {
                throw new TlsConfigException("cannot set up TLS with " + what + ": " + e.getMessage(), e);
            }
        };
        return new TlsContext(build.build(serving.chain(), serving.key(), serving.certFile() + " and " + serving.keyFile()),
                build);
    }

    /**
     * The JDK's own TLS context for the pair, which Netty's {@link JdkSslContext} then serves. Not Netty's
     * {@code SslContextBuilder.forServer}: the server context class it builds reads a PEM test key when it is first
     * initialised, and Netty's PEM reader then instantiates BouncyCastle's provider (all its algorithms, about 350
     * classes and their tables) because BouncyCastle is on the classpath for the certificate requests. That would
     * happen on every start, on the step the pod sources wait for.
     */
    private static SSLContext sslContext(List<X509Certificate> chain, PrivateKey key, List<X509Certificate> clientCAs)
            throws GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try {
            store.load(null, null);
        } catch (IOException e) {
            throw new KeyStoreException("cannot create an in-memory key store: " + e.getMessage(), e);
        }
        char[] password = new char[0];
        store.setKeyEntry("serving", key, password, chain.toArray(X509Certificate[]::new));
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, password);
        TrustManager[] trust = clientCAs.isEmpty() ? null : new TrustManager[] {requestOnly(clientCAs)};
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), trust, null);
        return context;
    }

    /**
     * Checks {@code tlsMinVersion} and {@code tlsCipherSuites} as {@link #context} would, without a certificate.
     *
     * @throws TlsConfigException naming the bad version or suite
     */
    public static void check(String minVersion, List<String> cipherSuites) throws TlsConfigException {
        protocols(minVersion);
        ciphers(cipherSuites);
    }

    static String[] protocols(String minVersion) throws TlsConfigException {
        String min = minVersion == null || minVersion.isEmpty() ? "VersionTLS12" : minVersion;
        if (!VERSIONS.containsKey(min)) {
            throw new TlsConfigException("tlsMinVersion (--tls-min-version): unknown tls version \"" + minVersion
                    + "\"; allowed values: " + String.join(", ", VERSIONS.keySet()));
        }
        List<String> names = new ArrayList<>(VERSIONS.keySet());
        return names.subList(names.indexOf(min), names.size()).stream().map(VERSIONS::get).toArray(String[]::new);
    }

    /** {@link #protocols} for a version known to be valid (tests). */
    static String[] protocolsUnchecked(String minVersion) {
        try {
            return protocols(minVersion);
        } catch (TlsConfigException e) {
            throw new IllegalArgumentException(e);
        }
    }

    static List<String> ciphers(List<String> cipherSuites) throws TlsConfigException {
        if (cipherSuites == null || cipherSuites.isEmpty()) {
            return List.of();
        }
        Set<String> supported = supportedSuites();
        List<String> out = new ArrayList<>();
        for (String name : cipherSuites) {
            String jdkName = GO_ALIASES.getOrDefault(name, name);
            if (!supported.contains(jdkName)) {
                throw new TlsConfigException("tlsCipherSuites (--tls-cipher-suites): cipher suite " + name
                        + " not supported or doesn't exist");
            }
            if (!out.contains(jdkName)) {
                out.add(jdkName);
            }
        }
        for (String suite : TLS13_SUITES) {
            if (supported.contains(suite) && !out.contains(suite)) {
                out.add(suite);
            }
        }
        return out;
    }

    private static Set<String> supportedSuites() throws TlsConfigException {
        try {
            return Set.copyOf(Arrays.asList(SSLContext.getDefault().getSupportedSSLParameters().getCipherSuites()));
        } catch (NoSuchAlgorithmException e) {
            throw new TlsConfigException("the JDK offers no TLS: " + e.getMessage(), e);
        }
    }

    /**
     * Accepts any client certificate in the handshake (the x509 authenticator decides later), naming the client CAs
     * so that clients pick the right certificate.
     */
    private static X509TrustManager requestOnly(List<X509Certificate> clientCAs) {
        X509Certificate[] issuers = clientCAs.toArray(X509Certificate[]::new);
        return new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {}

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType)
                    throws CertificateException {
                throw new CertificateException("the kubelet's server does not verify servers");
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return issuers.clone();
            }
        };
    }
}
