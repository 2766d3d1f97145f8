package io.jkubelet.core.nodelease;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.jkubelet.core.cluster.fabric8.Fabric8LeaseClient;
import io.jkubelet.core.nodestatus.MockApiserver;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class NodeLeaseControllerTest {
    private final MockApiserver api = new MockApiserver();
    private final FakeClock clock = new FakeClock(Instant.parse("2026-12-03T10:00:00.123456789Z"));
    private final List<Duration> sleeps = new ArrayList<>();
    private final NodeLeaseController controller = new NodeLeaseController(new Fabric8LeaseClient(api.client), "node-a", 40, clock, sleeps::add);

    @AfterEach
    void close() {
        api.close();
    }

    private Lease lease() {
        return api.client.leases().inNamespace("kube-node-lease").withName("node-a").get();
    }

    @Test
    void createsTheLeaseThenRenewsItAndOwnsItByTheNodeOnceTheNodeExists() throws Exception {
        assertThat(controller.renewInterval()).isEqualTo(Duration.ofSeconds(10));
        controller.sync();
        Lease created = lease();
        assertThat(created.getSpec().getHolderIdentity()).isEqualTo("node-a");
        assertThat(created.getSpec().getLeaseDurationSeconds()).isEqualTo(40);
        assertThat(created.getSpec().getRenewTime().toInstant()).isEqualTo(Instant.parse("2026-12-03T10:00:00.123456Z"));
        assertThat(created.getMetadata().getOwnerReferences()).as("no node yet").isNullOrEmpty();

        String uid = api.client.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-a").endMetadata()
                .build()).create().getMetadata().getUid();
        clock.advance(Duration.ofSeconds(10));
        controller.sync();
        Lease renewed = lease();
        assertThat(renewed.getSpec().getRenewTime().toInstant()).isEqualTo(Instant.parse("2026-12-03T10:00:10.123456Z"));
        assertThat(renewed.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
            assertThat(o.getApiVersion()).isEqualTo("v1");
            assertThat(o.getKind()).isEqualTo("Node");
            assertThat(o.getName()).isEqualTo("node-a");
            assertThat(o.getUid()).isEqualTo(uid);
        });
        assertThat(sleeps).isEmpty();
    }

    @Test
    void backsOffWhileTheApiserverFailsThenCreatesTheLease() throws Exception {
        api.server.expect().get().withPath("/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-a")
                .andReturn(500, "etcd unavailable").times(6);

        controller.sync();

        assertThat(sleeps).containsExactly(Duration.ofMillis(200), Duration.ofMillis(400), Duration.ofMillis(800),
                Duration.ofMillis(1600), Duration.ofMillis(3200), Duration.ofMillis(6400));
        assertThat(lease()).isNotNull();
        sleeps.clear();
        clock.advance(Duration.ofSeconds(10));
        controller.sync();
        assertThat(sleeps).as("after a success the normal period again, no back-off").isEmpty();
    }

    @Test
    void aLeaseChangedBehindItsBackIsReadAgainAndRenewed() throws Exception {
        controller.sync();
        Lease other = lease();
        other.getSpec().setLeaseDurationSeconds(40);
        other.getMetadata().setAnnotations(java.util.Map.of("touched", "yes"));
        api.client.leases().inNamespace("kube-node-lease").resource(other).update();
        clock.advance(Duration.ofSeconds(10));

        controller.sync();

        Lease renewed = lease();
        assertThat(renewed.getMetadata().getAnnotations()).containsEntry("touched", "yes");
        assertThat(renewed.getSpec().getRenewTime().toInstant()).isEqualTo(Instant.parse("2026-12-03T10:00:10.123456Z"));
    }
}
