package io.jkubelet.server.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServingCertificateTest {

    @TempDir
    Path dir;

    @Test
    void withoutFilesASelfSignedPairIsWrittenToTheCertDirAndReusedAfterwards() throws Exception {
        Path certDir = dir.resolve("pki");
        ServingCertificate first = ServingCertificate.resolve("", "", certDir, "node-a", Instant.now());
        Path crt = certDir.resolve("kubelet.crt");
        Path key = certDir.resolve("kubelet.key");
        assertThat(first.certFile()).isEqualTo(crt);
        assertThat(Files.readString(key)).startsWith("-----BEGIN RSA PRIVATE KEY-----");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(crt))).isEqualTo("rw-r--r--");

        List<X509Certificate> chain = first.chain();
        assertThat(chain).hasSize(2);
        X509Certificate leaf = chain.get(0);
        X509Certificate ca = chain.get(1);
        assertThat(leaf.getSubjectX500Principal().getName()).matches("CN=node-a@\\d+");
        assertThat(ca.getSubjectX500Principal().getName()).matches("CN=node-a-ca@\\d+");
        assertThat(leaf.getSubjectAlternativeNames()).containsExactly(List.of(2, "node-a"));
        assertThat(leaf.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1");
        assertThat(ca.getBasicConstraints()).isGreaterThanOrEqualTo(0);
        leaf.verify(ca.getPublicKey());

        String before = Files.readString(crt);
        ServingCertificate second = ServingCertificate.resolve("", "", certDir, "node-a", Instant.now());
        assertThat(Files.readString(crt)).isEqualTo(before);
        assertThat(second.chain().get(0)).isEqualTo(leaf);
    }

    @Test
    void anAddressGetsAnIpSubjectAlternativeName() throws Exception {
        ServingCertificate c = ServingCertificate.resolve("", "", dir, "10.1.2.3", Instant.now());
        assertThat(c.chain().get(0).getSubjectAlternativeNames()).containsExactly(List.of(7, "10.1.2.3"));
    }

    @Test
    void givenFilesAreUsedAndTheirProblemsNamed() throws Exception {
        ServingCertificate generated = ServingCertificate.resolve("", "", dir, "node-b", Instant.now());
        ServingCertificate given = ServingCertificate.resolve(generated.certFile().toString(), generated.keyFile().toString(),
                dir.resolve("unused"), "x", Instant.now());
        assertThat(given.chain()).isEqualTo(generated.chain());
        assertThat(Files.exists(dir.resolve("unused"))).isFalse();

        assertThatThrownBy(() -> ServingCertificate.resolve(generated.certFile().toString(), "", dir, "x", Instant.now()))
                .hasMessageContaining("tlsPrivateKeyFile");
        Path missing = dir.resolve("missing.crt");
        assertThatThrownBy(() -> ServingCertificate.resolve(missing.toString(), generated.keyFile().toString(), dir, "x", Instant.now()))
                .hasMessage("certificate file " + missing + " does not exist");
        Path garbage = Files.writeString(dir.resolve("garbage.key"), "not a key");
        assertThatThrownBy(() -> ServingCertificate.resolve(generated.certFile().toString(), garbage.toString(), dir, "x", Instant.now()))
                .hasMessageContaining(garbage.toString());
    }

    @Test
    void unknownTlsSettingsAreNamed() {
        assertThatThrownBy(() -> ServerTls.protocols("VersionTLS14"))
                .hasMessageContaining("tlsMinVersion").hasMessageContaining("VersionTLS14");
        assertThatThrownBy(() -> ServerTls.ciphers(List.of("TLS_NOT_A_SUITE")))
                .hasMessageContaining("cipher suite TLS_NOT_A_SUITE not supported or doesn't exist");
        assertThat(List.of(ServerTls.protocolsUnchecked("VersionTLS12"))).containsExactly("TLSv1.2", "TLSv1.3");
    }

    @Test
    void goCipherNamesMapToTheJdksAndTls13StaysOn() throws Exception {
        assertThat(ServerTls.ciphers(List.of("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305")))
                .startsWith("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256")
                .contains("TLS_AES_128_GCM_SHA256");
    }
}
