package io.jkubelet.cmd.certificate;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ServingCertificatesTest {

    @Test
    void hostNamesAreDnsNamesAndLiteralsAreAddressesOnceEach() {
        CsrTemplate t = ServingCertificates.template("worker-1", List.of("10.0.0.5", "worker-1", "fd00::1", "10.0.0.5",
                "worker-1.example.com", "", "0:0:0:0:0:0:0:1"));
        assertThat(t.commonName()).isEqualTo("system:node:worker-1");
        assertThat(t.organizations()).containsExactly("system:nodes");
        assertThat(t.dnsNames()).containsExactly("worker-1", "worker-1.example.com");
        assertThat(t.ipAddresses()).containsExactly("10.0.0.5", "fd00:0:0:0:0:0:0:1", "0:0:0:0:0:0:0:1");
    }

    @Test
    void theIssuedCertificateCarriesTheTemplatesNamesAndSatisfiesIt() throws Exception {
        TestSigner signer = new TestSigner();
        CsrTemplate t = ServingCertificates.template("worker-1", List.of("10.0.0.5", "worker-1"));
        var key = CsrTemplate.newKey();
        CertificatePair pair = CertificatePair.parse(signer.sign(t.toPem(key)) + CertificatePair.keyPem(key), "issued");
        CertificateNames names = CertificateNames.of(pair.leaf());
        assertThat(names.dnsNames()).containsExactly("worker-1");
        assertThat(names.ipAddresses()).containsExactly("10.0.0.5");
        assertThat(CertificateManager.satisfies(pair, java.util.Optional.of(t))).isTrue();
        assertThat(CertificateManager.satisfies(pair, java.util.Optional.of(
                ServingCertificates.template("worker-1", List.of("10.0.0.6", "worker-1"))))).isFalse();
    }
}
