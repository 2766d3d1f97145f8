package io.jkubelet.cmd.certificate;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * The apiserver's {@code certificates.k8s.io/v1} CertificateSigningRequests, as client-go's {@code csr} package uses
 * them: send a request, wait until it is approved and signed. Implementations are thread-safe.
 */
public interface CertificateSigningRequests {

    /** A request the apiserver accepted: its name, and its UID (a request recreated under that name is another). */
    record Submitted(String name, String uid) {
    }

    /**
     * Creates a CertificateSigningRequest; with a {@code name} that already exists, the existing one is taken when it
     * asks for the same key and signer (upstream's "csr for this node already exists, reusing").
     *
     * @param name the request's name, or null for a generated {@code csr-} name
     * @param csrPem the PKCS#10 request, PEM
     * @param signerName {@code kubernetes.io/kube-apiserver-client-kubelet} or {@code kubernetes.io/kubelet-serving}
     * @param usages the key usages asked for
     * @throws IOException with the apiserver's answer when it is refused
     */
    Submitted create(String name, String csrPem, String signerName, List<String> usages) throws IOException;

    /**
     * Waits until the request is approved and has a certificate.
     *
     * @return the issued certificate, PEM
     * @throws IOException when it is denied or failed (with the condition's reason and message), replaced (another
     *     UID), or not issued within {@code timeout}
     */
    String awaitCertificate(Submitted request, Duration timeout) throws IOException;
}
