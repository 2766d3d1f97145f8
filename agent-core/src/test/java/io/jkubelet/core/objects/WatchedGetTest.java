package io.jkubelet.core.objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.jkubelet.core.cluster.fabric8.Fabric8ObjectClient;
import io.jkubelet.core.testing.FakeClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Watch strategy against fabric8's mock apiserver (CRUD mode, which serves watches by {@code metadata.name}): a
 * change is read at once, where the Cache strategy would keep the old copy for a minute; the clock never moves.
 */
class WatchedGetTest {
    private final FakeClock clock = new FakeClock();
    private final List<AutoCloseable> owned = new ArrayList<>();
    private KubernetesMockServer server;
    private KubernetesClient client;
    private PodObjects objects;

    @BeforeEach
    void start() {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
        server.init();
        client = server.createClient();
        objects = ApiObjectManagers.podObjects(new Fabric8ObjectClient(client), clock, ServiceLister.NONE,
                ChangeDetectionStrategy.WATCH, Duration.ofMinutes(1), owned::add);
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable closer : owned) {
            closer.close();
        }
        client.close();
        server.destroy();
    }

    private void configMap(String value) {
        client.configMaps().inNamespace("ns").resource(new ConfigMapBuilder().withNewMetadata().withNamespace("ns")
                .withName("cm").endMetadata().withData(Map.of("k", value)).build()).createOr(r -> r.update());
    }

    @Test
    void aChangedObjectIsReadAtOnce() throws Exception {
        configMap("v1");
        assertThat(objects.configMaps().getConfigMap("ns", "cm").getData()).containsEntry("k", "v1");

        configMap("v2");
        await().atMost(Duration.ofSeconds(10)).until(() -> objects.configMaps().getConfigMap("ns", "cm").getData().get("k"),
                "v2"::equals);
    }

    @Test
    void aMissingObjectIsNotFoundUntilItIsCreated() throws Exception {
        assertThatThrownBy(() -> objects.secrets().getSecret("ns", "token"))
                .isInstanceOfSatisfying(ObjectException.class, e -> assertThat(e.notFound()).isTrue())
                .hasMessage("secret \"token\" not found");

        client.secrets().inNamespace("ns").resource(new SecretBuilder().withNewMetadata().withNamespace("ns")
                .withName("token").endMetadata().withStringData(Map.of("t", "x")).build()).create();
        await().atMost(Duration.ofSeconds(10)).ignoreExceptionsInstanceOf(ObjectException.class)
                .until(() -> objects.secrets().getSecret("ns", "token") != null);
    }

    /** A watch that has listed {@code object} (null: missing) at once, and says when it is closed. */
    private static ObjectWatch<String> listed(String object, List<String> closed, String key) {
        return new ObjectWatch<>() {
            @Override
            public java.util.concurrent.CompletionStage<Void> synced() {
                return java.util.concurrent.CompletableFuture.completedFuture(null);
            }

            @Override
            public String current() {
                return object;
            }

            @Override
            public void close() {
                closed.add(key);
            }
        };
    }

    @Test
    void aWatchUnusedForFiveResyncIntervalsIsStoppedAndAUseStartsItAgain() throws Exception {
        // Fakes here: fabric8's mock server blocks its event loop for seconds when a client closes a watch.
        List<String> opened = new ArrayList<>();
        List<String> closed = new ArrayList<>();
        WatchedGet<String> watched = new WatchedGet<>("configmap", (ns, name) -> {
            opened.add(name);
            return listed(name.equals("cm") ? "data" : null, closed, name);
        }, clock, Duration.ofMinutes(5));
        assertThat(watched.get("ns", "cm")).isEqualTo("data");

        clock.advance(Duration.ofMinutes(4));
        watched.get("ns", "cm");
        clock.advance(Duration.ofMinutes(4));
        assertThatThrownBy(() -> watched.get("ns", "other")).isInstanceOf(ObjectException.class);
        assertThat(closed).as("cm was used 4 minutes ago").isEmpty();

        clock.advance(Duration.ofMinutes(5));
        assertThat(watched.get("ns", "cm")).isEqualTo("data");
        assertThat(closed).containsExactlyInAnyOrder("cm", "other");
        assertThat(opened).containsExactly("cm", "other", "cm");
        watched.close();
        assertThat(closed).containsExactlyInAnyOrder("cm", "other", "cm");
    }

    @Test
    void aWatchWhoseListFailsIsDroppedAndTriedAgain() throws Exception {
        List<String> closed = new ArrayList<>();
        int[] opened = {0};
        WatchedGet<String> watched = new WatchedGet<>("secret", (ns, name) -> {
            opened[0]++;
            return new ObjectWatch<>() {
                @Override
                public java.util.concurrent.CompletionStage<Void> synced() {
                    return java.util.concurrent.CompletableFuture.failedFuture(
                            new IllegalStateException("secrets \"s\" is forbidden"));
                }

                @Override
                public String current() {
                    return null;
                }

                @Override
                public void close() {
                    closed.add(name);
                }
            };
        }, clock, Duration.ofMinutes(5));
        assertThatThrownBy(() -> watched.get("ns", "s")).isInstanceOf(ObjectException.class)
                .hasMessage("failed to watch secret ns/s: secrets \"s\" is forbidden");
        assertThatThrownBy(() -> watched.get("ns", "s")).isInstanceOf(ObjectException.class);
        assertThat(opened[0]).isEqualTo(2);
        assertThat(closed).containsExactly("s", "s");
    }
}
