package io.jkubelet.cmd;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.jkubelet.cmd.apiserver.ClientSubjectAccessReviewer;
import io.jkubelet.cmd.apiserver.ClientTokenReviewer;
import io.jkubelet.cmd.certificate.CertificateManager;
import io.jkubelet.cmd.certificate.CertificatePair;
import io.jkubelet.cmd.certificate.ServingCertificates;
import io.jkubelet.core.apis.config.KubeletConfigCodec;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.server.DebugHandlers;
import io.jkubelet.server.KubeletHandlers;
import io.jkubelet.server.KubeletView;
import io.jkubelet.server.SecureServer;
import io.jkubelet.server.auth.AuthConfigException;
import io.jkubelet.server.auth.AuthFilter;
import io.jkubelet.server.auth.KubeletAuth;
import io.jkubelet.server.healthz.HealthChecker;
import io.jkubelet.server.streaming.StreamingSessions;
import io.jkubelet.server.http.HttpServerConfig;
import io.jkubelet.server.tls.ServerTls;
import io.jkubelet.server.tls.TlsContext;
import io.jkubelet.server.tls.ServingCertificate;
import io.jkubelet.server.tls.TlsConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.IntConsumer;

/**
 * The secure server's set-up, split as upstream splits it: TLS ({@code InitializeTLS}) and authentication
 * and authorization ({@code BuildAuth}) are settled before anything runs, so that a bad certificate or an
 * auth mode that cannot be served ends the process at once; the server itself starts with the others.
 */
final class SecureServing {
    private static final Logger log = LoggerFactory.getLogger(SecureServing.class);

    private final KubeletConfiguration config;
    private final TlsContext tls;
    private final AuthFilter auth;
    private final ServingCertificate certificate;

    private SecureServing(KubeletConfiguration config, TlsContext tls, AuthFilter auth, ServingCertificate certificate) {
        this.config = config;
        this.tls = tls;
        this.auth = auth;
        this.certificate = certificate;
    }

    /**
     * Loads or generates the serving certificate and builds the auth filter; empty when {@code
     * enableServer} is false.
     *
     * @throws StartupException naming the setting or file that is wrong
     */
    static Optional<SecureServing> prepare(KubeletFlags flags, KubeletConfiguration config, String nodeName, Clock clock)
            throws StartupException {
        return prepare(flags, config, nodeName, clock, Optional.empty());
    }

    /**
     * As {@link #prepare(KubeletFlags, KubeletConfiguration, String, Clock)}; with an apiserver client the
     * webhook modes review tokens (TokenReview) and access (SubjectAccessReview) through it.
     */
    static Optional<SecureServing> prepare(KubeletFlags flags, KubeletConfiguration config, String nodeName, Clock clock,
            Optional<KubernetesClient> kubeClient) throws StartupException {
        Optional<Checked> checked = check(flags, config, nodeName, clock, kubeClient);
        return checked.isEmpty() ? Optional.empty() : Optional.of(checked.get().complete());
    }

    /**
     * Everything of the secure port an operator gives, read and checked: the client CAs, authentication and
     * authorization, the TLS version and suites, and a configured certificate and key (loaded). Only a self-signed pair
     * still to be made in {@code --cert-dir} is left for {@link Checked#complete}: two RSA keys, up to seconds of CPU in
     * a fresh JVM, which the first pods need not wait for. Empty when {@code enableServer} is false.
     *
     * @throws StartupException naming the setting or file that is wrong
     */
    static Optional<Checked> check(KubeletFlags flags, KubeletConfiguration config, String nodeName, Clock clock,
            Optional<KubernetesClient> kubeClient) throws StartupException {
        if (Boolean.FALSE.equals(config.enableServer())) {
            return Optional.empty();
        }
        try {
            String caFile = config.authentication().x509().clientCAFile();
            List<X509Certificate> clientCAs = caFile == null || caFile.isEmpty()
                    ? List.of()
                    : ServingCertificate.readCertificates(Path.of(caFile), "authentication.x509.clientCAFile (--client-ca-file)");
            // Standalone (no client): there is no apiserver to review tokens or access, so the webhook modes are refused.
            AuthFilter auth = KubeletAuth.filter(config.authentication(), config.authorization(), nodeName, clientCAs,
                    kubeClient.map(ClientTokenReviewer::new),
                    kubeClient.map(ClientSubjectAccessReviewer::new), clock);
            ServerTls.check(config.tlsMinVersion(), config.tlsCipherSuites());
            Checked checked = new Checked(flags, config, nodeName, clock, clientCAs, auth);
            if (!checked.makesSelfSigned()) {
                // A pair that exists is read and served now: what is wrong with it ends the start before any pod.
                checked.complete();
            }
            return Optional.of(checked);
        } catch (TlsConfigException | AuthConfigException e) {
            throw new StartupException("secure server (port " + config.port() + "): " + e.getMessage(), e);
        }
    }

