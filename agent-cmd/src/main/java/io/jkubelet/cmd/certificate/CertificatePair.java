package io.jkubelet.cmd.certificate;

import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.interfaces.ECPrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A certificate chain and its private key, as client-go's {@code tls.Certificate} with its {@code Leaf}: what a
 * certificate manager hands out and a certificate store keeps, in one PEM ({@code kubelet-client-<time>.pem} holds the
 * certificates, then the key).
 *
 * @param chain the certificate first, then any intermediates
 * @param key its private key
 */
public record CertificatePair(List<X509Certificate> chain, PrivateKey key) {

    public CertificatePair {
        if (chain.isEmpty()) {
            throw new IllegalArgumentException("a certificate pair needs a certificate");
        }
        chain = List.copyOf(chain);
    }

    public X509Certificate leaf() {
        return chain.getFirst();
    }

    public Instant notBefore() {
        return leaf().getNotBefore().toInstant();
    }

    public Instant notAfter() {
        return leaf().getNotAfter().toInstant();
    }

    /** Whether the certificate has expired at {@code now} (client-go: {@code now.After(NotAfter)}). */
    public boolean expiredAt(Instant now) {
        return now.isAfter(notAfter());
    }

    /**
     * Reads a pair from PEM text holding certificates and one unencrypted key (PKCS#1, PKCS#8 or SEC1), in any order.
     *
     * @param source what the text is, for messages (a file name)
     * @throws IOException naming {@code source} when a part is missing or unreadable
     */
    public static CertificatePair parse(String pem, String source) throws IOException {
        List<X509Certificate> certs = new ArrayList<>();
        PrivateKey key = null;
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            JcaX509CertificateConverter certificates = new JcaX509CertificateConverter();
            JcaPEMKeyConverter keys = new JcaPEMKeyConverter();
            for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
                switch (o) {
                    case X509CertificateHolder holder -> certs.add(certificates.getCertificate(holder));
                    // SEC1 written without its optional public key has no public half.
                    case PEMKeyPair pair -> key = keys.getPrivateKey(pair.getPrivateKeyInfo());
                    case PrivateKeyInfo info -> key = keys.getPrivateKey(info);
                    default -> { }
                }
            }
        } catch (CertificateException | RuntimeException e) {
            throw new IOException(source + ": not a PEM certificate and key: " + e.getMessage(), e);
        }
        if (certs.isEmpty()) {
            throw new IOException(source + " holds no PEM certificate");
        }
        if (key == null) {
            throw new IOException(source + " holds no unencrypted PEM private key");
        }
        if (!certs.getFirst().getPublicKey().getAlgorithm().equals(key.getAlgorithm())) {
            throw new IOException(source + ": the private key (" + key.getAlgorithm() + ") does not match the certificate ("
                    + certs.getFirst().getPublicKey().getAlgorithm() + ")");
        }
        return new CertificatePair(certs, key);
    }

    /** The certificates' PEM, then the key's. */
    public String toPem() {
        return certificatesPem(chain) + keyPem(new KeyPair(leaf().getPublicKey(), key));
    }

    public static String certificatesPem(List<X509Certificate> certs) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            for (X509Certificate c : certs) {
                writer.writeObject(c);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode a certificate: " + e.getMessage(), e);
        }
        return out.toString();
    }

    /**
     * An EC key as SEC1 ({@code EC PRIVATE KEY}) with its public key, as Go's {@code x509.MarshalECPrivateKey} writes
     * it; an RSA key as PKCS#1, as client-go's keyutil does.
     */
    public static String keyPem(KeyPair key) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            if (key.getPrivate() instanceof ECPrivateKey ec) {
                PrivateKeyInfo info = PrivateKeyInfo.getInstance(ec.getEncoded());
                SubjectPublicKeyInfo publicKey = SubjectPublicKeyInfo.getInstance(key.getPublic().getEncoded());
                org.bouncycastle.asn1.sec.ECPrivateKey sec1 = new org.bouncycastle.asn1.sec.ECPrivateKey(
                        ec.getParams().getOrder().bitLength(), ec.getS(), publicKey.getPublicKeyData(),
                        info.getPrivateKeyAlgorithm().getParameters());
                writer.writeObject(new PemObject("EC PRIVATE KEY", sec1.getEncoded()));
            } else {
                writer.writeObject(key.getPrivate());
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode a private key: " + e.getMessage(), e);
        }
        return out.toString();
    }

    /** A private key and its public half from PEM (SEC1 or PKCS#1, which hold both). */
    static KeyPair parseKeyPair(String pem, String source) throws IOException {
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
                if (o instanceof PEMKeyPair pair && pair.getPublicKeyInfo() != null) {
                    return new JcaPEMKeyConverter().getKeyPair(pair);
                }
            }
        } catch (RuntimeException e) {
            throw new IOException(source + ": not a PEM key: " + e.getMessage(), e);
        }
        throw new IOException(source + " holds no PEM key pair");
    }
}
