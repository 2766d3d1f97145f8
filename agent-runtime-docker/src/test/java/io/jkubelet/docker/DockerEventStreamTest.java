package io.jkubelet.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.EventsCmd;
import com.github.dockerjava.api.model.Event;
import com.github.dockerjava.api.model.EventActor;
import io.jkubelet.core.runtime.RuntimeEvent;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The event stream's own logic against a scripted {@code /events}: the mapping of Docker actions, the
 * reconnect after the stream ends, resuming from the last event and not delivering it twice.
 */
class DockerEventStreamTest {

    private static final Instant START = Instant.parse("2026-12-01T10:00:00Z");
    private final List<String> sinceAsked = new CopyOnWriteArrayList<>();
    private final List<RuntimeEvent> delivered = new CopyOnWriteArrayList<>();

    @Test
    void mapsKubeletContainerEventsAndReconnectsWhereTheLostStreamStopped() {
        long t1 = START.getEpochSecond() * 1_000_000_000L + 5;
        List<BiConsumer<Integer, ResultCallback<Event>>> connections = new ArrayList<>();
        // First connection: a create, a start, an exec (ignored), then the daemon goes away.
        connections.add((n, cb) -> {
            cb.onStart(() -> { });
            cb.onNext(event("c1", "create", t1));
            cb.onNext(event("c1", "start", t1 + 1));
            cb.onNext(event("c1", "exec_start: sh -c true", t1 + 2));
            cb.onComplete();
        });
        // Second connection: Docker replays the last event (since is inclusive), then a die and a destroy.
        connections.add((n, cb) -> {
            cb.onStart(() -> { });
            cb.onNext(event("c1", "start", t1 + 1));
            cb.onNext(event("c1", "die", t1 + 3));
            cb.onNext(event("c1", "destroy", t1 + 4));
        });
        DockerClient docker = scriptedDocker(connections);

        try (DockerEventStream stream = new DockerEventStream(docker, delivered::add,
                Clock.fixed(START, ZoneOffset.UTC), () -> { })) {
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
    }

    private static Event event(String id, String action, long timeNano) {
        return new Event("", id, "", timeNano / 1_000_000_000L)
                .withAction(action).withTimenano(timeNano)
                .withEventActor(new EventActor().withId(id).withAttributes(Map.of("io.kubernetes.pod.uid", "uid-1")));
    }

    /** A DockerClient whose eventsCmd() plays the given connections in turn; the last one stays open. */
    private DockerClient scriptedDocker(List<BiConsumer<Integer, ResultCallback<Event>>> connections) {
        int[] opened = {0};
        return (DockerClient) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {DockerClient.class},
                (proxy, method, args) -> {
                    if (!method.getName().equals("eventsCmd")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    return eventsCmd(opened, connections);
                });
    }

    private EventsCmd eventsCmd(int[] opened, List<BiConsumer<Integer, ResultCallback<Event>>> connections) {
        return (EventsCmd) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {EventsCmd.class},
                (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "withSince" -> {
                            sinceAsked.add((String) args[0]);
                            return proxy;
                        }
                        case "exec" -> {
                            @SuppressWarnings("unchecked")
                            ResultCallback<Event> callback = (ResultCallback<Event>) args[0];
                            int n = opened[0]++;
                            if (n < connections.size()) {
                                Thread.ofVirtual().start(() -> connections.get(n).accept(n, callback));
                            }
                            return callback;
                        }
                        case "close" -> {
                            return null;
                        }
                        default -> {
                            if (method.getName().startsWith("with")) {
                                return proxy;
                            }
                            throw new UnsupportedOperationException(method.getName());
                        }
                    }
                });
    }
}
