package io.jkubelet.cmd.certificate;

import io.fabric8.kubernetes.client.Config;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * TLS bootstrapping (upstream's {@code bootstrap.LoadClientCert}): when {@code --kubeconfig} does not exist or its
 * client certificate has expired, the bootstrap kubeconfig's credentials (a bootstrap token) ask for a client
 * certificate for {@code system:node:<name>} in {@code system:nodes}; once the controller manager has approved and
 * signed it, it is written to {@code <cert-dir>/kubelet-client-<time>.pem} (linked from
 * {@code kubelet-client-current.pem}) and {@code --kubeconfig} is written to refer to it.
 */
public final class ClientBootstrap {
    private static final Logger log = LoggerFactory.getLogger(ClientBootstrap.class);
    public static final String CLIENT_PAIR_PREFIX = "kubelet-client";
    /** The signer of kubelets' client certificates. */
    public static final String CLIENT_SIGNER = "kubernetes.io/kube-apiserver-client-kubelet";
    /** What a kubelet client certificate is for (upstream lists exactly these three). */
    public static final List<String> CLIENT_USAGES = List.of("digital signature", "key encipherment", "client auth");
    /** The key kept across restarts until a certificate is issued for it, so a pending request is not orphaned. */
    static final String TMP_PRIVATE_KEY_FILE = "kubelet-client.key.tmp";
    /** upstream: the bootstrap request waits up to an hour for approval and signing. */
    static final Duration WAIT_FOR_CERTIFICATE = Duration.ofHours(1);

    private ClientBootstrap() {
    }

    /**
     * Bootstraps when {@code kubeconfig} is not valid; does nothing otherwise.
     *
     * @param bootstrapClient makes the request client from the bootstrap kubeconfig's configuration
     * @throws IOException naming the file or the request that failed
     */
    public static void loadClientCert(Path kubeconfig, Path bootstrapKubeconfig, Path certDir, String nodeName, Clock clock,
            Function<Config, CertificateSigningRequests> bootstrapClient) throws IOException {
        if (isClientConfigStillValid(kubeconfig, clock.instant())) {
            log.info("Kubeconfig {} exists and is valid, skipping bootstrap", kubeconfig);
            return;
        }
        log.info("Using bootstrap kubeconfig to generate TLS client cert, key and kubeconfig file");
        Config bootstrap = Kubeconfigs.load(bootstrapKubeconfig, "--bootstrap-kubeconfig");
        CertificateStore store = new CertificateStore(CLIENT_PAIR_PREFIX, certDir, clock.getZone());
        Path tmpKey = certDir.resolve(TMP_PRIVATE_KEY_FILE);
        Optional<CertificatePair> existing = currentPair(store);
        KeyPair pair;
        try {
            pair = existing.isPresent() ? new KeyPair(existing.get().leaf().getPublicKey(), existing.get().key())
                    : loadOrGenerateKey(tmpKey);
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot make a private key in " + certDir + ": " + e.getMessage(), e);
        }
        CsrTemplate template = CsrTemplate.nodeClient(nodeName);
        String csrPem;
        String name;
        try {
            csrPem = template.toPem(pair);
            name = digestedName(pair.getPublic(), template, CLIENT_USAGES);
        } catch (GeneralSecurityException e) {
            throw new IOException("unable to generate certificate request: " + e.getMessage(), e);
        }
        CertificateSigningRequests csrs = bootstrapClient.apply(bootstrap);
        String certificate;
        try {
            CertificateSigningRequests.Submitted submitted = csrs.create(name, csrPem, CLIENT_SIGNER, CLIENT_USAGES);
            log.info("Waiting for client certificate to be issued");
            certificate = csrs.awaitCertificate(submitted, WAIT_FOR_CERTIFICATE);
        } finally {
            if (csrs instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception e) {
                    log.debug("closing the bootstrap client: {}", e.getMessage());
                }
            }
        }
        store.update(certificate, CertificatePair.keyPem(pair), clock.instant());
        try {
            Files.deleteIfExists(tmpKey);
        } catch (IOException e) {
            log.debug("failed cleaning up private key file {}: {}", tmpKey, e.getMessage());
        }
        Kubeconfigs.writeFromBootstrapping(bootstrap, kubeconfig, store.currentPath());
        log.info("Wrote {} for the client certificate {}", kubeconfig, store.currentPath());
    }

    /**
     * Whether {@code kubeconfig} exists and holds a client certificate that has not expired (upstream's
     * {@code isClientConfigStillValid}: a kubeconfig that cannot be read, or has no certificate, is not valid).
     */
    public static boolean isClientConfigStillValid(Path kubeconfig, Instant now) throws IOException {
        if (!Files.exists(kubeconfig)) {
            return false;
        }
        try {
            Optional<CertificatePair> pair = Kubeconfigs.clientPair(Kubeconfigs.load(kubeconfig, "--kubeconfig"),
                    kubeconfig.toString());
            if (pair.isEmpty()) {
                log.warn("unable to read TLS certificates from existing bootstrap client config {}", kubeconfig);
                return false;
            }
            for (var cert : pair.get().chain()) {
                if (now.isAfter(cert.getNotAfter().toInstant())) {
                    log.warn("part of the existing bootstrap client certificate in {} is expired: {}", kubeconfig,
                            cert.getNotAfter().toInstant());
                    return false;
                }
            }
            return true;
        } catch (NoSuchFileException e) {
            log.warn("unable to load TLS configuration from existing bootstrap client config {}: {} does not exist",
                    kubeconfig, e.getFile());
            return false;
        } catch (IOException e) {
            log.warn("unable to read existing bootstrap client config {}: {}", kubeconfig, e.getMessage());
            return false;
        }
    }

    /** The store's current key, reused for the request (a pair whose certificate expired keeps a good key). */
    private static Optional<CertificatePair> currentPair(CertificateStore store) {
        try {
            return store.current();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The temporary key of an earlier attempt, or a new one written there (keyutil's {@code LoadOrGenerateKeyFile}). */
    static KeyPair loadOrGenerateKey(Path file) throws IOException, GeneralSecurityException {
        if (Files.exists(file)) {
            try {
                return CertificatePair.parseKeyPair(Files.readString(file), file.toString());
            } catch (IOException e) {
                log.warn("{} does not hold a usable key, making a new one: {}", file, e.getMessage());
            }
        }
        KeyPair key = CsrTemplate.newKey();
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, CertificatePair.keyPem(key));
        return key;
    }

    /**
     * upstream's {@code digestedName}: {@code node-csr-} and the SHA-512/256 of the public key, subject and usages, so
     * that a restarted kubelet finds the request it sent before instead of sending another.
     */
    static String digestedName(PublicKey publicKey, CsrTemplate template, List<String> usages) throws GeneralSecurityException {
        MessageDigest hash = MessageDigest.getInstance("SHA-512/256");
        Base64.Encoder encode = Base64.getUrlEncoder().withoutPadding();
        Consumer<byte[]> write = data -> {
            hash.update(encode.encode(data));
            hash.update((byte) '|');
        };
        write.accept(publicKey.getEncoded());
        write.accept(template.commonName().getBytes(StandardCharsets.UTF_8));
        template.organizations().forEach(o -> write.accept(o.getBytes(StandardCharsets.UTF_8)));
        usages.forEach(u -> write.accept(u.getBytes(StandardCharsets.UTF_8)));
        return "node-csr-" + encode.encodeToString(hash.digest());
    }
}
