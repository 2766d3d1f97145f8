package io.jkubelet.csi;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.CSINodeDriver;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.grpc.Status;
import io.jkubelet.core.cluster.fabric8.Fabric8CsiNodes;
import io.jkubelet.core.cluster.fabric8.Fabric8NodeClient;
import io.jkubelet.core.pluginmanager.PluginManager;
import io.jkubelet.core.volume.csi.CsiDrivers;
import io.jkubelet.core.volume.csi.CsiRegistrationHandler;
import io.jkubelet.core.volume.csi.NodeInfoManager;
import io.jkubelet.deviceplugin.GrpcPluginRegistrationClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A CSI driver registering as node-driver-registrar makes it register: its registration socket in
 * {@code plugins_registry}, found by the plugin watcher, {@code GetInfo} and {@code NotifyRegistrationStatus} over it,
 * the driver's {@code NodeGetInfo} over its own socket, and the result on the (mock) apiserver. Every call is real gRPC
 * on unix sockets; each reconcile is run by the test.
 */
@EnableKubernetesMockClient(crud = true)
class CsiPluginWatcherTest {
    static final String NODE = "node-a";
    static final String ANNOTATION = "csi.volume.kubernetes.io/nodeid";
    KubernetesMockServer server;
    KubernetesClient client;

    @TempDir
    Path dir;
    Path registry;
    CsiDrivers drivers;
    PluginManager watcher;

