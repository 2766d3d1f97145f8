package io.jkubelet.cmd.certificate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClientBootstrapTest {
    @TempDir
    Path dir;

    Path bootstrapKubeconfig() throws Exception {
        Path ca = Files.writeString(dir.resolve("ca.crt"), CertificatePair.certificatesPem(java.util.List.of(new TestSigner().ca())));
        return Files.writeString(dir.resolve("bootstrap.kubeconfig"), """
                apiVersion: v1
                kind: Config
                clusters:
                - name: c
                  cluster: {server: "https://10.1.2.3:6443", certificate-authority: %s}
                users:
                - name: u
                  user: {token: abcdef.0123456789abcdef}
                contexts:
                - name: x
                  context: {cluster: c, user: u}
                current-context: x
                """.formatted(ca));
    }

    @Test
    void withoutAKubeconfigTheNodeAsksForItsCertificateAndWritesAKubeconfigThatNamesIt() throws Exception {
        TestSigner signer = new TestSigner();
        Path kubeconfig = dir.resolve("kubelet.kubeconfig");
        Path certDir = dir.resolve("pki");
        ClientBootstrap.loadClientCert(kubeconfig, bootstrapKubeconfig(), certDir, "n1", Clock.systemUTC(), c -> signer);

        assertThat(signer.names).singleElement().asString().startsWith("node-csr-");
        assertThat(signer.signerNames).containsExactly("kubernetes.io/kube-apiserver-client-kubelet");
        Path current = certDir.resolve("kubelet-client-current.pem");
        assertThat(Files.readString(kubeconfig)).contains("server: \"https://10.1.2.3:6443\"",
                "certificate-authority: \"" + dir.resolve("ca.crt") + "\"", "client-certificate: \"" + current + "\"",
                "client-key: \"" + current + "\"", "current-context: default-context");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(kubeconfig))).isEqualTo("rw-------");
        assertThat(certDir.resolve(ClientBootstrap.TMP_PRIVATE_KEY_FILE)).doesNotExist();
        assertThat(ClientBootstrap.isClientConfigStillValid(kubeconfig, Instant.now())).isTrue();

        // A valid kubeconfig: nothing is asked for again.
        ClientBootstrap.loadClientCert(kubeconfig, bootstrapKubeconfig(), certDir, "n1", Clock.systemUTC(), c -> signer);
        assertThat(signer.names).hasSize(1);
    }

    @Test
    void anExpiredCertificateIsBootstrappedAgainWithTheSameKey() throws Exception {
        TestSigner signer = new TestSigner();
        signer.notBefore = Instant.now().minus(Duration.ofDays(2));
        signer.validity = Duration.ofDays(1);
        Path kubeconfig = dir.resolve("kubelet.kubeconfig");
        Path certDir = dir.resolve("pki");
        ClientBootstrap.loadClientCert(kubeconfig, bootstrapKubeconfig(), certDir, "n1",
                Clock.fixed(Instant.now().minus(Duration.ofDays(2)), ZoneOffset.UTC), c -> signer);
        assertThat(ClientBootstrap.isClientConfigStillValid(kubeconfig, Instant.now())).isFalse();
        var expiredKey = new CertificateStore("kubelet-client", certDir, ZoneOffset.UTC).current().orElseThrow().leaf().getPublicKey();

        signer.notBefore = Instant.now().minusSeconds(60);
        ClientBootstrap.loadClientCert(kubeconfig, bootstrapKubeconfig(), certDir, "n1", Clock.systemUTC(), c -> signer);
        assertThat(signer.names).hasSize(2);
        assertThat(ClientBootstrap.isClientConfigStillValid(kubeconfig, Instant.now())).isTrue();
        assertThat(new CertificateStore("kubelet-client", certDir, ZoneOffset.UTC).current().orElseThrow().leaf().getPublicKey())
                .isEqualTo(expiredKey);
    }

    @Test
    void aKubeconfigWithoutACertificateOrWhoseFilesAreMissingIsNotValid() throws Exception {
        assertThat(ClientBootstrap.isClientConfigStillValid(dir.resolve("missing"), Instant.now())).isFalse();
        Path tokenOnly = bootstrapKubeconfig();
        assertThat(ClientBootstrap.isClientConfigStillValid(tokenOnly, Instant.now())).isFalse();
        Path dangling = Files.writeString(dir.resolve("dangling.kubeconfig"), Files.readString(tokenOnly)
                .replace("{token: abcdef.0123456789abcdef}", "{client-certificate: /nonexistent.pem, client-key: /nonexistent.pem}"));
        assertThat(ClientBootstrap.isClientConfigStillValid(dangling, Instant.now())).isFalse();
    }

    @Test
    void aDeniedRequestEndsTheBootstrapWithItsReason() throws Exception {
        TestSigner signer = new TestSigner();
        signer.deny = "NotAllowed";
        assertThatThrownBy(() -> ClientBootstrap.loadClientCert(dir.resolve("kubelet.kubeconfig"), bootstrapKubeconfig(),
                dir.resolve("pki"), "n1", Clock.systemUTC(), c -> signer))
                .hasMessageContaining("certificate signing request is denied, reason: NotAllowed");
        // The key is kept for the next attempt, so that a pending request is found again under its digested name.
        assertThat(dir.resolve("pki").resolve(ClientBootstrap.TMP_PRIVATE_KEY_FILE)).exists();
    }

    @Test
    void theRequestNameIsADigestOfKeySubjectAndUsages() throws Exception {
        KeyPair key = CsrTemplate.newKey();
        String name = ClientBootstrap.digestedName(key.getPublic(), CsrTemplate.nodeClient("n1"), ClientBootstrap.CLIENT_USAGES);
        assertThat(name).matches("node-csr-[A-Za-z0-9_-]{43}");
        assertThat(ClientBootstrap.digestedName(key.getPublic(), CsrTemplate.nodeClient("n1"), ClientBootstrap.CLIENT_USAGES))
                .isEqualTo(name);
        assertThat(ClientBootstrap.digestedName(key.getPublic(), CsrTemplate.nodeClient("n2"), ClientBootstrap.CLIENT_USAGES))
                .isNotEqualTo(name);
    }

    @Test
    void aMissingBootstrapKubeconfigIsNamed() {
        assertThatThrownBy(() -> ClientBootstrap.loadClientCert(dir.resolve("kubelet.kubeconfig"), dir.resolve("nope"),
                dir.resolve("pki"), "n1", Clock.systemUTC(), c -> null))
                .hasMessageContaining("--bootstrap-kubeconfig " + dir.resolve("nope") + ": cannot read");
    }
}
