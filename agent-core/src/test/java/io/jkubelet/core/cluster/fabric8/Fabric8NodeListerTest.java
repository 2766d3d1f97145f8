package io.jkubelet.core.cluster.fabric8;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The node lister sees this node as the apiserver has it: before registration nothing, then the node, then a label
 * someone else puts on it (as the scheduling e2e specs do right before making pods that select it), never another
 * node.
 */
@EnableKubernetesMockClient(crud = true)
class Fabric8NodeListerTest {
    KubernetesMockServer server;
    KubernetesClient client;

    private Node node(String name) {
        return new NodeBuilder().withNewMetadata().withName(name).endMetadata().build();
    }

    @Test
    void aLabelPutOnTheNodeIsSeenWithoutTheNodeStatusLoop() {
        try (Fabric8NodeLister lister = new Fabric8NodeLister(client, "node-a")) {
            client.nodes().resource(node("node-b")).create();
            assertThat(lister.node()).isEmpty();

            client.nodes().resource(node("node-a")).create();
            await().atMost(Duration.ofSeconds(10)).until(() -> lister.node().isPresent());
            assertThat(lister.node().orElseThrow().getMetadata().getName()).isEqualTo("node-a");

            client.nodes().withName("node-a").edit(n -> new NodeBuilder(n).editMetadata()
                    .addToLabels("kubernetes.io/e2e-8f3c", "42").endMetadata().build());
            await().atMost(Duration.ofSeconds(10)).until(() -> "42".equals(
                    lister.node().orElseThrow().getMetadata().getLabels().get("kubernetes.io/e2e-8f3c")));
        }
    }
}
