package io.jkubelet.docker;

import io.jkubelet.core.runtime.RuntimeEvent;
import io.jkubelet.docker.engine.DockerEngine;
import io.jkubelet.docker.engine.ScriptedDaemon;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The event stream's own logic against a scripted daemon's {@code /events}: the mapping of Docker actions, the
 * reconnect after the stream ends, resuming from the last event and not delivering it twice, the filters asked.
 */
class DockerEventStreamTest {

    private static final Instant START = Instant.parse("2026-12-01T10:00:00Z");
    private static final Pattern QUERY = Pattern.compile("GET /v1\\.41/events\\?since=([^&]*)&filters=(\\S*) HTTP");
    private final List<String> sinceAsked = new CopyOnWriteArrayList<>();
    private final List<String> filtersAsked = new CopyOnWriteArrayList<>();
    private final List<RuntimeEvent> delivered = new CopyOnWriteArrayList<>();

    @Test
    void mapsKubeletContainerEventsAndReconnectsWhereTheLostStreamStopped() throws Exception {
        long t1 = START.getEpochSecond() * 1_000_000_000L + 5;
        AtomicInteger connections = new AtomicInteger();
        try (ScriptedDaemon daemon = ScriptedDaemon.unix(request -> {
            if (request.startsWith("GET /_ping")) {
                return ScriptedDaemon.PING;
            }
            Matcher m = QUERY.matcher(request);
            if (!m.find()) {
                return "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n";
            }
            sinceAsked.add(URLDecoder.decode(m.group(1), StandardCharsets.UTF_8));
            filtersAsked.add(URLDecoder.decode(m.group(2), StandardCharsets.UTF_8));
            // First connection: a create, a start, an exec (ignored), then the daemon ends the stream.
            // Second: Docker replays the last event (since is inclusive), then a die and a destroy, and stays open.
            return connections.getAndIncrement() == 0
                    ? stream(event("c1", "create", t1), event("c1", "start", t1 + 1),
                            event("c1", "exec_start: sh -c true", t1 + 2)) + "0\r\n\r\n"
                    : stream(event("c1", "start", t1 + 1), event("c1", "die", t1 + 3), event("c1", "destroy", t1 + 4));
        }, true);
             DockerEngine engine = DockerEngine.connect(daemon.endpoint(), Duration.ofMinutes(1));
             DockerEventStream stream = new DockerEventStream(engine, delivered::add, Clock.fixed(START, ZoneOffset.UTC),
                     () -> { })) {
            stream.start();
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> delivered.size() >= 4);
        }

        assertThat(delivered).containsExactly(
                new RuntimeEvent("c1", "uid-1", RuntimeEvent.Type.CREATED),
                new RuntimeEvent("c1", "uid-1", RuntimeEvent.Type.STARTED),
                new RuntimeEvent("c1", "uid-1", RuntimeEvent.Type.STOPPED),
                new RuntimeEvent("c1", "uid-1", RuntimeEvent.Type.DELETED));
        assertThat(sinceAsked).hasSizeGreaterThanOrEqualTo(2);
        assertThat(sinceAsked.get(0)).isEqualTo(START.getEpochSecond() + ".000000000");
        assertThat(sinceAsked.get(1)).isEqualTo(START.getEpochSecond() + ".000000006");
        assertThat(filtersAsked.getFirst()).contains("\"type\":[\"container\"]")
                .contains("\"label\":[\"" + DockerLabels.CONTAINER_TYPE + "\"]");
    }

    private static String event(String id, String action, long timeNano) {
        return "{\"Type\":\"container\",\"Action\":\"" + action + "\",\"Actor\":{\"ID\":\"" + id
                + "\",\"Attributes\":{\"io.kubernetes.pod.uid\":\"uid-1\"}},\"time\":" + timeNano / 1_000_000_000L
                + ",\"timeNano\":" + timeNano + "}\n";
    }

    /** A chunked answer's head and one chunk per event, not ended. */
    private static String stream(String... events) {
        StringBuilder answer = new StringBuilder("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n");
        for (String e : events) {
            answer.append(Integer.toHexString(e.getBytes(StandardCharsets.UTF_8).length)).append("\r\n").append(e)
                    .append("\r\n");
        }
        return answer.toString();
    }
}
