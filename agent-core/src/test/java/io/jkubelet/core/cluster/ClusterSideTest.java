package io.jkubelet.core.cluster;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.jkubelet.core.apis.config.KubeletConfigurationDefaults;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.objects.ObjectException;
import io.jkubelet.core.objects.PodObjects;
import io.jkubelet.core.status.StatusManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The node's apiserver side, against fabric8's CRUD mock apiserver, and its standalone stand-in. */
class ClusterSideTest {
    private KubernetesMockServer server;
    private KubernetesClient client;
    private ClusterSide cluster;

    @BeforeEach
    void start() {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
        server.init();
        client = KubeClients.create(server.createClient().getConfiguration(), 50, 100, "v1.30.0");
    }

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
        client.close();
        server.destroy();
    }

    @Test
    void aStandaloneNodeSaysItHasNoApiserverAndOnlyLogsEvents() {
        ClusterSide standalone = ClusterSide.standalone();
        assertThat(standalone.connected()).isFalse();
        PodObjects objects = standalone.objects();
        assertThat(objects.services().hasSynced()).isTrue();
        assertThat(objects.services().list()).isEmpty();
        assertThat(objects.fromApiserver()).isFalse();
        assertThatThrownBy(() -> objects.configMaps().getConfigMap("prod", "settings"))
                .hasMessage("couldn't get configMap prod/settings, no kubeClient defined");
        LoggingEventRecorder logged = new LoggingEventRecorder(Clock.systemUTC());
        assertThat(standalone.eventRecorder("node-a", KubeletConfigurationDefaults.newDefaulted(), logged)).isSameAs(logged);
        assertThat(standalone.podSource("node-a", () -> u -> {})).isEmpty();
        assertThat(standalone.mirrorClient("node-a")).isEmpty();
        assertThat(standalone.statusWriter(new StatusManager(Clock.systemUTC()), null)).isEmpty();
        assertThat(standalone.startNodeSync(null, null, null, null, null, null, null, null, null, null, null)).isEmpty();
    }

    @Test
    void aConnectedNodeReadsThePodsObjectsFromTheApiserver() throws Exception {
        client.configMaps().inNamespace("prod").resource(new ConfigMapBuilder().withNewMetadata().withName("settings")
                .endMetadata().withData(Map.of("mode", "fast")).build()).create();
        client.services().inNamespace("prod").resource(new ServiceBuilder().withNewMetadata().withName("db").endMetadata()
                .withNewSpec().withClusterIP("10.0.0.9").addNewPort().withPort(5432).endPort().endSpec().build()).create();
        cluster = ClusterSide.connect(client, "v1.30.0", Clock.systemUTC());

        assertThat(cluster.connected()).isTrue();
        PodObjects objects = cluster.objects();
        assertThat(objects.fromApiserver()).isTrue();
        // The Services of every namespace, listed once the informer has synced.
        await().atMost(Duration.ofSeconds(10)).until(() -> objects.services().hasSynced());
        assertThat(objects.services().list()).extracting(s -> s.getMetadata().getName()).containsExactly("db");
        assertThat(objects.configMaps().getConfigMap("prod", "settings").getData()).containsEntry("mode", "fast");
        assertThatThrownBy(() -> objects.secrets().getSecret("prod", "absent"))
                .isInstanceOfSatisfying(ObjectException.class, e -> assertThat(e.notFound()).isTrue())
                .hasMessage("secret \"absent\" not found");
        assertThat(cluster.podSource("node-a", () -> u -> {})).isPresent();
        assertThat(cluster.mirrorClient("node-a")).isPresent();
    }

    @Test
    void aConnectedNodesEventsAreWrittenToTheApiserverAndLogged() {
        cluster = ClusterSide.connect(client, "v1.30.0", Clock.systemUTC());
        LoggingEventRecorder logged = new LoggingEventRecorder(Clock.systemUTC());

        EventRecorder r = cluster.eventRecorder("node-a", KubeletConfigurationDefaults.newDefaulted(), logged);
        r.event(References.node("node-a"), EventRecorder.NORMAL, "Starting", "Starting kubelet.");

        await().atMost(Duration.ofSeconds(10)).until(() -> !client.v1().events().inNamespace("default").list().getItems().isEmpty());
        Event e = client.v1().events().inNamespace("default").list().getItems().get(0);
        assertThat(e.getReason()).isEqualTo("Starting");
        assertThat(e.getSource().getHost()).isEqualTo("node-a");
        assertThat(logged.events()).hasSize(1);
    }
}
