package io.jkubelet.core.volume.csi;

import io.fabric8.kubernetes.api.model.NodeBuilder;
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

/** The CSI plugin's registration handler with a scripted driver and the CRUD mock apiserver. */
@EnableKubernetesMockClient(crud = true)
class CsiRegistrationHandlerTest {
    KubernetesMockServer server;
    KubernetesClient client;

    /** The endpoints asked for {@code NodeGetInfo}; the answer is {@code failing}'s error while it is set. */
    final List<String> calls = new ArrayList<>();
    String failing;
    final CsiDriverClient driver = new NodeGetInfoOnly() {
        @Override
        public NodeInfo nodeGetInfo(String endpoint, Duration timeout) throws Exception {
            calls.add("NodeGetInfo " + endpoint);
            if (failing != null) {
                throw new Exception(failing);
            }
            return new CsiDriverClient.NodeInfo("id-" + endpoint, 0, Map.of());
        }
    };

    private final CsiDrivers drivers = new CsiDrivers();
    private CsiRegistrationHandler handler;

    @BeforeEach
    void setUp() {
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName("n").endMetadata().build()).create();
        handler = new CsiRegistrationHandler(drivers, driver, NodeInfoManager.connected("n", new Fabric8NodeClient(client),
                new Fabric8CsiNodes(client), d -> {}));
    }

    private Map<String, String> nodeIds() {
        var annotations = client.nodes().withName("n").get().getMetadata().getAnnotations();
        return annotations == null || !annotations.containsKey("csi.volume.kubernetes.io/nodeid") ? Map.of()
                : NodeUpdates.nodeIdMap(client.nodes().withName("n").get());
    }

    @Test
    void aDriverSpeakingCsi1IsStoredWithItsHighestVersionAndInstalled() throws Exception {
        handler.validatePlugin("hostpath.csi.k8s.io", "/var/lib/kubelet/plugins/hp/csi.sock", List.of("0.3.0", "1.0.0", "1.5.0"));
        handler.registerPlugin("hostpath.csi.k8s.io", "/var/lib/kubelet/plugins/hp/csi.sock", List.of("0.3.0", "1.0.0", "1.5.0"));

        assertThat(drivers.get("hostpath.csi.k8s.io")).hasValueSatisfying(d -> {
            assertThat(d.endpoint()).isEqualTo("/var/lib/kubelet/plugins/hp/csi.sock");
            assertThat(d.highestSupportedVersion()).hasToString("1.5.0");
        });
        assertThat(calls).containsExactly("NodeGetInfo /var/lib/kubelet/plugins/hp/csi.sock");
        assertThat(nodeIds()).containsExactly(Map.entry("hostpath.csi.k8s.io", "id-/var/lib/kubelet/plugins/hp/csi.sock"));
    }

    @Test
    void aDriverWithoutCsi1IsRefusedInUpstreamsWords() {
        assertThatThrownBy(() -> handler.validatePlugin("old.csi", "/s.sock", List.of("0.3.0")))
                .hasMessage("validation failed for CSI Driver old.csi at endpoint /s.sock: kubernetes.io/csi: ValidatePlugin "
                        + "for CSI driver \"old.csi\" failed. None of the versions specified [\"0.3.0\"] are supported. "
                        + "err=highest supported version reported is 0.3.0, must be v1.x");
        assertThatThrownBy(() -> handler.validatePlugin("new.csi", "/s.sock", List.of("2.0.0", "banana")))
                .hasMessageEndingWith("None of the versions specified [\"2.0.0\" \"banana\"] are supported. "
                        + "err=could not find a highest supported version from versions ([2.0.0 banana]) reported: "
                        + "could not parse \"banana\" as version");
        assertThatThrownBy(() -> handler.validatePlugin("none.csi", "/s.sock", List.of()))
                .hasMessageEndingWith("kubernetes.io/csi: ValidatePlugin for CSI driver \"none.csi\" failed. Plugin "
                        + "returned an empty list for supported versions");
        assertThat(calls).isEmpty();
    }

    @Test
    void aNamesakeMayReplaceARegisteredDriverOnlyWithAHigherVersion() throws Exception {
        handler.registerPlugin("d.csi", "/a.sock", List.of("1.2.0"));

        assertThatThrownBy(() -> handler.registerPlugin("d.csi", "/b.sock", List.of("1.2.0")))
                .hasMessage("kubernetes.io/csi: RegisterPlugin for CSI driver \"d.csi\" failed. Another driver with the "
                        + "same name is already registered with a higher supported version: \"1.2.0\"");
        assertThat(drivers.get("d.csi")).hasValueSatisfying(d -> assertThat(d.endpoint()).isEqualTo("/a.sock"));

        handler.registerPlugin("d.csi", "/c.sock", List.of("v1.3"));
        assertThat(drivers.get("d.csi")).hasValueSatisfying(d -> assertThat(d.endpoint()).isEqualTo("/c.sock"));
    }

    @Test
    void aDriverWhoseNodeGetInfoFailsIsForgottenAndTheErrorGoesBack() throws Exception {
        handler.registerPlugin("other.csi", "/o.sock", List.of("1.0.0"));
        failing = "rpc error: code = Unavailable desc = connection refused";

        assertThatThrownBy(() -> handler.registerPlugin("d.csi", "/a.sock", List.of("1.0.0")))
                .hasMessage("rpc error: code = Unavailable desc = connection refused");
        assertThat(drivers.get("d.csi")).isEmpty();
        // The driver already registered is not harmed.
        assertThat(drivers.get("other.csi")).isPresent();
        assertThat(nodeIds()).containsOnlyKeys("other.csi");
    }

    @Test
    void aDriverThatCannotBeRecordedOnTheNodeIsForgotten() {
        client.nodes().withName("n").delete();

        assertThatThrownBy(() -> handler.registerPlugin("d.csi", "/a.sock", List.of("1.0.0")))
                .hasMessage("error updating Node object with CSI driver node info: error updating node: timed out "
                        + "waiting for the condition; caused by: nodes \"n\" not found");
        assertThat(drivers.get("d.csi")).isEmpty();
    }

    @Test
    void aDriverWhoseSocketWentIsForgotten() throws Exception {
        handler.registerPlugin("d.csi", "/a.sock", List.of("1.0.0"));
        assertThat(nodeIds()).containsOnlyKeys("d.csi");
        handler.deRegisterPlugin("d.csi", "/a.sock");

        assertThat(drivers.get("d.csi")).isEmpty();
        assertThat(nodeIds()).isEmpty();
        assertThat(client.storage().v1().csiNodes().withName("n").get().getSpec().getDrivers()).isEmpty();
    }
}
