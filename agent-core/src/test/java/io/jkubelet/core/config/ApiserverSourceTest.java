package io.jkubelet.core.config;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodListBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.jkubelet.core.cluster.fabric8.Fabric8PodListWatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The apiserver source over fabric8's list and watch, against scripted apiserver answers, for what fabric8's CRUD
 * mock cannot show: the field selector a real apiserver evaluates, a watch resumed from the last resource version,
 * 410 Gone, a failing list.
 * A request the script does not expect gets 404 from the mock, so the paths below are also the assertion that the
 * selector and resource versions are sent.
 */
@EnableKubernetesMockClient
class ApiserverSourceTest {
    private static final String LIST = "/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-a&resourceVersion=0";

    KubernetesMockServer server;
    KubernetesClient client;
    private final List<PodUpdate> updates = new CopyOnWriteArrayList<>();
    private ApiserverSource source;

    private static String watchPath(String rv) {
        return "/api/v1/pods?allowWatchBookmarks=true&fieldSelector=spec.nodeName%3Dnode-a&resourceVersion=" + rv
                + "&timeoutSeconds=600&watch=true";
    }

    private void start() {
        KubernetesClient c = server.createClient(b -> b.editOrNewConfig().withRequestRetryBackoffLimit(0)
                .withWatchReconnectInterval(50).endConfig());
        source = new ApiserverSource(new Fabric8PodListWatch(c), "node-a", updates::add);
        source.start();
    }

    @AfterEach
    void tearDown() {
        if (source != null) {
            source.close();
        }
    }

    private static Pod pod(String name, String rv) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").withUid("uid-" + name)
                .withResourceVersion(rv).endMetadata().withNewSpec().withNodeName("node-a").endSpec().build();
    }

    private static Object list(String rv, Pod... pods) {
        return new PodListBuilder().withNewMetadata().withResourceVersion(rv).endMetadata().addToItems(pods).build();
    }

    private List<String> names(PodUpdate u) {
        return u.pods().stream().map(p -> p.getMetadata().getName()).toList();
    }

    private List<String> namesOf(PodOperation op) {
        List<String> out = new ArrayList<>();
        updates.stream().filter(u -> u.op() == op).forEach(u -> out.addAll(names(u)));
        return out;
    }

    @Test
    void listsAndWatchesOnlyThisNodesPodsAndSendsTheListAsOneSetFirst() {
        server.expect().get().withPath(LIST).andReturn(200, list("5", pod("a", "4"))).once();
        server.expect().get().withPath(watchPath("5")).andUpgradeToWebSocket().open()
                .waitFor(100).andEmit(new WatchEvent(pod("b", "6"), "ADDED"))
                .waitFor(100).andEmit(new WatchEvent(pod("a", "7"), "DELETED")).done().once();
        start();

        await().atMost(Duration.ofSeconds(30)).until(() -> namesOf(PodOperation.REMOVE).contains("a"));
        assertThat(updates.get(0).op()).isEqualTo(PodOperation.SET);
        assertThat(updates.get(0).source()).isEqualTo(PodSources.API);
        assertThat(names(updates.get(0))).containsExactly("a");
        assertThat(namesOf(PodOperation.ADD)).containsExactly("b");
    }

    @Test
    void aWatchThatEndsResumesFromTheLastResourceVersionAnd410Relists() {
        server.expect().get().withPath(LIST).andReturn(200, list("5", pod("a", "4"), pod("b", "5"))).once();
        // The first watch delivers one event and then ends, as the apiserver's watch timeout does.
        server.expect().get().withPath(watchPath("5")).andUpgradeToWebSocket().open()
                .waitFor(100).andEmit(new WatchEvent(pod("a", "7"), "MODIFIED")).done().once();
        // Resumed from the event's version, which etcd has compacted meanwhile.
        server.expect().get().withPath(watchPath("7")).andUpgradeToWebSocket().open()
                .waitFor(100).andEmit(new WatchEvent(new StatusBuilder().withCode(410).withReason("Expired")
                        .withMessage("too old resource version: 7 (19)").build(), "ERROR")).done().once();
        // After 410 the relist is a consistent read (no resourceVersion=0 served from a cache), as client-go does.
        server.expect().get().withPath("/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-a")
                .andReturn(200, list("20", pod("a", "7"), pod("c", "19"))).once();
        server.expect().get().withPath(watchPath("20")).andUpgradeToWebSocket().open().done().always();
        start();

        await().atMost(Duration.ofSeconds(30)).until(() -> namesOf(PodOperation.ADD).contains("c"));
        assertThat(namesOf(PodOperation.REMOVE)).as("gone while the watch was away").containsExactly("b");
        assertThat(namesOf(PodOperation.UPDATE)).contains("a");
    }

    @Test
    void anApiserverThatFailsAtFirstIsRetriedUntilItLists() {
        server.expect().get().withPath(LIST).andReturn(500, "etcd unavailable").times(2);
        server.expect().get().withPath(LIST).andReturn(200, list("9", pod("a", "8"))).once();
        server.expect().get().withPath(watchPath("9")).andUpgradeToWebSocket().open().done().always();
        start();

        await().atMost(Duration.ofSeconds(30)).until(source::hasSynced);
        assertThat(updates.get(0).op()).isEqualTo(PodOperation.SET);
        assertThat(names(updates.get(0))).containsExactly("a");
    }
}
