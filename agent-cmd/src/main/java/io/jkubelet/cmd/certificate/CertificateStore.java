package io.jkubelet.cmd.certificate;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Optional;

/**
 * Certificate pairs in {@code --cert-dir}, as client-go's {@code FileStore}: each pair issued is written to
 * {@code <prefix>-<yyyy-MM-dd-HH-mm-ss>.pem} (certificates, then the key, mode 0600) and {@code <prefix>-current.pem}
 * is a symbolic link to the one in use. The link is switched through {@code <prefix>-updated.pem} and a rename, so a
 * crash leaves either the old or the new link, and a later start {@linkplain #recover() recovers} a switch cut
 * short. Older pairs stay on disk: the one in use until a new one is issued is never lost.
 */
public final class CertificateStore {
    private static final Logger log = LoggerFactory.getLogger(CertificateStore.class);
    /** Go's {@code "2006-01-02-15-04-05"}, in local time as {@code time.Now().Format} writes it. */
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd-HH-mm-ss");

    private final String pairNamePrefix;
    private final Path dir;
    private final ZoneId zone;
    private final Optional<Path> certFile;
    private final Optional<Path> keyFile;

    /**
     * @param pairNamePrefix {@code kubelet-client} or {@code kubelet-server}
     * @param dir {@code --cert-dir}
     */
    public CertificateStore(String pairNamePrefix, Path dir, ZoneId zone) throws IOException {
        this(pairNamePrefix, dir, zone, Optional.empty(), Optional.empty());
    }

    /**
     * @param certFile a certificate to fall back on when there is no current pair (the kubeconfig's
     *     {@code client-certificate}, the serving {@code tlsCertFile})
     * @param keyFile its key
     */
    public CertificateStore(String pairNamePrefix, Path dir, ZoneId zone, Optional<Path> certFile, Optional<Path> keyFile)
            throws IOException {
        this.pairNamePrefix = pairNamePrefix;
        this.dir = dir.toAbsolutePath();
        this.zone = zone;
        this.certFile = certFile;
        this.keyFile = keyFile;
        recover();
    }

    /** {@code <cert-dir>/<prefix>-current.pem}, what a kubeconfig written by bootstrapping names. */
    public Path currentPath() {
        return dir.resolve(pairNamePrefix + "-current.pem");
    }

    private Path updatedPath() {
        return dir.resolve(pairNamePrefix + "-updated.pem");
    }

    /** Finishes a switch a crash cut short: the {@code -updated} link becomes {@code -current} when there is none. */
    void recover() throws IOException {
        if (Files.exists(currentPath())) {
            return;
        }
        Path updated = updatedPath();
        if (!Files.exists(updated, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (!Files.isSymbolicLink(updated)) {
            throw new IOException("expected " + updated + " to be a symlink but it is a file");
        }
        Files.move(updated, currentPath(), StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * The pair in use: {@code <prefix>-current.pem}, else the fallback files, else {@code <prefix>.crt} and
     * {@code <prefix>.key} in the directory (client-go's order); empty when there is none.
     *
     * @throws IOException when a file exists but does not hold a pair
     */
    public Optional<CertificatePair> current() throws IOException {
        Path pair = currentPath();
        if (Files.exists(pair)) {
            log.info("Loading cert/key pair from \"{}\"", pair);
            return Optional.of(CertificatePair.parse(Files.readString(pair), pair.toString()));
        }
        if (certFile.isPresent() && keyFile.isPresent() && Files.exists(certFile.get()) && Files.exists(keyFile.get())) {
            return Optional.of(readPair(certFile.get(), keyFile.get()));
        }
        Path cert = dir.resolve(pairNamePrefix + ".crt");
        Path key = dir.resolve(pairNamePrefix + ".key");
        if (Files.exists(cert) && Files.exists(key)) {
            return Optional.of(readPair(cert, key));
        }
        return Optional.empty();
    }

    static CertificatePair readPair(Path cert, Path key) throws IOException {
        log.info("Loading cert/key pair from (\"{}\", \"{}\")", cert, key);
        String pem = cert.equals(key) ? Files.readString(cert) : Files.readString(cert) + "\n" + Files.readString(key);
        return CertificatePair.parse(pem, cert.equals(key) ? cert.toString() : cert + " and " + key);
    }

    /**
     * Writes a newly issued pair to a file of its own and makes it the current one.
     *
     * @param certificatesPem the signed certificate (and any chain), PEM
     * @param keyPem its private key, PEM
     * @param now names the file
     * @throws IOException when the pair cannot be written or does not parse
     */
    public CertificatePair update(String certificatesPem, String keyPem, Instant now) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve(pairNamePrefix + "-" + STAMP.format(now.atZone(zone)) + ".pem");
        CertificatePair pair = CertificatePair.parse(certificatesPem + keyPem, "the issued certificate for " + file);
        Path tmp = dir.resolve("." + file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(tmp, pair.toPem());
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        switchTo(file);
        return pair;
    }

    private void switchTo(Path file) throws IOException {
        Path current = currentPath();
        if (Files.exists(current, LinkOption.NOFOLLOW_LINKS) && !Files.isSymbolicLink(current)) {
            throw new IOException("expected " + current + " to be a symlink but it is a file");
        }
        Path updated = updatedPath();
        try {
            Files.delete(updated);
        } catch (NoSuchFileException e) {
            // nothing left from an earlier switch
        }
        Files.createSymbolicLink(updated, file);
        // rename(2) replaces the old link in one step: a reader sees the old pair or the new one, never none.
        Files.move(updated, current, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
