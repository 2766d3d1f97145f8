package io.jkubelet.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jkubelet.core.stats.history.StatsHistory;
import io.jkubelet.server.stats.StatsFixtures;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code /stats/history} on the read-only port, over a history fed with the fixture's round. */
class StatsHistoryEndpointTest {
    private final FakeKubeletView view = new FakeKubeletView();
    private ServedHandlers served;

    @BeforeEach
    void start() throws Exception {
        served = ServedHandlers.start(new KubeletHandlers(view, List.of()), ServedHandlers.Group.AUTH_NOT_REQUIRED);
    }

    @AfterEach
    void stop() {
        served.close();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return served.send(served.request(path));
    }

    private void oneRound() {
        StatsHistory history = new StatsHistory(Duration.ofSeconds(10));
        history.record(StatsFixtures.snapshot());
        view.history.set(history);
    }

    @Test
    void theNodesSeriesAsColumns() throws Exception {
        oneRound();

        HttpResponse<String> r = get("/stats/history");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("content-type")).hasValue("application/json");
        JsonNode json = new ObjectMapper().readTree(r.body());
        assertThat(json.get("kind").asText()).isEqualTo("node");
        assertThat(json.get("periodSeconds").asInt()).isEqualTo(10);
        assertThat(json.get("windowSeconds").asInt()).isEqualTo(900);
        assertThat(json.get("time").get(0).asLong()).isEqualTo(StatsFixtures.T.getEpochSecond());
        assertThat(json.get("cpuNanoCores").get(0).asLong()).isEqualTo(250_000_000L);
        assertThat(json.get("memoryWorkingSetBytes").get(0).asLong()).isEqualTo(2000);
        assertThat(json.get("fsUsedBytes").get(0).asLong()).isEqualTo(400);
        assertThat(json.get("rxBytesPerSecond").get(0).isNull()).isTrue(); // one round: no rate yet
    }

    @Test
    void aPodAndOneOfItsContainers() throws Exception {
        oneRound();

        JsonNode pod = new ObjectMapper().readTree(get("/stats/history?pod=default/web").body());
        JsonNode app = new ObjectMapper().readTree(get("/stats/history?pod=default/web&container=app").body());

        assertThat(pod.get("kind").asText()).isEqualTo("pod");
        assertThat(pod.at("/podRef/uid").asText()).isEqualTo("uid-1");
        assertThat(pod.get("containers").toString()).isEqualTo("[\"app\"]");
        assertThat(pod.get("memoryWorkingSetBytes").get(0).asLong()).isEqualTo(70);
        assertThat(app.get("kind").asText()).isEqualTo("container");
        assertThat(app.get("container").asText()).isEqualTo("app");
        assertThat(app.get("memoryWorkingSetBytes").get(0).asLong()).isEqualTo(60);
        assertThat(app.get("fsUsedBytes").get(0).asLong()).isEqualTo(4396);
    }

    @Test
    void badQueriesAre400WithWhatIsWrong() throws Exception {
        oneRound();

        assertThat(get("/stats/history?node=x")).satisfies(r -> {
            assertThat(r.statusCode()).isEqualTo(400);
            assertThat(r.body()).isEqualTo("unknown query parameter \"node\": /stats/history takes pod=<namespace>/<name> and container=<name>");
        });
        assertThat(get("/stats/history?pod=web")).satisfies(r -> {
            assertThat(r.statusCode()).isEqualTo(400);
            assertThat(r.body()).isEqualTo("pod=web: expected <namespace>/<name>");
        });
        assertThat(get("/stats/history?pod=a/b/c").statusCode()).isEqualTo(400);
        assertThat(get("/stats/history?container=app")).satisfies(r -> {
            assertThat(r.statusCode()).isEqualTo(400);
            assertThat(r.body()).isEqualTo("container=app needs pod=<namespace>/<name>");
        });
        assertThat(get("/stats/history?pod=default/web&pod=default/web").statusCode()).isEqualTo(400);
    }

    @Test
    void unknownPodsAndContainersAre404() throws Exception {
        oneRound();

        assertThat(get("/stats/history?pod=default/gone")).satisfies(r -> {
            assertThat(r.statusCode()).isEqualTo(404);
            assertThat(r.body()).startsWith("no stats history for pod default/gone");
        });
        assertThat(get("/stats/history?pod=default/web&container=db")).satisfies(r -> {
            assertThat(r.statusCode()).isEqualTo(404);
            assertThat(r.body()).isEqualTo("no stats history for container \"db\" of pod default/web; containers with one: [app]");
        });
    }

    @Test
    void aNodeWithoutHistoryIs404() throws Exception {
        assertThat(get("/stats/history")).satisfies(r -> {
            assertThat(r.statusCode()).isEqualTo(404);
            assertThat(r.body()).isEqualTo("this node keeps no stats history");
        });
    }
}