    @BeforeEach
    void start() throws Exception {
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName(NODE).endMetadata().build()).create();
        registry = dir.resolve("plugins_registry");
        drivers = new CsiDrivers();
        watcher = new PluginManager(registry, new GrpcPluginRegistrationClient(), Clock.systemUTC(), Runnable::run);
        watcher.createDirectory();
        watcher.addHandler(PluginManager.CSI_PLUGIN, new CsiRegistrationHandler(drivers, new GrpcCsiDriverClient(),
                NodeInfoManager.connected(NODE, new Fabric8NodeClient(client), new Fabric8CsiNodes(client), d -> {})));
    }

    private TestCsiDriver driver(String name, List<String> versions, boolean serveDriver) throws Exception {
        Files.createDirectories(dir.resolve("plugins/" + name));
        return new TestCsiDriver(name, dir.resolve("plugins/" + name + "/csi.sock"), registry.resolve(name + "-reg.sock"),
                versions, NODE + "-" + name, 8, Map.of("topology." + name + "/node", NODE), serveDriver);
    }

    /**
     * The watcher's loop, run by the test: reconciles until {@code answered}, as the loop's one-second period would. A
     * GetInfo that misses upstream's one-second deadline on a loaded machine is tried again at the next reconcile.
     */
    private void reconcileUntil(java.util.concurrent.Callable<Boolean> answered) {
        await().until(() -> {
            watcher.reconcile();
            return answered.call();
        });
    }

    private Node node() {
        return client.nodes().withName(NODE).get();
    }

    private CSINode csiNode() {
        return client.storage().v1().csiNodes().withName(NODE).get();
    }

    @Test
    void aDriverIsRegisteredRecordedOnTheNodeAndInItsCsiNodeAndRemovedWhenItsRegistrationSocketGoes() throws Exception {
        try (TestCsiDriver hostpath = driver("hostpath.csi.k8s.io", List.of("1.0.0"), true)) {
            reconcileUntil(() -> !hostpath.registrationStatus.isEmpty());

            assertThat(hostpath.registrationStatus).containsExactly("true:");
            assertThat(drivers.get("hostpath.csi.k8s.io")).hasValueSatisfying(d ->
                    assertThat(d.endpoint()).isEqualTo(hostpath.endpoint.toString()));
            assertThat(node().getMetadata().getAnnotations()).containsEntry(ANNOTATION,
                    "{\"hostpath.csi.k8s.io\":\"node-a-hostpath.csi.k8s.io\"}");
            assertThat(node().getMetadata().getLabels()).containsEntry("topology.hostpath.csi.k8s.io/node", NODE);
            assertThat(csiNode().getSpec().getDrivers()).singleElement().satisfies(d -> {
                assertThat(d.getName()).isEqualTo("hostpath.csi.k8s.io");
                assertThat(d.getNodeID()).isEqualTo("node-a-hostpath.csi.k8s.io");
                assertThat(d.getTopologyKeys()).containsExactly("topology.hostpath.csi.k8s.io/node");
                assertThat(d.getAllocatable().getCount()).isEqualTo(8);
            });
            assertThat(csiNode().getMetadata().getOwnerReferences()).singleElement()
                    .satisfies(o -> assertThat(o.getUid()).isEqualTo(node().getMetadata().getUid()));

            Files.delete(hostpath.registrationSocket);
            watcher.reconcile();

            assertThat(drivers.get("hostpath.csi.k8s.io")).isEmpty();
            assertThat(csiNode().getSpec().getDrivers()).isEmpty();
            assertThat(node().getMetadata().getAnnotations().get(ANNOTATION)).isNull();
        }
    }

    @Test
    void aDriverOfAnUnsupportedVersionIsToldWhyAndNothingIsWritten() throws Exception {
        try (TestCsiDriver old = driver("old.csi", List.of("0.3.0"), true)) {
            reconcileUntil(() -> !old.registrationStatus.isEmpty());

            assertThat(old.registrationStatus).containsExactly("false:RegisterPlugin error -- plugin validation failed "
                    + "with err: validation failed for CSI Driver old.csi at endpoint " + old.endpoint + ": kubernetes.io/csi: "
                    + "ValidatePlugin for CSI driver \"old.csi\" failed. None of the versions specified [\"0.3.0\"] are "
                    + "supported. err=highest supported version reported is 0.3.0, must be v1.x");
            assertThat(drivers.get("old.csi")).isEmpty();
            assertThat(csiNode()).isNull();
            assertThat(node().getMetadata().getAnnotations()).isNullOrEmpty();
        }
    }

    @Test
    void aDriverWhoseNodeGetInfoFailsIsRefusedAndTheDriverRegisteredBeforeIsUnharmed() throws Exception {
        try (TestCsiDriver good = driver("good.csi", List.of("1.0.0"), true);
             TestCsiDriver bad = driver("bad.csi", List.of("1.0.0"), true)) {
            bad.failIn.put("NodeGetInfo", Status.INTERNAL.withDescription("no node id yet"));
            reconcileUntil(() -> !good.registrationStatus.isEmpty() && !bad.registrationStatus.isEmpty());

            assertThat(good.registrationStatus).containsExactly("true:");
            // Each reconcile tries a refused driver again (as upstream's), and tells it the same.
            assertThat(bad.registrationStatus).isNotEmpty().containsOnly("false:RegisterPlugin error -- plugin registration failed "
                    + "with err: rpc error: code = Internal desc = no node id yet");
            assertThat(drivers.get("bad.csi")).isEmpty();
            assertThat(drivers.get("good.csi")).isPresent();
            assertThat(csiNode().getSpec().getDrivers()).extracting(CSINodeDriver::getName).containsExactly("good.csi");
            assertThat(node().getMetadata().getAnnotations()).containsEntry(ANNOTATION,
                    "{\"good.csi\":\"node-a-good.csi\"}");
        }
    }

    @Test
    void aRegistrarWhoseDriverHasNoSocketIsRefusedWithTheDialError() throws Exception {
        try (TestCsiDriver orphan = driver("orphan.csi", List.of("1.0.0"), false)) {
            reconcileUntil(() -> !orphan.registrationStatus.isEmpty());

            assertThat(orphan.registrationStatus).containsExactly("false:RegisterPlugin error -- plugin registration "
                    + "failed with err: rpc error: code = Unavailable desc = connection error: desc = \"transport: Error "
                    + "while dialing dial unix " + orphan.endpoint + ": connect: no such file or directory\"");
            assertThat(drivers.get("orphan.csi")).isEmpty();
            assertThat(csiNode()).isNull();
        }
    }
}
