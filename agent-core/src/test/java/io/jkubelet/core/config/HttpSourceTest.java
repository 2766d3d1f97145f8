package io.jkubelet.core.config;

import static io.jkubelet.core.config.Manifests.NODE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Against a real HTTP server on 127.0.0.1. */
class HttpSourceTest {

    private static final Duration HOURLY = Duration.ofHours(1);

    private HttpServer server;
    private URI url;
    private volatile int status = 200;
    private volatile byte[] body = new byte[0];
    private final CountDownLatch release = new CountDownLatch(1);
    private volatile boolean hang;
    private final List<Map<String, List<String>>> requestHeaders = new CopyOnWriteArrayList<>();
    private final List<PodUpdate> sent = new CopyOnWriteArrayList<>();
    private LogCapture logs;
    private HttpSource source;

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/pods", exchange -> {
            requestHeaders.add(Map.copyOf(exchange.getRequestHeaders()));
            if (hang) {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] payload = body;
            exchange.sendResponseHeaders(status, payload.length == 0 ? -1 : payload.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(payload);
            }
        });
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
        url = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/pods");
        logs = new LogCapture(HttpSource.class);
    }

    @AfterEach
    void stopServer() {
        release.countDown();
        if (source != null) {
            source.close();
        }
        server.stop(0);
        logs.close();
    }

    private HttpSource source(Map<String, List<String>> headers) {
        source = new HttpSource(url, headers, NODE, HOURLY, sent::add);
        return source;
    }

    private void serve(String text) {
        body = text.getBytes(StandardCharsets.UTF_8);
    }

    private List<String> lastSetNames() {
        // An assertion, not getLast()'s NoSuchElementException, so that an await polling before the first fetch retries.
        assertThat(sent).isNotEmpty();
        PodUpdate last = sent.getLast();
        assertThat(last.op()).isEqualTo(PodOperation.SET);
        assertThat(last.source()).isEqualTo(PodSources.HTTP);
        return last.pods().stream().map(p -> p.getMetadata().getName()).toList();
    }

    @Test
    void aSinglePodIsSentAsAStaticPodOfTheUrl() {
        serve(Manifests.WEB_YAML);

        source(Map.of()).run();

        assertThat(lastSetNames()).containsExactly("web-node-1");
        var pod = sent.getLast().pods().getFirst();
        assertThat(pod.getSpec().getNodeName()).isEqualTo(NODE);
        assertThat(pod.getSpec().getTolerations()).as("only file pods get the NoExecute toleration").isEmpty();
        assertThat(pod.getMetadata().getUid()).isEqualTo(pod.getMetadata().getAnnotations()
                .get(ConfigAnnotations.CONFIG_HASH));
    }

    @Test
    void aPodListIsSentWhole() {
        serve("""
                {"apiVersion": "v1", "kind": "PodList", "items": [
                  {"metadata": {"name": "a"}, "spec": {"containers": [{"name": "c", "image": "busybox"}]}},
                  {"metadata": {"name": "b"}, "spec": {"containers": [{"name": "c", "image": "busybox"}]}}]}
                """);

        source(Map.of()).run();

        assertThat(lastSetNames()).containsExactly("a-node-1", "b-node-1");
    }

    @Test
    void everyValueOfEveryHeaderIsSent() {
        serve(Manifests.WEB_YAML);

        source(Map.of("Authorization", List.of("Bearer secret"), "X-Node", List.of("a", "b"))).run();

        assertThat(requestHeaders).singleElement().satisfies(h -> {
            assertThat(h.get("Authorization")).containsExactly("Bearer secret");
            assertThat(h.get("X-node")).containsExactly("a", "b");
        });
    }

    @Test
    void anUnchangedBodySendsNothing() {
        serve(Manifests.WEB_YAML);
        HttpSource http = source(Map.of());

        http.run();
        http.run();

        assertThat(sent).hasSize(1);
        assertThat(requestHeaders).hasSize(2);
    }

    @Test
    void anEmptyBodyIsAnEmptySourceAndTheSamePodsComeBackAfterIt() {
        serve(Manifests.WEB_YAML);
        HttpSource http = source(Map.of());
        http.run();

        serve("");
        http.run();
        assertThat(lastSetNames()).isEmpty();
        assertThat(logs.messages(Level.INFO)).anySatisfy(m -> assertThat(m).contains("zero-length data received from "
                + url));

        serve(Manifests.WEB_YAML);
        http.run();
        assertThat(lastSetNames()).containsExactly("web-node-1");
    }

    @Test
    void aFailingUrlKeepsWhatRuns() {
        serve(Manifests.WEB_YAML);
        HttpSource http = source(Map.of());
        http.run();

        status = 500;
        http.run();
        status = 200;
        serve("not: [a pod");
        http.run();
        serve("apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec: {containers: []}\n");
        http.run();

        assertThat(sent).hasSize(1);
        assertThat(logs.messages(Level.INFO)).anySatisfy(m -> assertThat(m).contains(url + ": HTTP status 500"))
                .anySatisfy(m -> assertThat(m).contains(url + ": received 'not: [a pod', but couldn't parse as single"
                        + " (invalid YAML").contains("or multiple pods (invalid YAML"))
                .anySatisfy(m -> assertThat(m).contains(url + ": spec.containers: Required value"));
    }

    @Test
    void failuresAreLoggedThreeTimesThenQuietly() {
        status = 404;
        HttpSource http = source(Map.of());

        for (int i = 0; i < 6; i++) {
            http.run();
        }
        assertThat(logs.messages(Level.INFO)).hasSize(4).last().asString()
                .contains("Logging further failures at debug level");
        assertThat(logs.messages(Level.DEBUG)).hasSize(6);

        status = 200;
        serve(Manifests.WEB_YAML);
        http.run();
        assertThat(logs.messages(Level.INFO)).last().asString().isEqualTo("Successfully read pods from URL " + url);

        status = 404;
        http.run();
        assertThat(logs.messages(Level.INFO)).last().asString().contains("HTTP status 404");
    }

    @Test
    void aServerThatDoesNotAnswerTimesOut() {
        hang = true;
        source = new HttpSource(url, Map.of(), NODE, HOURLY, sent::add, null, null, Duration.ofMillis(300));

        source.run();

        assertThat(sent).isEmpty();
        assertThat(logs.messages(Level.INFO)).singleElement().asString().contains("no complete response within 300 ms");
    }

    @Test
    void aBodyOverTheManifestLimitIsRefusedByName() {
        body = new byte[PodCodec.MAX_MANIFEST_BYTES + 1];
        java.util.Arrays.fill(body, (byte) ' ');

        source(Map.of()).run();

        assertThat(sent).isEmpty();
        assertThat(logs.messages(Level.INFO)).singleElement().asString().contains(url + ": the response is larger than the 1.5 MiB a manifest may have");
    }

    @Test
    void fetchesPeriodicallyOnceStarted() {
        serve(Manifests.pod("one", "busybox"));
        source = new HttpSource(url, Map.of(), NODE, Duration.ofMillis(50), sent::add);
        source.start();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(lastSetNames()).containsExactly("one-node-1"));

        serve(Manifests.pod("two", "busybox"));

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(lastSetNames()).containsExactly("two-node-1"));
        source.close();
        int fetches = requestHeaders.size();
        assertThat(sent).hasSize(2);
        assertThat(fetches).isGreaterThanOrEqualTo(2);
    }

    @Test
    void refusesWhatCannotBeFetched() {
        assertThatThrownBy(() -> new HttpSource(URI.create("file:///etc/pods"), Map.of(), NODE, HOURLY, sent::add))
                .hasMessage("staticPodURL: file:///etc/pods: must be an http or https URL");
        assertThatThrownBy(() -> new HttpSource(url, Map.of("Host", List.of("x")), NODE, HOURLY, sent::add))
                .hasMessage("staticPodURLHeader: header \"Host\" cannot be set: the HTTP client sets it itself");
    }
}
