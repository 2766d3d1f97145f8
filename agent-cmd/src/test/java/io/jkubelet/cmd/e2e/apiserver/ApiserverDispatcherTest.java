package io.jkubelet.cmd.e2e.apiserver;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.mockwebserver.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The mock apiserver behaves like a real one where the kubelet depends on it (in-process, no Docker). */
class ApiserverDispatcherTest {
    MockWebServer server;
    KubernetesClient client;

    @BeforeEach
    void start() throws Exception {
        server = new MockWebServer();
        server.setDispatcher(new ApiserverDispatcher("127.0.0.1", Clock.systemUTC()));
        server.start(InetAddress.getLoopbackAddress(), 0);
        client = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
                .withMasterUrl("http://127.0.0.1:" + server.getPort()).withNamespace("default").build()).build();
    }

    @AfterEach
    void stop() {
        client.close();
        server.shutdown();
    }

    static Pod pod(String name, String node) {
        return new PodBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withNodeName(node).addNewContainer().withName("c").withImage("busybox:1.0").endContainer().endSpec()
                .build();
    }

    @Test
    void podsAreListedAndWatchedByNodeName() {
        client.pods().resource(pod("on-a", "node-a")).create();
        List<String> events = new CopyOnWriteArrayList<>();
        try (Watch w = client.pods().inAnyNamespace().withField("spec.nodeName", "node-a").watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                events.add(action + " " + pod.getMetadata().getName());
            }

            @Override
            public void onClose(WatcherException cause) {}
        })) {
            client.pods().resource(pod("on-b", "node-b")).create();
            client.pods().resource(pod("on-a-2", "node-a")).create();
            await().atMost(Duration.ofSeconds(10)).until(() -> events.contains("ADDED on-a-2"));
            assertThat(events).containsExactly("ADDED on-a", "ADDED on-a-2");
        }
        assertThat(client.pods().inAnyNamespace().withField("spec.nodeName", "node-b").list().getItems())
                .extracting(p -> p.getMetadata().getName()).containsExactly("on-b");
    }

    @Test
    void statusIsASubresource() {
        Pod created = client.pods().resource(pod("p", "n")).create();
        assertThat(created.getStatus().getPhase()).isEqualTo("Pending");
        assertThat(created.getStatus().getQosClass()).isEqualTo("BestEffort");
        assertThat(created.getMetadata().getUid()).hasSize(36).isNotEqualTo("00000000-0000-0000-0000-000000000001");
        // The kubelet's status patch: strategic merge, conditions merged by type, with a UID precondition.
        String uid = created.getMetadata().getUid();
        client.pods().withName("p").subresource("status").patch(PatchContext.of(PatchType.STRATEGIC_MERGE), """
                {"metadata":{"uid":"%s"},"status":{"phase":"Running","podIP":"10.1.0.5",
                 "conditions":[{"type":"Initialized","status":"True"},{"type":"Ready","status":"True"}]}}""".formatted(uid));
        client.pods().withName("p").subresource("status").patch(PatchContext.of(PatchType.STRATEGIC_MERGE), """
                {"status":{"$setElementOrder/conditions":[{"type":"Initialized"},{"type":"Ready"}],
                 "conditions":[{"type":"Ready","status":"False"}]}}""");
        Pod p = client.pods().withName("p").get();
        assertThat(p.getStatus().getConditions()).extracting(c -> c.getType() + "=" + c.getStatus())
                .containsExactly("Initialized=True", "Ready=False");
        // An update of the main resource cannot change status; a status write cannot change the spec.
        client.pods().withName("p").edit(x -> new PodBuilder(x).editMetadata().addToLabels("a", "b").endMetadata()
                .editStatus().withPhase("Failed").endStatus().build());
        p = client.pods().withName("p").get();
        assertThat(p.getMetadata().getLabels()).containsEntry("a", "b");
        assertThat(p.getStatus().getPhase()).isEqualTo("Running");
        // A stale UID is refused, as a pod recreated under the same name must not get the old pod's status.
        assertThatThrownBy(() -> client.pods().withName("p").subresource("status").patch(PatchContext.of(PatchType.STRATEGIC_MERGE),
                "{\"metadata\":{\"uid\":\"other\"},\"status\":{\"phase\":\"Failed\"}}"))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
    }

    @Test
    void deletingABoundPodOnlyMarksItUntilTheKubeletDeletesItWithGraceZero() throws Exception {
        Pod created = client.pods().resource(pod("p", "n")).create();
        List<String> events = new CopyOnWriteArrayList<>();
        try (Watch w = client.pods().withField("spec.nodeName", "n").watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                events.add(action + " " + pod.getMetadata().getDeletionGracePeriodSeconds());
            }

            @Override
            public void onClose(WatcherException cause) {}
        })) {
            client.pods().withName("p").delete();
            Pod marked = client.pods().withName("p").get();
            assertThat(marked.getMetadata().getDeletionTimestamp()).isNotNull();
            assertThat(marked.getMetadata().getDeletionGracePeriodSeconds()).isEqualTo(30L);
            // A longer grace period does not extend it; a shorter one shortens it.
            client.pods().withName("p").withGracePeriod(60).delete();
            assertThat(client.pods().withName("p").get().getMetadata().getDeletionGracePeriodSeconds()).isEqualTo(30L);
            // Status updates of a terminating pod keep it.
            client.pods().withName("p").subresource("status").patch(PatchContext.of(PatchType.STRATEGIC_MERGE),
                    "{\"status\":{\"phase\":\"Running\"}}");
            assertThat(client.pods().withName("p").get()).isNotNull();
            // The kubelet's final delete: grace 0 with a UID precondition.
            assertThat(delete("p", "{\"gracePeriodSeconds\":0,\"preconditions\":{\"uid\":\"other\"}}")).isEqualTo(409);
            assertThat(delete("p", "{\"gracePeriodSeconds\":0,\"preconditions\":{\"uid\":\"" + created.getMetadata().getUid() + "\"}}"))
                    .isEqualTo(200);
            assertThat(client.pods().withName("p").get()).isNull();
            await().atMost(Duration.ofSeconds(10)).until(() -> events.stream().anyMatch(e -> e.startsWith("DELETED")));
            assertThat(events).contains("ADDED null", "MODIFIED 30");
        }
    }

    /** DELETE with DeleteOptions in the body, as client-go sends the kubelet's final delete. */
    int delete(String pod, String options) throws Exception {
        var http = java.net.http.HttpClient.newHttpClient();
        var request = java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                        "http://127.0.0.1:" + server.getPort() + "/api/v1/namespaces/default/pods/" + pod))
                .header("Content-Type", "application/json")
                .method("DELETE", java.net.http.HttpRequest.BodyPublishers.ofString(options)).build();
        return http.send(request, java.net.http.HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    @Test
    void anUnboundPodIsDeletedAtOnce() {
        client.pods().resource(pod("p", null)).create();
        client.pods().withName("p").delete();
        assertThat(client.pods().withName("p").get()).isNull();
    }
}
