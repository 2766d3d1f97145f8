package io.jkubelet.server.tls;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throw-away certificate authority for TLS tests: it issues client certificates (subject CN and O as
 * the kubelet reads them) and builds the JDK client contexts that present them.
 */
public final class TestPki {

    /** A certificate with its key. */
    public record Issued(X509Certificate certificate, KeyPair keys) {

        /** Writes the certificate and its PKCS#1 key as PEM; answers {cert, key}. */
        public Path[] writePem(Path dir, String name) throws IOException {
            Path cert = dir.resolve(name + ".crt");
            Path key = dir.resolve(name + ".key");
            Files.writeString(cert, SelfSignedPair.pem(certificate));
            Files.writeString(key, SelfSignedPair.pem(keys));
            return new Path[] {cert, key};
        }
    }

    private final Issued ca;

    private TestPki(Issued ca) {
        this.ca = ca;
    }

    public static TestPki create(String name) throws GeneralSecurityException {
        KeyPair keys = keys();
        X500Name subject = new X500Name("CN=" + name);
        return new TestPki(new Issued(build(subject, subject, keys, keys, true, null), keys));
    }

    public X509Certificate caCertificate() {
        return ca.certificate();
    }

    public Path writeCa(Path file) throws IOException {
        Files.writeString(file, SelfSignedPair.pem(ca.certificate()));
        return file;
    }

    /** A client certificate (extended key usage clientAuth) for {@code subject}, e.g. {@code CN=alice,O=ops}. */
    public Issued client(String subject) throws GeneralSecurityException {
        KeyPair keys = keys();
        return new Issued(build(new X500Name(subject), new X500Name(ca.certificate().getSubjectX500Principal().getName()), keys,
                ca.keys(), false, KeyPurposeId.id_kp_clientAuth), keys);
    }

    /** A JDK TLS context that presents {@code client} (null for none) and trusts any server. */
    public static SSLContext clientContext(Issued client) throws GeneralSecurityException, IOException {
        SSLContext context = SSLContext.getInstance("TLS");
        KeyManagerFactory kmf = null;
        if (client != null) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("client", client.keys().getPrivate(), new char[0], new X509Certificate[] {client.certificate()});
            kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(store, new char[0]);
        }
        javax.net.ssl.KeyManager[] managers = kmf == null ? null
                : new javax.net.ssl.KeyManager[] {alwaysPresent((javax.net.ssl.X509KeyManager) kmf.getKeyManagers()[0])};
        context.init(managers, new TrustManager[] {trustAll()}, new SecureRandom());
        return context;
    }

    /** A JDK TLS context that trusts only {@code ca} (such as the server's self-signed CA). */
    public static SSLContext trusting(X509Certificate ca) throws GeneralSecurityException, IOException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setCertificateEntry("ca", ca);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(store);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, tmf.getTrustManagers(), new SecureRandom());
        return context;
    }

    /**
     * Presents the certificate whatever issuers the server names, as curl and Go clients do: the JDK's own
     * key manager would quietly send none when the issuer is not among them.
     */
    private static javax.net.ssl.X509ExtendedKeyManager alwaysPresent(javax.net.ssl.X509KeyManager keys) {
        return new javax.net.ssl.X509ExtendedKeyManager() {
            @Override
            public String[] getClientAliases(String keyType, java.security.Principal[] issuers) {
                return new String[] {"client"};
            }

            @Override
            public String chooseClientAlias(String[] keyType, java.security.Principal[] issuers, java.net.Socket socket) {
                return "client";
            }

            @Override
            public String chooseEngineClientAlias(String[] keyType, java.security.Principal[] issuers, javax.net.ssl.SSLEngine engine) {
                return "client";
            }

            @Override
            public String[] getServerAliases(String keyType, java.security.Principal[] issuers) {
                return null;
            }

            @Override
            public String chooseServerAlias(String keyType, java.security.Principal[] issuers, java.net.Socket socket) {
                return null;
            }

            @Override
            public X509Certificate[] getCertificateChain(String alias) {
                return keys.getCertificateChain(alias);
            }

            @Override
            public java.security.PrivateKey getPrivateKey(String alias) {
                return keys.getPrivateKey(alias);
            }
        };
    }

    /** Extended, so that the JDK does not add its host name check on top (a plain X509TrustManager gets one). */
    private static X509TrustManager trustAll() {
        return new javax.net.ssl.X509ExtendedTrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType, java.net.Socket socket) {}

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType, java.net.Socket socket) {}

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType, javax.net.ssl.SSLEngine engine) {}

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType, javax.net.ssl.SSLEngine engine) {}

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {}

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {}

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
    }

    private static KeyPair keys() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return generator.generateKeyPair();
    }

    private static X509Certificate build(X500Name subject, X500Name issuer, KeyPair subjectKeys, KeyPair issuerKeys,
            boolean isCa, KeyPurposeId usage) throws GeneralSecurityException {
        try {
            Instant now = Instant.now();
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(issuer,
                    BigInteger.valueOf(new SecureRandom().nextLong() & Long.MAX_VALUE), Date.from(now.minus(Duration.ofHours(1))),
                    Date.from(now.plus(Duration.ofDays(1))), subject, subjectKeys.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(isCa));
            if (usage != null) {
                builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(usage));
            }
            return new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder("SHA256withRSA").build(issuerKeys.getPrivate())));
        } catch (IOException | org.bouncycastle.operator.OperatorCreationException e) {
            throw new GeneralSecurityException(e);
        }
    }
}
