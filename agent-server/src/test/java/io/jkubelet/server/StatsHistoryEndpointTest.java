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

    /** The path's answer is {@code status} with exactly {@code body}. */
    private void answers(String path, int status, String body) throws Exception {
        HttpResponse<String> r = get(path);
        assertThat(r.statusCode()).as(path).isEqualTo(status);
        assertThat(r.body()).isEqualTo(body);
    }

    private void answersStartingWith(String path, int status, String body) throws Exception {
        HttpResponse<String> r = get(path);
        assertThat(r.statusCode()).as(path).isEqualTo(status);
        assertThat(r.body()).startsWith(body);
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

        answers("/stats/history?node=x", 400,
                "unknown query parameter \"node\": /stats/history takes pod=<namespace>/<name> and container=<name>");
        answers("/stats/history?pod=web", 400, "pod=web: expected <namespace>/<name>");
        assertThat(get("/stats/history?pod=a/b/c").statusCode()).isEqualTo(400);
        answers("/stats/history?container=app", 400, "container=app needs pod=<namespace>/<name>");
        assertThat(get("/stats/history?pod=default/web&pod=default/web").statusCode()).isEqualTo(400);
    }

    @Test
    void unknownPodsAndContainersAre404() throws Exception {
        oneRound();

        answersStartingWith("/stats/history?pod=default/gone", 404, "no stats history for pod default/gone");
        answers("/stats/history?pod=default/web&container=db", 404,
                "no stats history for container \"db\" of pod default/web; containers with one: [app]");
    }

    @Test
    void aNodeWithoutHistoryIs404() throws Exception {
        answers("/stats/history", 404, "this node keeps no stats history");
    }
}
