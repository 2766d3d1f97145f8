package io.jkubelet.core.nodestatus;

import io.fabric8.kubernetes.api.model.Node;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.cluster.fabric8.Fabric8NodeClient;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The node status's {@code volumesInUse} as upstream's {@code VolumesInUse} setter and
 * {@code MarkVolumesAsReportedInUse} keep it: written only once the volume manager has synced its states, and what the
 * Node then lists told back to the volume manager, after a patch or a status that needed none.
 */
class VolumesInUseTest {
    private static final String VOLUME = "kubernetes.io/csi/hostpath.csi.k8s.io^vol-1";
    private final MockApiserver api = new MockApiserver();
    private final FakeClock clock = new FakeClock(Instant.parse("2026-12-03T10:00:00Z"));
    private final KubeletConfiguration config = NodeStatusFixtures.configBuilder().build();
    private final NodeStatusFixtures.Volumes volumes = new NodeStatusFixtures.Volumes();
    private final NodeStatusUpdater updater = new NodeStatusUpdater(new Fabric8NodeClient(api.client),
            NodeStatusFixtures.IDENTITY, config, NodeStatusFixtures.setters(config, new NodeStatusFixtures.Health(), clock,
            volumes), clock, d -> {});

    @AfterEach
    void close() {
        api.close();
    }

    private Node node() {
        return api.client.nodes().withName("node-a").get();
    }

    @Test
    void theVolumesInUseAreWrittenOnlyOnceTheVolumeManagerHasSyncedItsStates() throws Exception {
        volumes.inUse = List.of(VOLUME);
        updater.syncNodeStatus();
        assertThat(node().getStatus().getVolumesInUse()).as("not before the sync").isNullOrEmpty();

        volumes.synced = true;
        clock.advance(Duration.ofSeconds(10));
        updater.syncNodeStatus();
        assertThat(node().getStatus().getVolumesInUse()).containsExactly(VOLUME);

        volumes.inUse = List.of();
        clock.advance(Duration.ofSeconds(10));
        updater.syncNodeStatus();
        assertThat(node().getStatus().getVolumesInUse()).isNullOrEmpty();
    }

    @Test
    void theVolumeManagerIsToldWhatTheNodeListsAfterEachUpdateWhetherPatchedOrNot() throws Exception {
        volumes.synced = true;
        volumes.inUse = List.of(VOLUME);
        updater.syncNodeStatus();
        assertThat(volumes.reported).as("registered, then the first status").last().isEqualTo(List.of(VOLUME));

        // Unchanged within nodeStatusReportFrequency: no patch, and the Node's list is told all the same (after a
        // restart the volume manager has nothing marked while the Node still lists what the kubelet before reported).
        volumes.reported.clear();
        clock.advance(Duration.ofSeconds(10));
        api.requests();
        updater.syncNodeStatus();
        assertThat(api.requests()).noneMatch(r -> r.startsWith("PATCH"));
        assertThat(volumes.reported).containsExactly(List.of(VOLUME));

        // Patched: what the patched Node lists.
        volumes.reported.clear();
        volumes.inUse = List.of();
        clock.advance(Duration.ofSeconds(10));
        updater.syncNodeStatus();
        assertThat(api.requests()).contains("PATCH /api/v1/nodes/node-a/status");
        assertThat(volumes.reported).containsExactly(List.of());
    }
}
