package io.jkubelet.core.events;

import io.jkubelet.core.util.TokenBucket;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.jkubelet.core.cluster.fabric8.Fabric8EventSink;
import io.jkubelet.core.testing.FakeClock;
import io.jkubelet.core.testing.Pods;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The kubelet's events as the apiserver (fabric8's mock, CRUD mode or scripted) receives them. */
class ApiserverEventRecorderTest {
    private final FakeClock clock = new FakeClock(Instant.parse("2026-12-03T10:00:00.123456789Z"));
    private final LoggingEventRecorder logged = new LoggingEventRecorder(clock);
    private final List<Duration> sleeps = new CopyOnWriteArrayList<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final Pod pod = Pods.pod("web", Pods.container("a"));

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable c : closeables.reversed()) {
            c.close();
        }
    }

    private KubernetesMockServer crudServer() {
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(), false);
        server.init();
        closeables.add(server::destroy);
        return server;
    }

    private KubernetesMockServer scriptedServer() {
        KubernetesMockServer server = new KubernetesMockServer(false);
        server.init();
        closeables.add(server::destroy);
        return server;
    }

    private KubernetesClient client(KubernetesMockServer server) {
        KubernetesClient client = server.createClient(b -> b.editOrNewConfig().withRequestRetryBackoffLimit(0).endConfig());
        closeables.add(client);
        return client;
    }

    private ApiserverEventRecorder recorder(EventSink sink, ApiserverEventRecorder.RateLimiter limiter, int capacity) {
        ApiserverEventRecorder r = new ApiserverEventRecorder(sink, "node-a", logged, clock, limiter,
                d -> sleeps.add(d), capacity);
        closeables.add(r);
        return r;
    }

    private static List<Event> events(KubernetesClient client) {
        return client.v1().events().inNamespace("default").list().getItems();
    }

    @Test
    void eventIsCreatedInTheObjectsNamespaceWithKubeletSource() {
        KubernetesMockServer server = crudServer();
        KubernetesClient client = client(server);
        ApiserverEventRecorder r = recorder(new Fabric8EventSink(client), ApiserverEventRecorder.RateLimiter.UNLIMITED, 1000);
        r.start();

        r.event(References.pod(pod), EventRecorder.NORMAL, "Pulled", "Container image \"busybox\" already present on machine");

        await().atMost(Duration.ofSeconds(10)).until(() -> events(client).size() == 1);
        Event e = events(client).get(0);
        assertThat(e.getMetadata().getName()).isEqualTo("web." + Long.toHexString(1796292000123456789L));
        assertThat(e.getMetadata().getName()).matches("web\\.[0-9a-f]{16}");
        assertThat(e.getMetadata().getNamespace()).isEqualTo("default");
        assertThat(e.getInvolvedObject().getKind()).isEqualTo("Pod");
        assertThat(e.getInvolvedObject().getName()).isEqualTo("web");
        assertThat(e.getInvolvedObject().getUid()).isEqualTo("uid-web");
        assertThat(e.getType()).isEqualTo("Normal");
        assertThat(e.getReason()).isEqualTo("Pulled");
        assertThat(e.getMessage()).isEqualTo("Container image \"busybox\" already present on machine");
        assertThat(e.getSource().getComponent()).isEqualTo("kubelet");
        assertThat(e.getSource().getHost()).isEqualTo("node-a");
        assertThat(e.getReportingComponent()).isEqualTo("kubelet");
        assertThat(e.getReportingInstance()).isEqualTo("node-a");
        assertThat(e.getFirstTimestamp()).isEqualTo("2026-12-03T10:00:00Z");
        assertThat(e.getLastTimestamp()).isEqualTo("2026-12-03T10:00:00Z");
        assertThat(e.getCount()).isEqualTo(1);
        // Also logged locally.
        assertThat(logged.events()).extracting(Event_::reason).containsExactly("Pulled");
    }

    @Test
    void nodeEventGoesToDefaultNamespaceWithNodeNameAsUid() {
        KubernetesMockServer server = crudServer();
        KubernetesClient client = client(server);
        ApiserverEventRecorder r = recorder(new Fabric8EventSink(client), ApiserverEventRecorder.RateLimiter.UNLIMITED, 1000);
        r.start();
        r.event(References.node("node-a"), EventRecorder.NORMAL, "Starting", "Starting kubelet.");
        await().atMost(Duration.ofSeconds(10)).until(() -> events(client).size() == 1);
        Event e = events(client).get(0);
        assertThat(e.getInvolvedObject().getKind()).isEqualTo("Node");
        assertThat(e.getInvolvedObject().getUid()).isEqualTo("node-a");
        assertThat(e.getMetadata().getName()).startsWith("node-a.");
    }

    @Test
    void duplicateEventPatchesCountAndLastTimestamp() throws Exception {
        KubernetesMockServer server = crudServer();
        KubernetesClient client = client(server);
        ApiserverEventRecorder r = recorder(new Fabric8EventSink(client), ApiserverEventRecorder.RateLimiter.UNLIMITED, 1000);
        r.start();

        r.event(References.pod(pod), EventRecorder.WARNING, "BackOff", "Back-off restarting failed container");
        await().atMost(Duration.ofSeconds(10)).until(() -> events(client).size() == 1);
        clock.advance(Duration.ofSeconds(30));
        r.event(References.pod(pod), EventRecorder.WARNING, "BackOff", "Back-off restarting failed container");

        await().atMost(Duration.ofSeconds(10)).until(() -> events(client).get(0).getCount() == 2);
        Event e = events(client).get(0);
        assertThat(events(client)).hasSize(1);
        assertThat(e.getFirstTimestamp()).isEqualTo("2026-12-03T10:00:00Z");
        assertThat(e.getLastTimestamp()).isEqualTo("2026-12-03T10:00:30Z");
        List<String> methods = new ArrayList<>();
        List<String> namedReads = new ArrayList<>();
        for (int i = server.getRequestCount(); i > 0; i--) {
            RecordedRequest req = server.takeRequest(1, TimeUnit.SECONDS);
            if (req.getPath().startsWith("/api/v1/namespaces/default/events/") && req.getMethod().equals("GET")) {
                namedReads.add(req.getPath());
            }
            // The test's own lists are GETs of the collection; the sink's writes are the rest.
            if (req.getPath().startsWith("/api/v1/namespaces/default/events") && !req.getMethod().equals("GET")) {
                methods.add(req.getMethod() + " " + req.getHeader("Content-Type"));
            }
        }
        assertThat(methods).hasSize(2);
        assertThat(methods.get(0)).startsWith("POST");
        assertThat(methods.get(1)).startsWith("PATCH application/merge-patch+json");
        // Upstream's sink only creates and patches: the node authorizer lets a kubelet do nothing else with events
        // ("cannot get resource events"), so a read before the patch would be refused on a real cluster.
        assertThat(namedReads).isEmpty();
    }

    @Test
    void rateLimiterHoldsBackWritesWithoutBlockingTheCaller() {
        KubernetesMockServer server = crudServer();
        KubernetesClient client = client(server);
        Semaphore permits = new Semaphore(1);
        ApiserverEventRecorder r = recorder(new Fabric8EventSink(client), permits::acquire, 1000);
        r.start();

        for (String reason : List.of("Pulling", "Pulled", "Created")) {
            r.event(References.pod(pod), EventRecorder.NORMAL, reason, reason);
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> events(client).size() == 1 && permits.hasQueuedThreads());
        assertThat(events(client)).extracting(Event::getReason).containsExactly("Pulling");
        permits.release(2);
        await().atMost(Duration.ofSeconds(10)).until(() -> events(client).size() == 3);
    }

    @Test
    void tokenBucketLimiterFollowsEventRecordQpsAndBurst() {
        // eventRecordQPS 0 is client-go's default of 5 a second; burst 2.
        TokenBucket bucket = new TokenBucket(5, 2, clock);
        assertThat(bucket.reserve()).isZero();
        assertThat(bucket.reserve()).isZero();
        assertThat(bucket.reserve()).isEqualTo(Duration.ofMillis(200));
        clock.advance(Duration.ofSeconds(1));
        assertThat(bucket.tryAccept()).isTrue();
        assertThat(bucket.tryAccept()).isTrue();
        assertThat(bucket.tryAccept()).isFalse();
    }

    @Test
    void serverErrorsAreRetriedAndTheCallerNeverWaits() throws Exception {
        KubernetesMockServer server = scriptedServer();
        String path = "/api/v1/namespaces/default/events";
        server.expect().post().withPath(path).andReturn(500, "{\"kind\":\"Status\",\"code\":500}").times(2);
        Event created = new io.fabric8.kubernetes.api.model.EventBuilder().withNewMetadata().withName("web.x")
                .withNamespace("default").withResourceVersion("7").endMetadata().withCount(1).build();
        server.expect().post().withPath(path).andReturn(201, created).once();
        KubernetesClient client = client(server);
        CountDownLatch firstSleep = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ApiserverEventRecorder r = new ApiserverEventRecorder(new Fabric8EventSink(client), "node-a", logged, clock,
                ApiserverEventRecorder.RateLimiter.UNLIMITED, d -> {
                    sleeps.add(d);
                    firstSleep.countDown();
                    release.await();
                }, 1000);
        closeables.add(r);
        r.start();

        r.event(References.pod(pod), EventRecorder.WARNING, "Failed", "boom");
        assertThat(firstSleep.await(10, TimeUnit.SECONDS)).isTrue();
        // The sender is stuck between tries; the kubelet keeps recording at once.
        for (int i = 0; i < 50; i++) {
            r.event(References.pod(pod), EventRecorder.NORMAL, "Other" + i, "m");
        }
        release.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> sleeps.size() == 2);
        await().atMost(Duration.ofSeconds(10)).until(() -> server.getRequestCount() >= 3);
        assertThat(sleeps.get(0)).isLessThanOrEqualTo(Duration.ofSeconds(10));
        assertThat(sleeps.get(1)).isEqualTo(Duration.ofSeconds(10));
        assertThat(logged.events()).hasSize(51);
    }

    @Test
    void unreachableApiserverIsTriedTwelveTimes() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        KubernetesClient client = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
                .withMasterUrl("http://127.0.0.1:" + port).withRequestRetryBackoffLimit(0).build()).build();
        closeables.add(client);
        List<Integer> tries = new CopyOnWriteArrayList<>();
        ApiserverEventRecorder r = recorder(new Fabric8EventSink(client), () -> tries.add(1), 1000);
        r.start();
        r.event(References.pod(pod), EventRecorder.NORMAL, "Pulled", "m");
        await().atMost(Duration.ofSeconds(30)).until(() -> tries.size() == 12 && sleeps.size() == 11);
        assertThat(sleeps.subList(1, 11)).allMatch(d -> d.equals(Duration.ofSeconds(10)));
    }

    @Test
    void rejectedEventIsNotRetried() throws Exception {
        KubernetesMockServer server = scriptedServer();
        server.expect().post().withPath("/api/v1/namespaces/default/events")
                .andReturn(403, "{\"kind\":\"Status\",\"code\":403,\"reason\":\"Forbidden\"}").always();
        KubernetesClient client = client(server);
        List<Integer> tries = new CopyOnWriteArrayList<>();
        ApiserverEventRecorder r = recorder(new Fabric8EventSink(client), () -> tries.add(1), 1000);
        r.start();
        r.event(References.pod(pod), EventRecorder.NORMAL, "Pulled", "m");
        r.event(References.pod(pod), EventRecorder.NORMAL, "Created", "m");
        await().atMost(Duration.ofSeconds(10)).until(() -> tries.size() == 2);
        assertThat(sleeps).isEmpty();
    }

    @Test
    void fullQueueDropsNewEvents() {
        KubernetesMockServer server = crudServer();
        KubernetesClient client = client(server);
        ApiserverEventRecorder r = recorder(new Fabric8EventSink(client), ApiserverEventRecorder.RateLimiter.UNLIMITED, 2);
        for (String reason : List.of("A", "B", "C")) {
            r.event(References.pod(pod), EventRecorder.NORMAL, reason, reason);
        }
        r.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> events(client).size() == 2);
        assertThat(events(client)).extracting(Event::getReason).containsExactlyInAnyOrder("A", "B");
        assertThat(logged.events()).hasSize(3);
    }

    @Test
    void unsupportedTypeIsNotSent() {
        KubernetesMockServer server = crudServer();
        KubernetesClient client = client(server);
        ApiserverEventRecorder r = recorder(new Fabric8EventSink(client), ApiserverEventRecorder.RateLimiter.UNLIMITED, 1);
        r.event(References.pod(pod), "Info", "A", "a");
        r.event(References.pod(pod), EventRecorder.NORMAL, "B", "b");
        r.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> events(client).size() == 1);
        assertThat(events(client).get(0).getReason()).isEqualTo("B");
    }

    /** The local recorder's event record, named apart from the API's Event. */
    private interface Event_ {
        static String reason(io.jkubelet.core.events.Event e) {
            return e.reason();
        }
    }
}
