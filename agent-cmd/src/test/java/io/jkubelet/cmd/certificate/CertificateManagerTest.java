package io.jkubelet.cmd.certificate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class CertificateManagerTest {
    @TempDir
    Path dir;

    final TestSigner signer;
    final List<CertificatePair> rotated = new ArrayList<>();
    final AtomicInteger renewErrors = new AtomicInteger();

    CertificateManagerTest() throws Exception {
        signer = new TestSigner();
    }

    CertificateManager manager(Optional<CertificatePair> initial, boolean force, Clock clock) throws Exception {
        return new CertificateManager(new CertificateManager.Request("client", () -> Optional.of(CsrTemplate.nodeClient("n1")),
                ClientBootstrap.CLIENT_SIGNER, ClientBootstrap.CLIENT_USAGES),
                new CertificateStore("kubelet-client", dir, ZoneOffset.UTC), initial, force, () -> signer, clock,
                rotated::add, renewErrors::incrementAndGet);
    }

    @Test
    void aRotationAsksForTheNodesIdentityWithANewKeyStoresItAndTellsTheListener() throws Exception {
        CertificateManager m = manager(Optional.empty(), false, Clock.systemUTC());
        assertThat(m.current()).isEmpty();
        assertThat(m.rotate()).isTrue();

        CertificatePair first = m.current().orElseThrow();
        assertThat(first.leaf().getSubjectX500Principal().getName()).isEqualTo("CN=system:node:n1,O=system:nodes");
        assertThat(signer.signerNames).containsExactly("kubernetes.io/kube-apiserver-client-kubelet");
        assertThat(rotated).containsExactly(first);
        assertThat(Files.readString(dir.resolve("kubelet-client-current.pem"))).isEqualTo(first.toPem());

        assertThat(m.rotate()).isTrue();
        CertificatePair second = m.current().orElseThrow();
        assertThat(second.leaf().getPublicKey()).as("each request has a key of its own").isNotEqualTo(first.leaf().getPublicKey());
        assertThat(rotated).containsExactly(first, second);
        assertThat(renewErrors).hasValue(0);
    }

    @Test
    void aDeniedRequestIsARenewErrorAndTheCurrentPairStays() throws Exception {
        CertificateManager m = manager(Optional.empty(), false, Clock.systemUTC());
        m.rotate();
        CertificatePair before = m.current().orElseThrow();
        signer.deny = "NotThisNode";
        assertThat(m.rotate()).isFalse();
        assertThat(renewErrors).hasValue(1);
        assertThat(m.current()).contains(before);
        assertThat(rotated).containsExactly(before);
    }

    @Test
    void theNextDeadlineIsNowWhenForcedOrWithoutACertificateElseInTheBand() throws Exception {
        CertificateManager none = manager(Optional.empty(), false, Clock.systemUTC());
        Instant t = Instant.now();
        assertThat(none.nextRotationDeadline()).isAfterOrEqualTo(t);
        assertThat(none.nextRotationDeadline()).isBefore(t.plusSeconds(5));

        signer.notBefore = Instant.parse("2026-01-01T00:00:00Z");
        signer.validity = Duration.ofDays(10);
        manager(Optional.empty(), false, Clock.systemUTC()).rotate();
        CertificatePair pair = new CertificateStore("kubelet-client", dir, ZoneOffset.UTC).current().orElseThrow();
        Clock clock = Clock.fixed(Instant.parse("2026-01-02T00:00:00Z"), ZoneOffset.UTC);

        CertificateManager forced = manager(Optional.of(pair), true, clock);
        assertThat(forced.nextRotationDeadline()).isEqualTo(clock.instant());
        Instant deadline = forced.nextRotationDeadline();
        assertThat(deadline).isBetween(signer.notBefore.plus(Duration.ofDays(7)), signer.notBefore.plus(Duration.ofDays(9)));
    }

    @Test
    void anExpiredPairIsNotHandedOut() throws Exception {
        signer.notBefore = Instant.parse("2026-01-01T00:00:00Z");
        signer.validity = Duration.ofDays(1);
        manager(Optional.empty(), false, Clock.systemUTC()).rotate();
        CertificatePair pair = new CertificateStore("kubelet-client", dir, ZoneOffset.UTC).current().orElseThrow();
        CertificateManager m = manager(Optional.of(pair), false, Clock.fixed(Instant.parse("2026-01-03T00:00:00Z"), ZoneOffset.UTC));
        assertThat(m.current()).isEmpty();
        assertThat(m.latest()).contains(pair);
    }

    @Test
    void aPairWithoutTheTemplatesNamesDoesNotSatisfyIt() throws Exception {
        CertificateManager m = manager(Optional.empty(), false, Clock.systemUTC());
        m.rotate();
        CertificatePair pair = m.current().orElseThrow();
        assertThat(CertificateManager.satisfies(pair, Optional.of(CsrTemplate.nodeClient("n1")))).isTrue();
        assertThat(CertificateManager.satisfies(pair, Optional.of(CsrTemplate.nodeClient("other")))).isFalse();
        assertThat(CertificateManager.satisfies(pair, Optional.of(new CsrTemplate("system:node:n1", List.of("system:nodes"),
                List.of("n1"), List.of("10.0.0.5"))))).isFalse();
    }
}
