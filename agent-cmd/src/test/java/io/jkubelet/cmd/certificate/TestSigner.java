package io.jkubelet.cmd.certificate;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequest;

import java.io.IOException;
import java.io.StringReader;
import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A certificate authority that signs what it is sent, as the controller manager's signer does (subject and
 * extensions of the request, its own validity), and the {@link CertificateSigningRequests} in front of it: each
 * request is approved at once, or denied once {@link #deny} is set. It records the requests it got.
 */
final class TestSigner implements CertificateSigningRequests {
    private final KeyPair caKey;
    private final X509Certificate ca;
    private final AtomicLong serial = new AtomicLong(2);
    final List<String> signerNames = new ArrayList<>();
    final List<String> names = new ArrayList<>();
    volatile Instant notBefore = Instant.now().minusSeconds(300);
    volatile Duration validity = Duration.ofHours(1);
    volatile String deny;

    TestSigner() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(256);
        caKey = generator.generateKeyPair();
        X500Name name = new X500Name("CN=test-ca");
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name, BigInteger.ONE,
                Date.from(Instant.now().minusSeconds(3600)), Date.from(Instant.now().plus(Duration.ofDays(1))), name,
                caKey.getPublic());
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
        ca = new JcaX509CertificateConverter().getCertificate(
                builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(caKey.getPrivate())));
    }

    @Override
    public synchronized Submitted create(String name, String csrPem, String signerName, List<String> usages) {
        signerNames.add(signerName);
        String n = name == null ? "csr-" + names.size() : name;
        names.add(n);
        pending = csrPem;
        return new Submitted(n, "uid-" + names.size());
    }

    private volatile String pending;

    @Override
    public String awaitCertificate(Submitted request, Duration timeout) throws IOException {
        if (deny != null) {
            throw new IOException("certificate signing request is denied, reason: " + deny + ", message: test");
        }
        return sign(pending);
    }

    String sign(String csrPem) throws IOException {
        try (PEMParser parser = new PEMParser(new StringReader(csrPem))) {
            JcaPKCS10CertificationRequest csr = new JcaPKCS10CertificationRequest((PKCS10CertificationRequest) parser.readObject());
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(X500Name.getInstance(ca.getSubjectX500Principal().getEncoded()),
                    BigInteger.valueOf(serial.getAndIncrement()), Date.from(notBefore), Date.from(notBefore.plus(validity)),
                    csr.getSubject(), csr.getPublicKey());
            for (var attribute : csr.getAttributes()) {
                var extensions = org.bouncycastle.asn1.x509.Extensions.getInstance(attribute.getAttrValues().getObjectAt(0));
                for (var oid : extensions.getExtensionOIDs()) {
                    builder.addExtension(extensions.getExtension(oid));
                }
            }
            X509Certificate cert = new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(caKey.getPrivate())));
            return CertificatePair.certificatesPem(List.of(cert));
        } catch (Exception e) {
            throw new IOException("cannot sign: " + e.getMessage(), e);
        }
    }

    X509Certificate ca() {
        return ca;
    }
}
