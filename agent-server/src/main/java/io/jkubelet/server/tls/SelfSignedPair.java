package io.jkubelet.server.tls;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The serving certificate the kubelet makes for itself when it is given none (client-go's {@code
 * GenerateSelfSignedCertKey}): a CA named {@code <host>-ca@<unix seconds>} signs a serving certificate
 * named {@code <host>@<unix seconds>} whose subject alternative name is the host (an IP SAN when the host
 * is an address, else a DNS SAN); both are valid for a year, RSA 2048. The certificate PEM holds the
 * serving certificate then the CA, and the key PEM is PKCS#1 ({@code RSA PRIVATE KEY}), as upstream writes them.
 *
 * @param certificatePem the serving certificate followed by its CA
 * @param keyPem the serving certificate's private key
 */
public record SelfSignedPair(String certificatePem, String keyPem) {

    /** client-go's {@code duration365d}. */
    static final Duration VALIDITY = Duration.ofDays(365);

    /** Generates a pair for {@code host} valid from {@code now}. */
    public static SelfSignedPair generate(String host, Instant now) throws GeneralSecurityException {
        SecureRandom random = new SecureRandom();
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048, random);
        long unix = now.getEpochSecond();
        Date notBefore = Date.from(now);
        Date notAfter = Date.from(now.plus(VALIDITY));
        try {
            KeyPair caKey = generator.generateKeyPair();
            X500Name caName = new X500Name("CN=" + escape(host + "-ca@" + unix));
            X509v3CertificateBuilder ca = new JcaX509v3CertificateBuilder(
                    caName, serial(random), notBefore, notAfter, caName, caKey.getPublic());
            ca.addExtension(Extension.keyUsage, true,
                    new KeyUsage(KeyUsage.keyEncipherment | KeyUsage.digitalSignature | KeyUsage.keyCertSign));
            ca.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            X509Certificate caCert = sign(ca, caKey);

            KeyPair servingKey = generator.generateKeyPair();
            X509v3CertificateBuilder serving = new JcaX509v3CertificateBuilder(
                    caName, serial(random), notBefore, notAfter, new X500Name("CN=" + escape(host + "@" + unix)),
                    servingKey.getPublic());
            serving.addExtension(Extension.keyUsage, true,
                    new KeyUsage(KeyUsage.keyEncipherment | KeyUsage.digitalSignature));
            serving.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
            serving.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            serving.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(subjectAltName(host)));
            X509Certificate servingCert = sign(serving, caKey);

            return new SelfSignedPair(pem(servingCert) + pem(caCert), pem(servingKey));
        } catch (IOException | OperatorCreationException e) {
            throw new GeneralSecurityException("cannot build a self-signed certificate for " + host + ": " + e.getMessage(), e);
        }
    }

    private static GeneralName subjectAltName(String host) {
        return isAddress(host) ? new GeneralName(GeneralName.iPAddress, host) : new GeneralName(GeneralName.dNSName, host);
    }

    /** Whether {@code host} is an IP literal (no name is looked up). */
    public static boolean isAddress(String host) {
        if (host.isEmpty() || !(host.indexOf(':') >= 0 || host.chars().allMatch(c -> c == '.' || Character.isDigit(c)))) {
            return false;
        }
        try {
            // Only digits, dots or colons reach here: a literal, so no name is looked up.
            InetAddress.getByName(host);
            return true;
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static String escape(String rdnValue) {
        return rdnValue.replaceAll("([,+\"\\\\<>;=])", "\\\\$1");
    }

    private static BigInteger serial(SecureRandom random) {
        return new BigInteger(64, random).add(BigInteger.ONE);
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair issuer)
            throws OperatorCreationException, GeneralSecurityException {
        ContentSigner signer = new JcaContentSignerBuilder("SHA256withRSA").build(issuer.getPrivate());
        return new JcaX509CertificateConverter().getCertificate(builder.build(signer));
    }

    /** PEM of a certificate, or of a key pair's private key as PKCS#1 for RSA. */
    static String pem(Object object) throws IOException {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            // A KeyPair is written as PKCS#1 "RSA PRIVATE KEY", as client-go's keyutil.WriteKey does.
            writer.writeObject(object);
        }
        return out.toString();
    }
}
