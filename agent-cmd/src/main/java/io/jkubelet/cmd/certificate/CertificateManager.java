package io.jkubelet.cmd.certificate;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The authoritative source of one certificate of the kubelet and its renewal (client-go's certificate {@code manager}):
 * it hands out the current pair, and once {@linkplain #start() started} renews it at its {@linkplain RotationDeadline
 * rotation deadline} through a CertificateSigningRequest with a fresh key, writes the issued pair to the
 * {@link CertificateStore} and tells its listener, which switches connections to it. A failed renewal is retried
 * after 2, 4, 8, 16 and 32 s (10 % jitter), then every 32 s until one succeeds; each failure counts as a renew error.
 * Thread-safe.
 */
public final class CertificateManager implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(CertificateManager.class);
    /** client-go's {@code certificateWaitTimeout}: how long one request may wait for approval and signing. */
    static final Duration CERTIFICATE_WAIT_TIMEOUT = Duration.ofMinutes(15);
    private static final Duration FIRST_RETRY = Duration.ofSeconds(2);
    private static final int BACKOFF_STEPS = 5;
    private static final Duration STEADY_RETRY = Duration.ofSeconds(32);

    /** What is asked for and how, fixed for the manager's life. */
    public record Request(String name, Supplier<Optional<CsrTemplate>> template, String signerName, List<String> usages) {
    }

    private final Request request;
    private final CertificateStore store;
    private final Supplier<CertificateSigningRequests> csrs;
    private final Clock clock;
    private final Consumer<CertificatePair> onRotation;
    private final Runnable onRenewError;
    private final Object wake = new Object();
    private volatile CertificatePair current;
    private volatile boolean forceRotation;
    private volatile boolean stopped;
    private Thread loop;

    /**
     * @param initial the pair to start with (from the store or a kubeconfig), if any
     * @param forceRotation renew at once (the initial pair came from a kubeconfig's inline data, as kubeadm's
     *     high-powered certificate, or there is none)
     * @param csrs the request client, asked again for each renewal
     * @param onRotation told of each newly issued pair, after the store has it
     */
    public CertificateManager(Request request, CertificateStore store, Optional<CertificatePair> initial,
            boolean forceRotation, Supplier<CertificateSigningRequests> csrs, Clock clock,
            Consumer<CertificatePair> onRotation, Runnable onRenewError) {
        this.request = request;
        this.store = store;
        this.current = initial.orElse(null);
        this.forceRotation = forceRotation || initial.isEmpty();
        this.csrs = csrs;
        this.clock = clock;
        this.onRotation = onRotation;
        this.onRenewError = onRenewError;
    }

    /** The pair in use; empty when there is none yet or it has expired (client-go's {@code Current}). */
    public Optional<CertificatePair> current() {
        CertificatePair pair = current;
        return pair == null || pair.expiredAt(clock.instant()) ? Optional.empty() : Optional.of(pair);
    }

    /** The pair in use, expired or not: what the TTL metric reports on. */
    public Optional<CertificatePair> latest() {
        return Optional.ofNullable(current);
    }

    /** Starts renewing in the background (a thread of its own), until {@link #close()}. */
    public synchronized void start() {
        if (loop != null) {
            return;
        }
        loop = Thread.ofPlatform().daemon().name("certificate-manager-" + request.name()).start(this::run);
    }

    /**
     * When the current pair is due for renewal: now when forced, when there is none, or when it lacks what the
     * template asks for; else its {@link RotationDeadline}.
     */
    Instant nextRotationDeadline() {
        Instant now = clock.instant();
        if (forceRotation) {
            forceRotation = false;
            return now;
        }
        CertificatePair pair = current;
        if (pair == null || !satisfies(pair, request.template().get())) {
            return now;
        }
        Instant deadline = RotationDeadline.of(pair.notBefore(), pair.notAfter(), ThreadLocalRandom.current().nextDouble());
        log.info("Certificate expiration is {}, rotation deadline is {}", pair.notAfter(), deadline);
        return deadline;
    }

    private void run() {
        while (!stopped) {
            Instant deadline = nextRotationDeadline();
            Duration wait = Duration.between(clock.instant(), deadline);
            if (wait.isPositive()) {
                log.info("Waiting {} for next certificate rotation", wait);
                if (!pause(wait)) {
                    return;
                }
            }
            if (request.template().get().isEmpty()) {
                // Nothing to ask for yet (a serving certificate before the node has addresses): look again in a second.
                if (!pause(Duration.ofSeconds(1))) {
                    return;
                }
                continue;
            }
            Duration retry = FIRST_RETRY;
            for (int attempt = 1; !stopped && !rotate(); attempt++) {
                if (attempt == BACKOFF_STEPS) {
                    log.error("Reached backoff limit, still unable to rotate certs");
                }
                Duration jittered = retry.plusMillis((long) (retry.toMillis() * 0.1 * ThreadLocalRandom.current().nextDouble()));
                if (!pause(jittered)) {
                    return;
                }
                retry = attempt < BACKOFF_STEPS ? retry.multipliedBy(2) : STEADY_RETRY;
            }
        }
    }

    /**
     * One renewal (client-go's {@code rotateCerts}): a new key and request, the wait for the certificate, the store
     * and the listener. False when any step failed (logged and counted).
     */
    boolean rotate() {
        log.info("Rotating certificates");
        Optional<CsrTemplate> template = request.template().get();
        if (template.isEmpty()) {
            return fail("Unable to generate a certificate signing request: no template available", null);
        }
        KeyPair key;
        String csrPem;
        try {
            key = CsrTemplate.newKey();
            csrPem = template.get().toPem(key);
        } catch (GeneralSecurityException e) {
            return fail("Unable to generate a certificate signing request", e);
        }
        CertificateSigningRequests client = csrs.get();
        String certificatePem;
        try {
            CertificateSigningRequests.Submitted submitted = client.create(null, csrPem, request.signerName(), request.usages());
            certificatePem = client.awaitCertificate(submitted, CERTIFICATE_WAIT_TIMEOUT);
        } catch (IOException e) {
            return fail("certificate request was not signed", e);
        }
        CertificatePair issued;
        try {
            issued = store.update(certificatePem, CertificatePair.keyPem(key), clock.instant());
        } catch (IOException e) {
            return fail("Unable to store the new cert/key pair", e);
        }
        current = issued;
        log.info("Certificate rotated: {} valid until {}", issued.leaf().getSubjectX500Principal().getName(), issued.notAfter());
        onRotation.accept(issued);
        return true;
    }

    private boolean fail(String what, Exception e) {
        log.error("{}{}", what, e == null ? "" : ": " + e.getMessage());
        onRenewError.run();
        return false;
    }

    /** Whether the pair has the subject, names and addresses asked for (extra ones do not matter). */
    static boolean satisfies(CertificatePair pair, Optional<CsrTemplate> template) {
        if (template.isEmpty()) {
            return true;
        }
        CsrTemplate t = template.get();
        CertificateNames names = CertificateNames.of(pair.leaf());
        return names.commonName().equals(t.commonName()) && names.organizations().containsAll(t.organizations())
                && names.dnsNames().containsAll(t.dnsNames()) && names.ipAddresses().containsAll(t.ipAddresses());
    }

    private boolean pause(Duration d) {
        synchronized (wake) {
            if (stopped) {
                return false;
            }
            try {
                wake.wait(Math.max(1, d.toMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            return !stopped;
        }
    }

    @Override
    public void close() {
        synchronized (wake) {
            stopped = true;
            wake.notifyAll();
        }
    }
}
