package io.jkubelet.cmd.certificate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CertificateStoreTest {
    @TempDir
    Path dir;

    static String[] issue(TestSigner signer, String node) throws Exception {
        KeyPair key = CsrTemplate.newKey();
        return new String[] {signer.sign(CsrTemplate.nodeClient(node).toPem(key)), CertificatePair.keyPem(key)};
    }

    @Test
    void anIssuedPairGoesToAFileOfItsOwnAndTheCurrentLinkFollowsTheNewest() throws Exception {
        TestSigner signer = new TestSigner();
        CertificateStore store = new CertificateStore("kubelet-client", dir, ZoneOffset.UTC);
        assertThat(store.current()).isEmpty();

        String[] first = issue(signer, "n1");
        CertificatePair one = store.update(first[0], first[1], Instant.parse("2026-12-05T01:02:03Z"));
        Path firstFile = dir.resolve("kubelet-client-2026-12-05-01-02-03.pem");
        assertThat(Files.readSymbolicLink(store.currentPath())).isEqualTo(firstFile);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(firstFile))).isEqualTo("rw-------");
        assertThat(Files.readString(firstFile)).startsWith("-----BEGIN CERTIFICATE-----").contains("-----BEGIN EC PRIVATE KEY-----");
        assertThat(store.current().orElseThrow().leaf()).isEqualTo(one.leaf());

        String[] second = issue(signer, "n1");
        CertificatePair two = store.update(second[0], second[1], Instant.parse("2026-12-05T02:00:00Z"));
        assertThat(Files.readSymbolicLink(store.currentPath())).isEqualTo(dir.resolve("kubelet-client-2026-12-05-02-00-00.pem"));
        assertThat(firstFile).as("the pair before stays on disk").exists();
        // A new store (a restart) reads the same current pair, key included.
        CertificatePair reread = new CertificateStore("kubelet-client", dir, ZoneOffset.UTC).current().orElseThrow();
        assertThat(reread.leaf()).isEqualTo(two.leaf());
        assertThat(reread.key().getEncoded()).isEqualTo(two.key().getEncoded());
    }

    @Test
    void aSwitchCutShortBeforeItsRenameIsFinishedAtTheNextStart() throws Exception {
        TestSigner signer = new TestSigner();
        String[] pair = issue(signer, "n1");
        CertificateStore store = new CertificateStore("kubelet-client", dir, ZoneOffset.UTC);
        store.update(pair[0], pair[1], Instant.parse("2026-12-05T01:02:03Z"));
        Path target = Files.readSymbolicLink(store.currentPath());
        Files.delete(store.currentPath());
        Files.createSymbolicLink(dir.resolve("kubelet-client-updated.pem"), target);

        CertificateStore restarted = new CertificateStore("kubelet-client", dir, ZoneOffset.UTC);
        assertThat(Files.readSymbolicLink(restarted.currentPath())).isEqualTo(target);
        assertThat(dir.resolve("kubelet-client-updated.pem")).doesNotExist();
    }

    @Test
    void withoutACurrentPairTheFallbackFilesAreRead() throws Exception {
        TestSigner signer = new TestSigner();
        String[] pair = issue(signer, "n1");
        Path cert = Files.writeString(dir.resolve("node.crt"), pair[0]);
        Path key = Files.writeString(dir.resolve("node.key"), pair[1]);
        CertificateStore store = new CertificateStore("kubelet-client", dir.resolve("pki"), ZoneOffset.UTC,
                Optional.of(cert), Optional.of(key));
        assertThat(store.current().orElseThrow().leaf().getSubjectX500Principal().getName())
                .isEqualTo("CN=system:node:n1,O=system:nodes");
    }

    @Test
    void aCurrentFileThatIsNotAPairIsReportedByItsName() throws Exception {
        Files.writeString(dir.resolve("kubelet-client-current.pem"), "not pem");
        CertificateStore store = new CertificateStore("kubelet-client", dir, ZoneOffset.UTC);
        assertThatThrownBy(store::current).hasMessageContaining(dir.resolve("kubelet-client-current.pem").toString())
                .hasMessageContaining("holds no PEM certificate");
    }
}
