package io.jkubelet.core.nodestatus;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.apis.config.Taint;
import io.jkubelet.core.cluster.fabric8.Fabric8NodeClient;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class NodeStatusUpdaterTest {
    private final MockApiserver api = new MockApiserver();
    private final FakeClock clock = new FakeClock(Instant.parse("2026-12-03T10:00:00Z"));
    private final NodeStatusFixtures.Health health = new NodeStatusFixtures.Health();
    private final List<Duration> sleeps = new ArrayList<>();
    private final KubeletConfiguration config = NodeStatusFixtures.configBuilder()
            .registerWithTaints(List.of(new Taint("dedicated", "edge", "NoSchedule")))
            .build();

    private NodeStatusUpdater updater() {
        return updater(config);
    }

    private NodeStatusUpdater updater(KubeletConfiguration config) {
        NodeStatusSetters setters = NodeStatusFixtures.setters(config, new NodeStatusFixtures.Images(), health, clock,
                new NodeStatusFixtures.Events());
        return new NodeStatusUpdater(new Fabric8NodeClient(api.client), NodeStatusFixtures.IDENTITY, config, setters, clock, sleeps::add);
    }

    @AfterEach
    void close() {
        api.close();
    }

    @Test
    void registersTheNodeWithLabelsTaintsAnnotationAndStatus() throws Exception {
        NodeStatusUpdater updater = updater();
        updater.syncNodeStatus();

        Node node = api.client.nodes().withName("node-a").get();
        assertThat(node.getMetadata().getLabels()).containsEntry("kubernetes.io/hostname", "node-a")
                .containsEntry("kubernetes.io/os", "linux").containsEntry("beta.kubernetes.io/os", "linux")
                .containsKey("kubernetes.io/arch").containsEntry("role", "edge");
        assertThat(node.getMetadata().getAnnotations())
                .containsEntry("volumes.kubernetes.io/controller-managed-attach-detach", "true");
        assertThat(node.getSpec().getTaints()).extracting(t -> t.getKey() + "=" + t.getValue() + ":" + t.getEffect())
                .containsExactly("dedicated=edge:NoSchedule");
        assertThat(node.getStatus().getAllocatable()).containsKeys("cpu", "memory", "pods", "ephemeral-storage");
        assertThat(updater.registrationCompleted()).isTrue();
        assertThat(updater.get().getMetadata().getUid()).as("the supplier gives the registered node")
                .isEqualTo(node.getMetadata().getUid());
    }

    @Test
    void anExistingNodeIsReconciledInsteadOfCreated() throws Exception {
        api.client.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-a")
                .addToLabels("kubernetes.io/hostname", "old-name").addToLabels("team", "blue").endMetadata()
                .withNewStatus().addToCapacity("example.com/gpu", new Quantity("4"))
                .addToAllocatable("example.com/gpu", new Quantity("4")).endStatus().build()).create();
        api.requests();

        updater().syncNodeStatus();

        Node node = api.client.nodes().withName("node-a").get();
        assertThat(node.getMetadata().getLabels()).containsEntry("kubernetes.io/hostname", "node-a")
                .containsEntry("kubernetes.io/os", "linux").containsEntry("team", "blue");
        assertThat(node.getMetadata().getAnnotations())
                .containsEntry("volumes.kubernetes.io/controller-managed-attach-detach", "true");
        assertThat(node.getStatus().getCapacity().get("example.com/gpu")).as("extended resources zeroed")
                .hasToString("0");
        assertThat(node.getStatus().getConditions()).extracting(c -> c.getType()).contains("Ready");
    }

    @Test
    void withoutControllerAttachDetachRegistrationRemovesTheAnnotationFromAnExistingNode() throws Exception {
        api.client.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-a")
                .addToAnnotations("volumes.kubernetes.io/controller-managed-attach-detach", "true").endMetadata().build())
                .create();

        updater(NodeStatusFixtures.configBuilder().enableControllerAttachDetach(false).build()).syncNodeStatus();

        Node node = api.client.nodes().withName("node-a").get();
        // A merge patch with the annotation null: the apiserver removes it (the mock keeps the null).
        assertThat(node.getMetadata().getAnnotations() == null ? null
                : node.getMetadata().getAnnotations().get("volumes.kubernetes.io/controller-managed-attach-detach"))
                .as("the enableControllerAttachDetach annotation").isNull();
    }

    @Test
    void withRegisterNodeFalseTheNodeIsNotRegistered() throws Exception {
        updater(NodeStatusFixtures.configBuilder().registerNode(false).build()).syncNodeStatus();

        assertThat(api.requests()).as("no POST of the node").noneMatch(r -> r.startsWith("POST /api/v1/nodes"));
        assertThat(api.client.nodes().withName("node-a").get()).isNull();
    }

    @Test
    void theStatusLoopComesRoundEveryNodeStatusUpdateFrequencyWithJitter() throws Exception {
        KubeletConfiguration every7s = NodeStatusFixtures.configBuilder().nodeStatusUpdateFrequency(Duration.ofSeconds(7))
                .build();
        List<Duration> waits = new java.util.concurrent.CopyOnWriteArrayList<>();
        NodeStatusSetters setters = NodeStatusFixtures.setters(every7s, new NodeStatusFixtures.Images(), health, clock,
                new NodeStatusFixtures.Events());
        try (NodeStatusUpdater updater = new NodeStatusUpdater(new Fabric8NodeClient(api.client), NodeStatusFixtures.IDENTITY,
                every7s, setters, clock, d -> {
                    waits.add(d);
                    Thread.sleep(10); // the injected sleep returns at once: keep the loop from spinning
                })) {
            updater.start();
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30))
                    .until(() -> waits.stream().filter(d -> d.compareTo(Duration.ofSeconds(1)) > 0).count() >= 3);
        }
        assertThat(waits.stream().filter(d -> d.compareTo(Duration.ofSeconds(1)) > 0))
                .as("between two status syncs: nodeStatusUpdateFrequency plus up to 4 %% jitter")
                .allSatisfy(d -> assertThat(d).isBetween(Duration.ofSeconds(7), Duration.ofMillis(7280)));
    }

    @Test
    void statusIsPatchedOnChangeAndSkippedWhenUnchangedWithinTheReportFrequency() throws Exception {
        NodeStatusUpdater updater = updater();
        updater.syncNodeStatus();
        List<String> first = api.requests();
        assertThat(first).as("the created node carries its status; an identical status is not patched again")
                .containsExactly("POST /api/v1/nodes",
                        "GET /api/v1/nodes?fieldSelector=metadata.name%3Dnode-a&resourceVersion=0");

        clock.advance(Duration.ofSeconds(10));
        updater.syncNodeStatus();
        assertThat(api.requests()).as("an unchanged status (new heartbeat only) is not posted")
                .noneMatch(r -> r.startsWith("PATCH"));

        clock.advance(Duration.ofSeconds(10));
        health.errors = List.of("container runtime is down");
        updater.syncNodeStatus();
        assertThat(api.requests()).contains("PATCH /api/v1/nodes/node-a/status");
        Node node = api.client.nodes().withName("node-a").get();
        assertThat(NodeConditions.find(node, "Ready").getReason()).isEqualTo("KubeletNotReady");
        assertThat(NodeConditions.find(node, "Ready").getMessage()).isEqualTo("container runtime is down");
        api.requests();

        clock.advance(Duration.ofMinutes(5));
        updater.syncNodeStatus();
        assertThat(api.requests()).as("after nodeStatusReportFrequency an unchanged status is posted again")
                .contains("PATCH /api/v1/nodes/node-a/status");
        assertThat(NodeConditions.find(api.client.nodes().withName("node-a").get(), "Ready").getLastHeartbeatTime())
                .isEqualTo("2026-12-03T10:05:20Z");
    }

    @Test
    void registrationBacksOffOnServerErrorsUntilItSucceeds() throws Exception {
        api.server.expect().post().withPath("/api/v1/nodes").andReturn(500, "etcd unavailable").times(3);

        updater().syncNodeStatus();

        assertThat(api.client.nodes().withName("node-a").get()).isNotNull();
        assertThat(sleeps.subList(0, 4)).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200),
                Duration.ofMillis(400), Duration.ofMillis(800));
    }

    @Test
    void statusUpdateRetriesWithinOneTickAndReadsThroughTheCacheOnlyFirst() throws Exception {
        NodeStatusUpdater updater = updater();
        updater.syncNodeStatus();
        api.requests();
        api.server.expect().patch().withPath("/api/v1/nodes/node-a/status").andReturn(500, "boom").times(2);
        health.errors = List.of("container runtime is down");

        updater.syncNodeStatus();

        List<String> requests = api.requests();
        assertThat(requests).containsExactly(
                "GET /api/v1/nodes?fieldSelector=metadata.name%3Dnode-a&resourceVersion=0",
                "PATCH /api/v1/nodes/node-a/status",
                "GET /api/v1/nodes/node-a",
                "PATCH /api/v1/nodes/node-a/status",
                "GET /api/v1/nodes/node-a",
                "PATCH /api/v1/nodes/node-a/status");
        assertThat(NodeConditions.find(api.client.nodes().withName("node-a").get(), "Ready").getStatus())
                .isEqualTo("False");
    }

    @Test
    void withoutAnApiserverTheInitialNodeIsStillComputable() {
        Node node = updater().get();
        assertThat(node.getMetadata().getName()).isEqualTo("node-a");
        assertThat(node.getStatus().getAllocatable()).containsKey("memory");
        assertThat(node.getMetadata().getLabels()).containsEntry("role", "edge");
        assertThat(Map.copyOf(node.getMetadata().getLabels())).containsKey("kubernetes.io/hostname");
    }
}
