package io.jkubelet.cmd;

import io.jkubelet.core.apis.config.KubeletAuthorization;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.apis.config.KubeletConfigurationDefaults;
import io.jkubelet.core.container.GCPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The secure port's settings are checked before the pods start; only a self-signed pair still to be made waits for
 * {@link SecureServing.Checked#complete} (the servers), so that a node's first start does not hold its static pods back
 * for two RSA keys.
 */
class SecureServingCheckTest {
    @TempDir
    Path dir;

    private KubeletFlags flags() {
        return new KubeletFlags("", "", "", "node-a", "", dir.toString(), dir.resolve("pki").toString(),
                Map.of(), dir.resolve("containers").toString(), "jkubelet/pause:3.9", GCPolicy.DEFAULT, 0);
    }

    /** Anonymous, AlwaysAllow (the flags' defaults): what a node without an apiserver can serve. */
    private static KubeletConfiguration.Builder standalone() {
        KubeletConfiguration.Builder b = KubeletConfiguration.builder().from(KubeletConfigurationDefaults.newDefaulted());
        b.authenticationBuilder().anonymousBuilder().enabled(true);
        b.authenticationBuilder().webhookBuilder().enabled(false);
        b.authorizationBuilder().mode(KubeletAuthorization.MODE_ALWAYS_ALLOW);
        return b;
    }

    @Test
    void theSelfSignedPairIsMadeOnlyWhenCompleted() throws Exception {
        Optional<SecureServing.Checked> checked = SecureServing.check(flags(), standalone().build(), "node-a",
                Clock.systemUTC(), Optional.empty());

        assertThat(checked).isPresent();
        assertThat(checked.get().makesSelfSigned()).isTrue();
        assertThat(dir.resolve("pki/kubelet.crt")).doesNotExist();
        SecureServing serving = checked.get().complete();
        assertThat(serving.certFile()).isEqualTo(dir.resolve("pki/kubelet.crt")).exists();
        assertThat(dir.resolve("pki/kubelet.key")).exists();
        // The next start finds the pair and serves it from the check on.
        assertThat(SecureServing.check(flags(), standalone().build(), "node-a", Clock.systemUTC(),
                Optional.empty()).orElseThrow().makesSelfSigned()).isFalse();
    }

    @Test
    void whatAnOperatorGaveIsRefusedByTheCheckItself() throws Exception {
        KubeletConfiguration badSuite = standalone()
                .tlsCipherSuites(List.of("TLS_NO_SUCH_SUITE")).build();
        assertThatThrownBy(() -> SecureServing.check(flags(), badSuite, "node-a", Clock.systemUTC(), Optional.empty()))
                .hasMessageContaining("tlsCipherSuites (--tls-cipher-suites): cipher suite TLS_NO_SUCH_SUITE");

        Files.createDirectories(dir.resolve("given"));
        Files.writeString(dir.resolve("given/tls.crt"), "not a certificate\n");
        Files.writeString(dir.resolve("given/tls.key"), "not a key\n");
        KubeletConfiguration badCert = standalone()
                .tlsCertFile(dir.resolve("given/tls.crt").toString()).tlsPrivateKeyFile(dir.resolve("given/tls.key").toString())
                .build();
        assertThatThrownBy(() -> SecureServing.check(flags(), badCert, "node-a", Clock.systemUTC(), Optional.empty()))
                .hasMessageContaining("secure server").hasMessageContaining("tls.crt");
        assertThat(dir.resolve("pki")).doesNotExist();
    }
}
