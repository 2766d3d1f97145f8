package io.jkubelet.cmd.certificate;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.jkubelet.server.tls.SelfSignedPair;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The kubelet's serving certificate through the apiserver (upstream's {@code NewKubeletServerCertificateManager},
 * {@code serverTLSBootstrap}): a request to signer {@code kubernetes.io/kubelet-serving} for
 * {@code system:node:<name>} with the node's host name and addresses as subject alternative names, kept as
 * {@code <cert-dir>/kubelet-server-<time>.pem} with the {@code kubelet-server-current.pem} link and renewed as the
 * client certificate is. The controller manager does not approve these requests by itself: a cluster operator (or an
 * approver of theirs) does, e.g. {@code kubectl certificate approve}.
 */
public final class ServingCertificates {
    public static final String SERVER_PAIR_PREFIX = "kubelet-server";
    public static final String SERVING_SIGNER = "kubernetes.io/kubelet-serving";
    public static final List<String> SERVING_USAGES = List.of("digital signature", "key encipherment", "server auth");

    private ServingCertificates() {
    }

    /**
     * The serving certificate's manager, not started.
     *
     * @param addresses the node's addresses: host names go in as DNS names, literals as IP addresses
     * @param tlsFiles {@code tlsCertFile} and {@code tlsPrivateKeyFile}, the store's fallback when both are set
     * @param onRotation told of each newly issued pair (the secure server serves it)
     */
    public static CertificateManager manager(Path certDir, String nodeName, List<String> addresses,
            Optional<Path[]> tlsFiles, KubernetesClient client, Clock clock, Consumer<CertificatePair> onRotation,
            Runnable onRenewError) throws IOException {
        CertificateStore store = new CertificateStore(SERVER_PAIR_PREFIX, certDir, clock.getZone(),
                tlsFiles.map(f -> f[0]), tlsFiles.map(f -> f[1]));
        Optional<CertificatePair> current = store.current().filter(p -> !p.expiredAt(clock.instant()));
        CsrTemplate template = template(nodeName, addresses);
        return new CertificateManager(new CertificateManager.Request("server", () -> Optional.of(template),
                SERVING_SIGNER, SERVING_USAGES), store, current, false,
                () -> new Fabric8CertificateSigningRequests(client, false), clock, onRotation, onRenewError);
    }

    /** upstream's {@code addressesToHostnamesAndIPs}: literals are addresses, anything else a DNS name; no duplicates. */
    static CsrTemplate template(String nodeName, List<String> addresses) {
        List<String> dns = new ArrayList<>();
        List<String> ips = new ArrayList<>();
        for (String a : addresses) {
            if (a.isEmpty()) {
                continue;
            }
            List<String> into = isLiteral(a) ? ips : dns;
            String value = isLiteral(a) ? CertificateNames.normalAddress(a) : a;
            if (!into.contains(value)) {
                into.add(value);
            }
        }
        return new CsrTemplate("system:node:" + nodeName, List.of("system:nodes"), dns, ips);
    }

    private static boolean isLiteral(String address) {
        return SelfSignedPair.isAddress(address);
    }
}
