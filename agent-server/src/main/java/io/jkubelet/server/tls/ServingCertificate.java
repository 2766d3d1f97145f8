package io.jkubelet.server.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The secure server's certificate chain and key, found as the kubelet finds them ({@code InitializeTLS}):
 * {@code tlsCertFile}/{@code tlsPrivateKeyFile} when given; otherwise {@code <cert-dir>/kubelet.crt} and
 * {@code kubelet.key}, written as a {@linkplain SelfSignedPair self-signed pair} for the node's host name
 * when they cannot be read.
 *
 * @param chain the serving certificate first, then any intermediates
 * @param key its private key
 * @param certFile where the chain was read from
 * @param keyFile where the key was read from
 */
public record ServingCertificate(List<X509Certificate> chain, PrivateKey key, Path certFile, Path keyFile) {

    private static final Logger log = LoggerFactory.getLogger(ServingCertificate.class);

    /** The file names upstream writes into {@code --cert-dir}. */
    public static final String SELF_SIGNED_CERT = "kubelet.crt";
    public static final String SELF_SIGNED_KEY = "kubelet.key";

    /**
     * Loads the configured pair or the one in {@code certDir}, generating that one when missing.
     *
     * @param tlsCertFile {@code tlsCertFile}, empty for none
     * @param tlsPrivateKeyFile {@code tlsPrivateKeyFile}, empty for none
     * @param certDir {@code --cert-dir}
     * @param hostName the node's host name, the self-signed certificate's subject
     * @throws TlsConfigException naming the file and what is wrong with it
     */
    public static ServingCertificate resolve(String tlsCertFile, String tlsPrivateKeyFile, Path certDir, String hostName,
            Instant now) throws TlsConfigException {
        boolean certGiven = tlsCertFile != null && !tlsCertFile.isEmpty();
        boolean keyGiven = tlsPrivateKeyFile != null && !tlsPrivateKeyFile.isEmpty();
        if (certGiven != keyGiven) {
            throw new TlsConfigException(certGiven
                    ? "tlsCertFile (--tls-cert-file) is set but tlsPrivateKeyFile (--tls-private-key-file) is not"
                    : "tlsPrivateKeyFile (--tls-private-key-file) is set but tlsCertFile (--tls-cert-file) is not");
        }
        if (certGiven) {
            return load(Path.of(tlsCertFile), Path.of(tlsPrivateKeyFile));
        }
        Path cert = certDir.resolve(SELF_SIGNED_CERT);
        Path key = certDir.resolve(SELF_SIGNED_KEY);
        if (selfSignedPairMissing(certDir)) {
            writeSelfSigned(cert, key, hostName, now);
        }
        ServingCertificate loaded = load(cert, key);
        log.debug("Using self-signed cert {} and key {}", cert, key);
        return loaded;
    }

    /**
     * Whether {@link #resolve} with these settings would make the self-signed pair: neither file is configured and
     * {@code certDir} holds no readable pair yet.
     */
    public static boolean makesSelfSigned(String tlsCertFile, String tlsPrivateKeyFile, Path certDir) {
        boolean configured = tlsCertFile != null && !tlsCertFile.isEmpty()
                || tlsPrivateKeyFile != null && !tlsPrivateKeyFile.isEmpty();
        return !configured && selfSignedPairMissing(certDir);
    }

    private static boolean selfSignedPairMissing(Path certDir) {
        return !Files.isReadable(certDir.resolve(SELF_SIGNED_CERT)) || !Files.isReadable(certDir.resolve(SELF_SIGNED_KEY));
    }

    /** Reads a PEM chain and its PEM key (PKCS#1, PKCS#8 or SEC1). */
    public static ServingCertificate load(Path certFile, Path keyFile) throws TlsConfigException {
        List<X509Certificate> chain = readCertificates(certFile, "certificate");
        PrivateKey key = readKey(keyFile);
        if (!chain.get(0).getPublicKey().getAlgorithm().equals(key.getAlgorithm())) {
            throw new TlsConfigException("private key " + keyFile + " (" + key.getAlgorithm()
                    + ") does not match the certificate in " + certFile + " (" + chain.get(0).getPublicKey().getAlgorithm() + ")");
        }
        return new ServingCertificate(chain, key, certFile, keyFile);
    }

    /** Reads every certificate of a PEM file, such as a client CA bundle. */
    public static List<X509Certificate> readCertificates(Path file, String what) throws TlsConfigException {
        byte[] bytes = read(file, what);
        try {
            List<X509Certificate> certs = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(bytes)).stream()
                    .map(X509Certificate.class::cast).toList();
            if (certs.isEmpty()) {
                throw new TlsConfigException(what + " file " + file + " holds no PEM certificate");
            }
            return certs;
        } catch (CertificateException e) {
            throw new TlsConfigException(what + " file " + file + " is not a PEM certificate: " + e.getMessage(), e);
        }
    }

    private static PrivateKey readKey(Path file) throws TlsConfigException {
        String pem = new String(read(file, "private key"), StandardCharsets.US_ASCII);
        try (Reader reader = new StringReader(pem); PEMParser parser = new PEMParser(reader)) {
            JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
            for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
                if (o instanceof PEMKeyPair pair) {
                    return converter.getKeyPair(pair).getPrivate();
                }
                if (o instanceof PrivateKeyInfo info) {
                    return converter.getPrivateKey(info);
                }
            }
        } catch (IOException e) {
            throw new TlsConfigException("private key file " + file + " is not a PEM key: " + e.getMessage(), e);
        }
        throw new TlsConfigException("private key file " + file + " holds no unencrypted PEM private key");
    }

    private static byte[] read(Path file, String what) throws TlsConfigException {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new TlsConfigException(what + " file " + file + " does not exist", e);
        } catch (AccessDeniedException e) {
            throw new TlsConfigException(what + " file " + file + " cannot be read: permission denied", e);
        } catch (IOException e) {
            throw new TlsConfigException(what + " file " + file + " cannot be read: " + e.getMessage(), e);
        }
    }

    private static void writeSelfSigned(Path cert, Path key, String hostName, Instant now) throws TlsConfigException {
        SelfSignedPair pair;
        try {
            pair = SelfSignedPair.generate(hostName, now);
        } catch (GeneralSecurityException e) {
            throw new TlsConfigException("unable to generate self signed cert: " + e.getMessage(), e);
        }
        try {
            Files.createDirectories(cert.getParent());
            // Key first, and each file through a rename, so that a crash never leaves a certificate whose
            // key is missing or half written (the next start would then fail instead of regenerating).
            writeAtomically(key, pair.keyPem(), "rw-------");
            writeAtomically(cert, pair.certificatePem(), "rw-r--r--");
        } catch (IOException e) {
            throw new TlsConfigException("unable to write self signed cert to " + cert.getParent() + ": " + e.getMessage(), e);
        }
        log.info("Generated a self-signed serving certificate for {} in {}", hostName, cert);
    }

    private static void writeAtomically(Path file, String content, String mode) throws IOException {
        Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(mode)));
        Files.writeString(tmp, content);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
