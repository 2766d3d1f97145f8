package io.jkubelet.cmd.certificate;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.internal.SSLUtils;
import io.jkubelet.core.cluster.KubeClients;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.time.Clock;
import java.util.Optional;

/**
 * The kubelet's apiserver client and the certificate it authenticates with (upstream's
 * {@code buildKubeletClientConfig}). With {@code --bootstrap-kubeconfig}, {@code --kubeconfig} is first made valid by
 * {@link ClientBootstrap}. With {@code rotateCertificates} or bootstrapping, the client certificate is the
 * {@link CertificateManager}'s: read from {@code <cert-dir>/kubelet-client-current.pem}, else the kubeconfig's files,
 * else its inline data (kubeadm's high-powered certificate, written to the store and renewed at once), and served to
 * every connection by a {@link RotatingClientTls}; with {@code rotateCertificates} the manager renews it. Otherwise the
 * kubeconfig is used as it is.
 */
public final class ClientCertificates {
    private static final Logger log = LoggerFactory.getLogger(ClientCertificates.class);

    /**
     * The client, and when the kubelet manages its certificate, the manager and the HTTP client factory that other
     * clients of the kubelet (the event client) must be made with to authenticate alike.
     */
    public record Connection(KubernetesClient client, Optional<CertificateManager> manager,
            Optional<HttpClient.Factory> httpClients) {
    }

    /** How the kubelet reaches the apiserver: the flags and fields that decide it. */
    public record Settings(Path kubeconfig, Optional<Path> bootstrapKubeconfig, Path certDir, boolean rotateCertificates,
            int qps, int burst, String kubeletVersion) {
    }

    private ClientCertificates() {
    }

    /**
     * Bootstraps when needed and builds the client; the manager is not started.
     *
     * @param onRenewError counts a failed renewal
     * @throws IOException naming the file, flag or request that failed
     */
    public static Connection connect(Settings settings, String nodeName, Clock clock, Runnable onRenewError) throws IOException {
        if (settings.bootstrapKubeconfig().isPresent()) {
            ClientBootstrap.loadClientCert(settings.kubeconfig(), settings.bootstrapKubeconfig().get(), settings.certDir(),
                    nodeName, clock, bootstrap -> new Fabric8CertificateSigningRequests(
                            KubeClients.create(bootstrap, settings.qps(), settings.burst(), settings.kubeletVersion()), true));
        }
        Config config = Kubeconfigs.load(settings.kubeconfig(), "--kubeconfig");
        if (!settings.rotateCertificates() && settings.bootstrapKubeconfig().isEmpty()) {
            return new Connection(KubeClients.create(config, settings.qps(), settings.burst(), settings.kubeletVersion()),
                    Optional.empty(), Optional.empty());
        }
        if (settings.rotateCertificates()) {
            log.info("Client rotation is on");
        }
        CertificateStore store = new CertificateStore(ClientBootstrap.CLIENT_PAIR_PREFIX, settings.certDir(), clock.getZone(),
                Kubeconfigs.clientCertFile(config), Kubeconfigs.clientKeyFile(config));
        Optional<CertificatePair> current = store.current().filter(p -> !p.expiredAt(clock.instant()));
        boolean force = false;
        Optional<CertificatePair> inline = Kubeconfigs.inlinePair(config, settings.kubeconfig().toString());
        if (current.isEmpty() && inline.isPresent()) {
            // kubeadm hands a high-powered certificate in the kubeconfig and expects it rotated out at once.
            current = Optional.of(store.update(CertificatePair.certificatesPem(inline.get().chain()),
                    CertificatePair.keyPem(new KeyPair(inline.get().leaf().getPublicKey(), inline.get().key())), clock.instant()));
            force = true;
        }
        RotatingClientTls tls;
        try {
            tls = new RotatingClientTls(current, SSLUtils.trustManagers(config));
        } catch (GeneralSecurityException e) {
            throw new IOException("--kubeconfig " + settings.kubeconfig() + ": cannot set up TLS: " + e.getMessage(), e);
        }
        // The rotating transport uses the manager's certificate instead of the kubeconfig's (upstream's
        // AnonymousClientConfig): fabric8 must not read the files itself.
        config.setClientCertFile(null);
        config.setClientKeyFile(null);
        config.setClientCertData(null);
        config.setClientKeyData(null);
        HttpClient.Factory httpClients = new RotatingTlsHttpClientFactory(tls);
        KubernetesClient client = KubeClients.create(config, settings.qps(), settings.burst(), settings.kubeletVersion(),
                httpClients);
        CertificateManager manager = new CertificateManager(
                new CertificateManager.Request("client", () -> Optional.of(CsrTemplate.nodeClient(nodeName)),
                        ClientBootstrap.CLIENT_SIGNER, ClientBootstrap.CLIENT_USAGES),
                store, current, force, () -> new Fabric8CertificateSigningRequests(client, false), clock,
                pair -> {
                    try {
                        tls.use(pair);
                    } catch (GeneralSecurityException e) {
                        log.error("Cannot use the rotated client certificate: {}", e.getMessage());
                    }
                }, onRenewError);
        return new Connection(client, Optional.of(manager), Optional.of(httpClients));
    }
}
