package io.jkubelet.cmd.apiserver;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.jkubelet.core.apis.config.KubeletConfigurationDefaults;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.events.References;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class ApiserverEventsTest {
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable c : closeables.reversed()) {
            c.close();
        }
    }

    @Test
    void standaloneNodeOnlyLogsEvents() {
        LoggingEventRecorder logged = new LoggingEventRecorder(Clock.systemUTC());
        EventRecorder r = ApiserverEvents.recorder(Optional.empty(), "node-a", KubeletConfigurationDefaults.newDefaulted(),
                "v1.30.0", Clock.systemUTC(), logged, closeables);
        assertThat(r).isSameAs(logged);
        assertThat(closeables).isEmpty();
    }

    @Test
    void withAnApiserverEventsAreWrittenThereAndLogged() {
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(), false);
        server.init();
        closeables.add(server::destroy);
        KubernetesClient client = KubeClients.create(server.createClient().getConfiguration(), 50, 100, "v1.30.0");
        closeables.add(client);
        LoggingEventRecorder logged = new LoggingEventRecorder(Clock.systemUTC());

        EventRecorder r = ApiserverEvents.recorder(Optional.of(client), "node-a", KubeletConfigurationDefaults.newDefaulted(),
                "v1.30.0", Clock.systemUTC(), logged, closeables);
        r.event(References.node("node-a"), EventRecorder.NORMAL, "Starting", "Starting kubelet.");

        await().atMost(Duration.ofSeconds(10)).until(() -> !client.v1().events().inNamespace("default").list().getItems().isEmpty());
        Event e = client.v1().events().inNamespace("default").list().getItems().get(0);
        assertThat(e.getReason()).isEqualTo("Starting");
        assertThat(e.getSource().getHost()).isEqualTo("node-a");
        assertThat(logged.events()).hasSize(1);
    }
}
