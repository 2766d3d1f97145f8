package io.jkubelet.cmd;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.jkubelet.cmd.certificate.CertificateManager;
import io.jkubelet.cmd.certificate.CertificateMetrics;
import io.jkubelet.cmd.certificate.ClientCertificates;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The node's certificates from the flags and configuration: the apiserver client's and, bootstrapped, the serving one. */
final class NodeCertificates {
    private static final Logger log = LoggerFactory.getLogger(NodeCertificates.class);

    private NodeCertificates() {
    }

    /**
     * The apiserver client (upstream's {@code buildKubeletClientConfig}): TLS bootstrapping first when
     * {@code --bootstrap-kubeconfig} is set, then the client with the kubelet's own certificate when it manages it.
     */
    static ClientCertificates.Connection connect(KubeletFlags flags, KubeletConfiguration config, String nodeName,
            CertificateMetrics metrics) throws StartupException {
        Optional<Path> bootstrap = flags.bootstrapKubeconfig().isEmpty() ? Optional.empty()
                : Optional.of(Path.of(flags.bootstrapKubeconfig()));
        try {
            return ClientCertificates.connect(new ClientCertificates.Settings(Path.of(flags.kubeconfig()), bootstrap,
                    Path.of(flags.certDirectory()), config.rotateCertificates(), config.kubeAPIQPS(),
                    config.kubeAPIBurst(), KubeletVersion.compatVersion()), nodeName, Clock.systemDefaultZone(),
                    metrics::clientRenewError);
        } catch (IOException | IllegalArgumentException e) {
            throw StartupException.of(e);
        }
    }

    /**
     * {@code serverTLSBootstrap} (its gate checked by validation): the serving certificate's manager, when there is a
     * secure server and an apiserver to ask; a standalone node says once that it serves its own certificate.
     */
    static Optional<CertificateManager> servingCertificates(KubeletFlags flags, KubeletConfiguration config,
            String nodeName, List<String> hostIps, Optional<SecureServing> secure, Optional<KubernetesClient> client,
            CertificateMetrics metrics) throws StartupException {
        if (!config.serverTLSBootstrap() || secure.isEmpty()) {
            return Optional.empty();
        }
        if (client.isEmpty()) {
            log.warn("serverTLSBootstrap is ignored without --kubeconfig: no apiserver to sign the serving certificate");
            return Optional.empty();
        }
        List<String> addresses = new ArrayList<>(hostIps);
        addresses.add(nodeName);
        return Optional.of(secure.get().servingCertificates(flags, nodeName, addresses, client.get(), Clock.systemDefaultZone(),
                metrics::serverRenewError));
    }
}