    /** The secure port's settings as {@link #check} found them good; the serving certificate perhaps still to make. */
    static final class Checked {
        private final KubeletFlags flags;
        private final KubeletConfiguration config;
        private final String nodeName;
        private final Clock clock;
        private final List<X509Certificate> clientCAs;
        private final AuthFilter auth;
        private SecureServing done;

        private Checked(KubeletFlags flags, KubeletConfiguration config, String nodeName, Clock clock,
                List<X509Certificate> clientCAs, AuthFilter auth) {
            this.flags = flags;
            this.config = config;
            this.nodeName = nodeName;
            this.clock = clock;
            this.clientCAs = clientCAs;
            this.auth = auth;
        }

        /** No configured pair, and none in {@code --cert-dir} yet: upstream's self-signed pair is made. */
        boolean makesSelfSigned() {
            return ServingCertificate.makesSelfSigned(config.tlsCertFile(), config.tlsPrivateKeyFile(),
                    Path.of(flags.certDirectory()));
        }

        /**
         * Loads or makes the serving certificate and builds the TLS context (once).
         *
         * @throws StartupException when the self-signed pair cannot be made or written
         */
        SecureServing complete() throws StartupException {
            if (done != null) {
                return done;
            }
            try {
                ServingCertificate serving = ServingCertificate.resolve(config.tlsCertFile(), config.tlsPrivateKeyFile(),
                        Path.of(flags.certDirectory()), nodeName, clock.instant());
                TlsContext tls = ServerTls.context(serving, config.tlsMinVersion(), config.tlsCipherSuites(), clientCAs);
                done = new SecureServing(config, tls, auth, serving);
                return done;
            } catch (TlsConfigException e) {
                throw new StartupException("secure server (port " + config.port() + "): " + e.getMessage(), e);
            }
        }
    }

    /** Starts serving on {@code address:port}. */
    SecureServer start(KubeletView view, List<HealthChecker> checks, IntConsumer verbosity) throws IOException {
        boolean debugging = !Boolean.FALSE.equals(config.enableDebuggingHandlers());
        byte[] configz = KubeletConfigCodec.toJson(config).getBytes(StandardCharsets.UTF_8);
        HttpServerConfig http = HttpServerConfig.kubeletDefaults("secure", InetAddress.getByName(config.address()), config.port());
        // No upstream setting bounds the number of sessions; jkubelet caps it (StreamingSessions).
        StreamingSessions streaming = new StreamingSessions(StreamingSessions.DEFAULT_MAX_SESSIONS,
                config.streamingConnectionIdleTimeout() == null ? StreamingSessions.DEFAULT_IDLE_TIMEOUT
                        : config.streamingConnectionIdleTimeout());
        return SecureServer.start(http, tls, auth, new KubeletHandlers(view, checks, KubeletHandlers.DebuggingOptions.of(config), streaming), debugging,
                new DebugHandlers(() -> configz, verbosity, !Boolean.FALSE.equals(config.enableProfilingHandler()),
                        !Boolean.FALSE.equals(config.enableDebugFlagsHandler())));
    }

    Path certFile() {
        return certificate.certFile();
    }

    /**
     * {@code serverTLSBootstrap}: the serving certificate from the apiserver's {@code kubernetes.io/kubelet-serving}
     * signer, served from the next handshake once issued (until then the self-signed or configured pair), renewed as it
     * ages. A stored one that is still valid is served at once. Not started.
     *
     * @param addresses the node's addresses (host name and IPs), the certificate's subject alternative names
     */
    CertificateManager servingCertificates(KubeletFlags flags, String nodeName, List<String> addresses,
            KubernetesClient client, Clock clock, Runnable onRenewError)
            throws StartupException {
        boolean files = config.tlsCertFile() != null && !config.tlsCertFile().isEmpty();
        Optional<Path[]> tlsFiles = files ? Optional.of(new Path[] {Path.of(config.tlsCertFile()), Path.of(config.tlsPrivateKeyFile())})
                : Optional.empty();
        CertificateManager manager;
        try {
            manager = ServingCertificates.manager(Path.of(flags.certDirectory()), nodeName, addresses, tlsFiles, client, clock,
                    this::serve, onRenewError);
        } catch (IOException e) {
            throw new StartupException("serverTLSBootstrap: " + e.getMessage(), e);
        }
        manager.current().ifPresent(this::serve);
        return manager;
    }

    /** New handshakes get {@code pair}; open connections keep theirs. */
    private void serve(CertificatePair pair) {
        try {
            tls.use(pair.chain(), pair.key(), "the serving certificate " + pair.leaf().getSerialNumber());
            log.info("Serving the certificate issued for {} (valid until {})", pair.leaf().getSubjectX500Principal().getName(),
                    pair.notAfter());
        } catch (TlsConfigException e) {
            log.error("Cannot serve the issued serving certificate, keeping the one before: {}", e.getMessage());
        }
    }
}
