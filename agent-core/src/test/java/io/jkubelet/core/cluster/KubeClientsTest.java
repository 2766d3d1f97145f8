package io.jkubelet.core.cluster;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@EnableKubernetesMockClient
class KubeClientsTest {
    KubernetesMockServer server;

    @TempDir Path dir;

    @Test
    void theClientComesFromTheKubeconfigAndSendsKubeletsUserAgent() throws Exception {
        Path kubeconfig = dir.resolve("kubelet.conf");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: c
                  cluster: {server: "%s", insecure-skip-tls-verify: true}
                users:
                - name: u
                  user: {token: secret-token}
                contexts:
                - name: ctx
                  context: {cluster: c, user: u}
                current-context: ctx
                """.formatted(server.url("/")));
        server.expect().get().withPath("/api/v1/nodes/node-a")
                .andReturn(200, new NodeBuilder().withNewMetadata().withName("node-a").endMetadata().build()).once();

        try (KubernetesClient client = KubeClients.create(kubeconfig, 50, 100, "v1.30.0")) {
            assertThat(client.nodes().withName("node-a").get().getMetadata().getName()).isEqualTo("node-a");
        }
        RecordedRequest r = server.takeRequest(5, TimeUnit.SECONDS);
        assertThat(r.getHeader("User-Agent")).matches("kubelet/v1\\.30\\.0 \\(linux/[a-z0-9]+\\) kubernetes/jkubelet");
        assertThat(r.getHeader("Authorization")).isEqualTo("Bearer secret-token");
    }

    @Test
    void aMissingOrServerlessKubeconfigIsNamed() throws Exception {
        Path missing = dir.resolve("nope.conf");
        assertThatThrownBy(() -> KubeClients.create(missing, 50, 100, "v1.30.0"))
                .hasMessageContaining("--kubeconfig " + missing).hasMessageContaining("cannot read");
        Path empty = dir.resolve("empty.conf");
        Files.writeString(empty, "apiVersion: v1\nkind: Config\n");
        assertThatThrownBy(() -> KubeClients.create(empty, 50, 100, "v1.30.0"))
                .hasMessageContaining("--kubeconfig " + empty);
    }

    @Test
    void theRateLimiterLetsABurstThroughThenSpacesRequestsAtQps() {
        FakeClock clock = new FakeClock();
        io.jkubelet.core.util.TokenBucket bucket = new io.jkubelet.core.util.TokenBucket(5, 2, clock);

        assertThat(bucket.reserve()).isZero();
        assertThat(bucket.reserve()).as("burst of 2").isZero();
        assertThat(bucket.reserve()).as("the third waits 1/qps").isEqualTo(Duration.ofMillis(200));
        assertThat(bucket.reserve()).as("and the fourth behind it").isEqualTo(Duration.ofMillis(400));

        clock.advance(Duration.ofSeconds(10));
        assertThat(bucket.reserve()).as("refilled, but never beyond the burst").isZero();
        assertThat(bucket.reserve()).isZero();
        assertThat(bucket.reserve()).isEqualTo(Duration.ofMillis(200));
    }
}
