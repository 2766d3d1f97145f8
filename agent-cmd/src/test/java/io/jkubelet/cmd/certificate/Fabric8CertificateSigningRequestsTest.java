package io.jkubelet.cmd.certificate;

import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequest;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequestBuilder;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequestListBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;

class Fabric8CertificateSigningRequestsTest {
    private static final String LIST = "/apis/certificates.k8s.io/v1/certificatesigningrequests?fieldSelector=metadata.name%3Dcsr-1";
    private KubernetesMockServer apiserver;
    private KubernetesClient client;

    @BeforeEach
    void startApiserver() {
        apiserver = new KubernetesMockServer(false);
        apiserver.init();
        client = apiserver.createClient(b -> b.editOrNewConfig().withRequestRetryBackoffLimit(0).endConfig());
    }

    @AfterEach
    void stop() {
        client.close();
        apiserver.destroy();
    }

    @Test
    void aWaitWhoseWatchBreaksWatchesTheSameRequestAgainInsteadOfGivingUp() throws Exception {
        apiserver.expect().get().withPath(LIST).andReturn(500, "{\"kind\":\"Status\",\"code\":500,\"reason\":\"InternalError\"}").once();
        apiserver.expect().get().withPath(LIST).andReturn(200, new CertificateSigningRequestListBuilder()
                .withMetadata(new io.fabric8.kubernetes.api.model.ListMetaBuilder().withResourceVersion("2").build()).addToItems(issued("csr-1", "uid-1", "CERT")).build()).always();

        String certificate = new Fabric8CertificateSigningRequests(client, false)
                .awaitCertificate(new CertificateSigningRequests.Submitted("csr-1", "uid-1"), Duration.ofSeconds(20));

        assertThat(certificate).isEqualTo("CERT");
        assertThat(apiserver.getRequestCount()).as("requests: the failed list, then the list that found it issued").isGreaterThanOrEqualTo(2);
    }

    private static CertificateSigningRequest issued(String name, String uid, String certificate) {
        return new CertificateSigningRequestBuilder().withNewMetadata().withName(name).withUid(uid).withResourceVersion("2")
                .endMetadata().withNewSpec().withSignerName("kubernetes.io/kubelet-serving").endSpec()
                .withNewStatus().addNewCondition().withType("Approved").withStatus("True").endCondition()
                .withCertificate(Base64.getEncoder().encodeToString(certificate.getBytes(StandardCharsets.US_ASCII))).endStatus()
                .build();
    }
}
