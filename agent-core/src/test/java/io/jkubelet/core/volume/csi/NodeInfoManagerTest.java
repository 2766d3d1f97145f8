package io.jkubelet.core.volume.csi;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.CSINodeDriver;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.jkubelet.core.cluster.fabric8.Fabric8CsiNodes;
import io.jkubelet.core.cluster.fabric8.Fabric8NodeClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What registering CSI drivers leaves on the Node and the CSINode, through fabric8's CRUD mock apiserver. */
@EnableKubernetesMockClient(crud = true)
class NodeInfoManagerTest {
    static final String NODE = "node-a";
    KubernetesMockServer server;
    KubernetesClient client;

    final List<Duration> waits = new ArrayList<>();
    NodeInfoManager manager;
    Node node;

    @BeforeEach
    void registerNode() {
        node = client.nodes().resource(new NodeBuilder().withNewMetadata().withName(NODE)
                .addToLabels("kubernetes.io/hostname", NODE).endMetadata().build()).create();
        manager = NodeInfoManager.connected(NODE, new Fabric8NodeClient(client), new Fabric8CsiNodes(client), waits::add);
    }

    @Test
    void aDriverIsRecordedInTheNodesAnnotationAndLabelsAndInACsiNodeOwnedByTheNode() throws Exception {
        manager.installCsiDriver("hostpath.csi.k8s.io", "node-a-id", 100,
                Map.of("topology.hostpath.csi/node", "node-a", "topology.hostpath.csi/zone", "z1"));
        manager.installCsiDriver("b.csi.example.com", "b-id", 0, Map.of());

        Node stored = client.nodes().withName(NODE).get();
        assertThat(stored.getMetadata().getAnnotations()).containsEntry("csi.volume.kubernetes.io/nodeid",
                "{\"b.csi.example.com\":\"b-id\",\"hostpath.csi.k8s.io\":\"node-a-id\"}");
        assertThat(stored.getMetadata().getLabels()).containsEntry("topology.hostpath.csi/node", "node-a")
                .containsEntry("topology.hostpath.csi/zone", "z1").containsEntry("kubernetes.io/hostname", NODE);

        CSINode csiNode = client.storage().v1().csiNodes().withName(NODE).get();
        assertThat(csiNode.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
            assertThat(o.getApiVersion()).isEqualTo("v1");
            assertThat(o.getKind()).isEqualTo("Node");
            assertThat(o.getName()).isEqualTo(NODE);
            assertThat(o.getUid()).isEqualTo(node.getMetadata().getUid());
        });
        List<CSINodeDriver> drivers = csiNode.getSpec().getDrivers();
        assertThat(drivers).extracting(CSINodeDriver::getName).containsExactly("hostpath.csi.k8s.io", "b.csi.example.com");
        assertThat(drivers.get(0).getNodeID()).isEqualTo("node-a-id");
        assertThat(drivers.get(0).getTopologyKeys()).containsExactly("topology.hostpath.csi/node", "topology.hostpath.csi/zone");
        assertThat(drivers.get(0).getAllocatable().getCount()).isEqualTo(100);
        // No limit from the driver: no allocatable at all, as upstream's.
        assertThat(drivers.get(1).getAllocatable()).isNull();
        assertThat(waits).isEmpty();
    }

    @Test
    void theSameDriverRegisteringAgainWritesNothingAndANewNodeIdReplacesItsEntry() throws Exception {
        manager.installCsiDriver("d.csi", "id-1", 10, Map.of());
        String nodeVersion = client.nodes().withName(NODE).get().getMetadata().getResourceVersion();
        String csiNodeVersion = client.storage().v1().csiNodes().withName(NODE).get().getMetadata().getResourceVersion();

        manager.installCsiDriver("d.csi", "id-1", 10, Map.of());
        assertThat(client.nodes().withName(NODE).get().getMetadata().getResourceVersion()).isEqualTo(nodeVersion);
        assertThat(client.storage().v1().csiNodes().withName(NODE).get().getMetadata().getResourceVersion())
                .isEqualTo(csiNodeVersion);

        manager.installCsiDriver("d.csi", "id-2", 10, Map.of());
        assertThat(client.storage().v1().csiNodes().withName(NODE).get().getSpec().getDrivers())
                .singleElement().extracting(CSINodeDriver::getNodeID).isEqualTo("id-2");
        assertThat(client.nodes().withName(NODE).get().getMetadata().getAnnotations())
                .containsEntry("csi.volume.kubernetes.io/nodeid", "{\"d.csi\":\"id-2\"}");
    }

    @Test
    void uninstallingTakesTheDriverOutOfTheCsiNodeAndTheAnnotationAndLeavesTheTopologyLabels() throws Exception {
        manager.installCsiDriver("a.csi", "a-id", 1, Map.of("topology.a.csi/zone", "z1"));
        manager.installCsiDriver("b.csi", "b-id", 1, Map.of());

        manager.uninstallCsiDriver("a.csi");
        assertThat(client.storage().v1().csiNodes().withName(NODE).get().getSpec().getDrivers())
                .extracting(CSINodeDriver::getName).containsExactly("b.csi");
        Node stored = client.nodes().withName(NODE).get();
        assertThat(stored.getMetadata().getAnnotations()).containsEntry("csi.volume.kubernetes.io/nodeid", "{\"b.csi\":\"b-id\"}");
        assertThat(stored.getMetadata().getLabels()).containsEntry("topology.a.csi/zone", "z1");

        manager.uninstallCsiDriver("b.csi");
        assertThat(client.storage().v1().csiNodes().withName(NODE).get().getSpec().getDrivers()).isEmpty();
        // The merge patch sets the annotation to null: the apiserver removes it, the CRUD mock keeps a null value.
        assertThat(client.nodes().withName(NODE).get().getMetadata().getAnnotations().get("csi.volume.kubernetes.io/nodeid"))
                .isNull();
    }

    @Test
    void uninstallingRemovesTheLegacyVolumeLimitOfTheDriverFromTheNodesStatus() throws Exception {
        client.nodes().withName(NODE).edit(n -> new NodeBuilder(n).withNewStatus()
                .addToCapacity("attachable-volumes-csi-d.csi", new Quantity("16"))
                .addToCapacity("cpu", new Quantity("2")).endStatus().build());

        manager.uninstallCsiDriver("d.csi");

        assertThat(client.nodes().withName(NODE).get().getStatus().getCapacity())
                .containsOnlyKeys("cpu");
    }

    @Test
    void aTopologySegmentCollidingWithALabelRefusesTheDriverAndWritesNothing() {
        assertThatThrownBy(() -> manager.installCsiDriver("d.csi", "id", 1, Map.of("kubernetes.io/hostname", "other")))
                .hasMessage("error updating Node object with CSI driver node info: error updating node: timed out waiting "
                        + "for the condition; caused by: detected topology value collision: driver reported "
                        + "\"kubernetes.io/hostname\":\"other\" but existing label is \"kubernetes.io/hostname\":\"node-a\"");
        assertThat(client.nodes().withName(NODE).get().getMetadata().getAnnotations()).isNullOrEmpty();
        assertThat(client.storage().v1().csiNodes().withName(NODE).get()).isNull();
        // Upstream's updateBackoff: four tries, 10 ms, 50 ms and 250 ms apart.
        assertThat(waits).containsExactly(Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofMillis(250));
    }

    @Test
    void anEmptyNodeIdIsRefused() {
        assertThatThrownBy(() -> manager.installCsiDriver("d.csi", "", 1, Map.of()))
                .hasMessage("error adding CSI driver node info: driverNodeID must not be empty");
    }

    @Test
    void aNodeNotRegisteredYetIsRetriedAndNamedInTheError() {
        client.nodes().withName(NODE).delete();

        assertThatThrownBy(() -> manager.installCsiDriver("d.csi", "id", 1, Map.of()))
                .hasMessage("error updating Node object with CSI driver node info: error updating node: timed out waiting "
                        + "for the condition; caused by: nodes \"node-a\" not found");
    }

    @Test
    void standaloneEveryInstallFailsAsUpstreamsWithoutAKubeClient() {
        NodeInfoManager standalone = NodeInfoManager.standalone(NODE);

        assertThatThrownBy(() -> standalone.installCsiDriver("d.csi", "id", 1, Map.of()))
                .hasMessage("error updating Node object with CSI driver node info: error updating node: timed out waiting "
                        + "for the condition; caused by: error getting kube client");
        assertThatThrownBy(() -> standalone.uninstallCsiDriver("d.csi"))
                .hasMessage("error uninstalling CSI driver from CSINode object error getting CSI client");
    }
}
