package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The built agent with --kubeconfig registers its Node and keeps its Lease on an apiserver (fabric8's mock, CRUD). */
class NodeRegistrationIT extends AgentTestBase {
    private KubernetesMockServer server;
    private KubernetesClient client;

    @BeforeEach
    void startApiserver() {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(), false);
        server.init();
        client = server.createClient();
    }

    @AfterEach
    void stopApiserver() {
        client.close();
        server.destroy();
    }

    @Test
    void registersTheNodeWithStatusAndRenewsItsLease() throws Exception {
        Path kubeconfig = dir.resolve("kubeconfig");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters: [{name: mock, cluster: {server: "%s"}}]
                users: [{name: node, user: {token: e2e}}]
                contexts: [{name: mock, context: {cluster: mock, user: node}}]
                current-context: mock
                """.formatted(server.url("/").replaceAll("/$", "")));
        Agent a = startAgent("--kubeconfig", kubeconfig.toString(), "--node-labels", "e2e=yes");

        Node node = await().atMost(Duration.ofSeconds(60)).until(() -> client.nodes().withName(a.nodeName).get(),
                n -> n != null && n.getStatus() != null && n.getStatus().getConditions() != null
                        && n.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType())));
        assertThat(node.getMetadata().getLabels()).containsEntry("kubernetes.io/hostname", a.nodeName)
                .containsEntry("kubernetes.io/os", "linux").containsEntry("e2e", "yes");
        assertThat(node.getStatus().getNodeInfo().getContainerRuntimeVersion()).startsWith("docker://");
        assertThat(node.getStatus().getDaemonEndpoints().getKubeletEndpoint().getPort()).isEqualTo(a.port);
        assertThat(node.getStatus().getCapacity()).containsKeys("cpu", "memory", "pods", "ephemeral-storage");

        Lease lease = await().atMost(Duration.ofSeconds(60)).until(
                () -> client.leases().inNamespace("kube-node-lease").withName(a.nodeName).get(),
                l -> l != null && l.getMetadata().getOwnerReferences() != null
                        && !l.getMetadata().getOwnerReferences().isEmpty());
        assertThat(lease.getSpec().getHolderIdentity()).isEqualTo(a.nodeName);
        assertThat(lease.getMetadata().getOwnerReferences().getFirst().getUid()).isEqualTo(node.getMetadata().getUid());
        await().atMost(Duration.ofSeconds(30)).until(
                () -> client.leases().inNamespace("kube-node-lease").withName(a.nodeName).get().getSpec().getRenewTime(),
                t -> t.isAfter(lease.getSpec().getRenewTime()));
        await().atMost(Duration.ofSeconds(30)).until(() -> "True".equals(client.nodes().withName(a.nodeName).get()
                .getStatus().getConditions().stream().filter(c -> "Ready".equals(c.getType())).findFirst()
                .orElseThrow().getStatus()));
    }
}
