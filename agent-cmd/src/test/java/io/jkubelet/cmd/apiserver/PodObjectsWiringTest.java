package io.jkubelet.cmd.apiserver;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.jkubelet.core.objects.ObjectException;
import io.jkubelet.core.objects.PodObjects;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PodObjectsWiringTest {
    @Test
    void aStandaloneNodeSaysItHasNoApiserver() {
        PodObjects objects = PodObjectsWiring.create(Optional.empty(), Clock.systemUTC(), new java.util.ArrayList<>());
        assertThat(objects.services().hasSynced()).isTrue();
        assertThat(objects.services().list()).isEmpty();
        assertThat(objects.fromApiserver()).isFalse();
        assertThatThrownBy(() -> objects.configMaps().getConfigMap("prod", "settings"))
                .hasMessage("couldn't get configMap prod/settings, no kubeClient defined");
    }

    @Test
    void aNodeWithAKubeconfigReadsTheApiserver() throws Exception {
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(), false);
        server.init();
        try (KubernetesClient client = server.createClient()) {
            client.configMaps().inNamespace("prod").resource(new ConfigMapBuilder().withNewMetadata().withName("settings")
                    .endMetadata().withData(Map.of("mode", "fast")).build()).create();
            client.services().inNamespace("prod").resource(new io.fabric8.kubernetes.api.model.ServiceBuilder().withNewMetadata()
                    .withName("db").endMetadata().withNewSpec().withClusterIP("10.0.0.9").addNewPort().withPort(5432).endPort()
                    .endSpec().build()).create();
            java.util.List<AutoCloseable> closeables = new java.util.ArrayList<>();
            PodObjects objects = PodObjectsWiring.create(Optional.of(client), Clock.systemUTC(), closeables);
            assertThat(objects.fromApiserver()).isTrue();
            // The Services of every namespace, listed once the informer has synced; it closes with the agent.
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).until(() -> objects.services().hasSynced());
            assertThat(objects.services().list()).extracting(s -> s.getMetadata().getName()).containsExactly("db");
            assertThat(closeables).hasSize(1);
            for (AutoCloseable c : closeables) {
                c.close();
            }
            assertThat(objects.configMaps().getConfigMap("prod", "settings").getData()).containsEntry("mode", "fast");
            assertThatThrownBy(() -> objects.secrets().getSecret("prod", "absent"))
                    .isInstanceOfSatisfying(ObjectException.class, e -> assertThat(e.notFound()).isTrue())
                    .hasMessage("secret \"absent\" not found");
        } finally {
            server.destroy();
        }
    }
}
