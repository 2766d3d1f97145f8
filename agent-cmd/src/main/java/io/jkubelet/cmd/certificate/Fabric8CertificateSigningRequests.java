package io.jkubelet.cmd.certificate;

import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequest;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequestBuilder;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequestCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.KubernetesClientTimeoutException;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.openssl.PEMParser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** {@link CertificateSigningRequests} on fabric8's client; the wait is a watch of the one request. */
public final class Fabric8CertificateSigningRequests implements CertificateSigningRequests, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Fabric8CertificateSigningRequests.class);

    /** Between a broken watch and the next one: a failing apiserver is not asked in a loop. */
    private static final Duration REWATCH_PAUSE = Duration.ofSeconds(1);

    private final KubernetesClient client;
    private final boolean ownsClient;

    /**
     * @param ownsClient whether {@link #close()} closes the client (the bootstrap kubeconfig's, used once)
     */
    public Fabric8CertificateSigningRequests(KubernetesClient client, boolean ownsClient) {
        this.client = client;
        this.ownsClient = ownsClient;
    }

    @Override
    public void close() {
        if (ownsClient) {
            client.close();
        }
    }

    @Override
    public Submitted create(String name, String csrPem, String signerName, List<String> usages) throws IOException {
        CertificateSigningRequestBuilder csr = new CertificateSigningRequestBuilder()
                .withNewSpec().withRequest(base64(csrPem)).withSignerName(signerName).withUsages(usages).endSpec();
        csr = name == null ? csr.withNewMetadata().withGenerateName("csr-").endMetadata()
                : csr.withNewMetadata().withName(name).endMetadata();
        try {
            CertificateSigningRequest created = client.certificates().v1().certificateSigningRequests().resource(csr.build()).create();
            return new Submitted(created.getMetadata().getName(), created.getMetadata().getUid());
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409 || name == null) {
                throw new IOException("cannot create certificate signing request: " + e.getMessage(), e);
            }
        }
        log.info("csr for this node already exists, reusing");
        CertificateSigningRequest existing;
        try {
            existing = client.certificates().v1().certificateSigningRequests().withName(name).get();
        } catch (KubernetesClientException e) {
            throw new IOException("cannot retrieve certificate signing request: " + e.getMessage(), e);
        }
        if (existing == null) {
            throw new IOException("cannot retrieve certificate signing request: " + name + " not found");
        }
        ensureCompatible(existing, csrPem, signerName);
        log.info("csr for this node is still valid");
        return new Submitted(name, existing.getMetadata().getUid());
    }

    /** The request found asks for the same key and signer as ours (upstream's {@code ensureCompatible}). */
    private static void ensureCompatible(CertificateSigningRequest existing, String csrPem, String signerName) throws IOException {
        String theirs = new String(Base64.getDecoder().decode(existing.getSpec().getRequest()), StandardCharsets.US_ASCII);
        if (!Objects.equals(existing.getSpec().getSignerName(), signerName)) {
            throw new IOException("retrieved csr is not compatible: signer name " + existing.getSpec().getSignerName()
                    + " is not " + signerName);
        }
        PKCS10CertificationRequest a = parse(theirs);
        PKCS10CertificationRequest b = parse(csrPem);
        if (!a.getSubject().equals(b.getSubject()) || !a.getSubjectPublicKeyInfo().equals(b.getSubjectPublicKeyInfo())) {
            throw new IOException("retrieved csr is not compatible: another subject or public key");
        }
    }

    private static PKCS10CertificationRequest parse(String pem) throws IOException {
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            if (parser.readObject() instanceof PKCS10CertificationRequest request) {
                return request;
            }
        }
        throw new IOException("not a PEM certificate request");
    }

    /**
     * Waits for the request's end. A watch that breaks (the apiserver restarts, or the client's own certificate
     * rotates and its connections are closed) is opened again until the timeout, as client-go's list-and-watch does:
     * giving up would make the manager ask again and leave this request pending for nobody.
     */
    @Override
    public String awaitCertificate(Submitted request, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        CertificateSigningRequest done = null;
        boolean ended = false;
        while (!ended) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw timedOut(request);
            }
            try {
                done = client.certificates().v1().certificateSigningRequests().withName(request.name())
                        .waitUntilCondition(csr -> csr == null || !request.uid().equals(csr.getMetadata().getUid())
                                        || condition(csr, "Denied").isPresent() || condition(csr, "Failed").isPresent()
                                        || issued(csr), left, TimeUnit.NANOSECONDS);
                ended = true;
            } catch (KubernetesClientTimeoutException e) {
                throw timedOut(request);
            } catch (KubernetesClientException e) {
                log.warn("Watching certificate signing request {} failed, watching again: {}", request.name(), e.getMessage());
                pauseBeforeRewatch();
            }
        }
        if (done == null) {
            throw new IOException("certificate signing request " + request.name() + " was deleted");
        }
        if (!request.uid().equals(done.getMetadata().getUid())) {
            throw new IOException("csr \"" + request.name() + "\" changed UIDs");
        }
        Optional<CertificateSigningRequestCondition> denied = condition(done, "Denied");
        if (denied.isPresent()) {
            throw new IOException("certificate signing request is denied, reason: " + denied.get().getReason()
                    + ", message: " + denied.get().getMessage());
        }
        Optional<CertificateSigningRequestCondition> failed = condition(done, "Failed");
        if (failed.isPresent()) {
            throw new IOException("certificate signing request failed, reason: " + failed.get().getReason()
                    + ", message: " + failed.get().getMessage());
        }
        log.info("certificate signing request {} is issued", request.name());
        return new String(Base64.getDecoder().decode(done.getStatus().getCertificate()), StandardCharsets.US_ASCII);
    }

    private static IOException timedOut(Submitted request) {
        return new IOException("timed out waiting for the certificate of " + request.name() + " to be issued");
    }

    private static void pauseBeforeRewatch() throws IOException {
        try {
            Thread.sleep(REWATCH_PAUSE.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for a certificate", e);
        }
    }

    private static boolean issued(CertificateSigningRequest csr) {
        return condition(csr, "Approved").isPresent() && csr.getStatus().getCertificate() != null
                && !csr.getStatus().getCertificate().isEmpty();
    }

    private static Optional<CertificateSigningRequestCondition> condition(CertificateSigningRequest csr, String type) {
        if (csr.getStatus() == null || csr.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        return csr.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    private static String base64(String pem) {
        return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
    }
}
