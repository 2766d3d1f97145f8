package io.jkubelet.docker;

import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.RuntimeEvent;
import io.jkubelet.docker.engine.DockerEngine;
import io.jkubelet.docker.engine.EngineStream;
import io.jkubelet.docker.engine.EventMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One subscription to Docker's {@code /events}: container events of the kubelet's containers (those with an
 * {@code io.kubernetes.docker.type} label), as {@link RuntimeEvent}s, until closed.
 *
 * <p>When the stream breaks (daemon restart, connection loss) it reconnects with a back-off from 1s to 30s and
 * asks Docker for the events since the last one it delivered, so a short loss drops nothing; events seen
 * twice across a reconnect are delivered once. Thread-safe; events are delivered on the stream's thread.
 */
final class DockerEventStream implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DockerEventStream.class);

    private static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    private static final Duration MAX_RETRY = Duration.ofSeconds(30);
    /** How long {@link #start()} waits for the first connection, so that events right after it are seen. */
    private static final Duration CONNECT_WAIT = Duration.ofSeconds(5);

    private final DockerEngine engine;
    private final Consumer<RuntimeEvent> listener;
    private final Clock clock;
    private final Runnable onClose;
    /** Counted down when the first connection opened or failed, so that {@link #start()} stops waiting. */
    private final CountDownLatch firstAttempt = new CountDownLatch(1);
    private volatile boolean closed;
    private volatile EngineStream<EventMessage> current;
    private Thread thread;
    /** Docker's time of the last delivered event, in nanoseconds since the epoch, to resume and de-duplicate. */
    private long lastTimeNano;
    private String lastKey = "";

    DockerEventStream(DockerEngine engine, Consumer<RuntimeEvent> listener, Clock clock, Runnable onClose) {
        this.engine = engine;
        this.listener = Objects.requireNonNull(listener, "listener");
        this.clock = clock;
        this.onClose = onClose;
    }

    void start() {
        Instant now = clock.instant();
        lastTimeNano = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        thread = Thread.ofVirtual().name("docker-events").start(this::run);
        try {
            if (!firstAttempt.await(CONNECT_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("Docker's event stream did not open within {}; events will come once it does", CONNECT_WAIT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        Duration retry = FIRST_RETRY;
        while (!closed) {
            boolean delivered = false;
            String ended = "closed by the daemon";
            try (EngineStream<EventMessage> stream = connect()) {
                firstAttempt.countDown();
                for (EventMessage event; !closed && (event = stream.next()) != null; ) {
                    delivered = true;
                    deliver(event);
                }
            } catch (RuntimeException e) {
                ended = DockerErrors.message(e);
            } finally {
                firstAttempt.countDown();
            }
            if (closed) {
                break;
            }
            if (delivered) {
                retry = FIRST_RETRY;
            }
            log.warn("Docker's event stream ended ({}); reconnecting in {}", ended, retry);
            try {
                Thread.sleep(retry);
            } catch (InterruptedException e) {
                break;
            }
            retry = retry.multipliedBy(2).compareTo(MAX_RETRY) > 0 ? MAX_RETRY : retry.multipliedBy(2);
        }
    }

    /** Opens the stream from the last delivered event on (Docker's {@code since} is inclusive). */
    private EngineStream<EventMessage> connect() {
        String since = (lastTimeNano / 1_000_000_000L) + "." + String.format("%09d", lastTimeNano % 1_000_000_000L);
        EngineStream<EventMessage> stream = engine.events(since, Map.of("type", List.of("container"),
                "label", List.of(DockerLabels.CONTAINER_TYPE)));
        current = stream;
        if (closed) {
            stream.close(); // closed while it opened: close() did not see it
        }
        return stream;
    }

    private synchronized void deliver(EventMessage event) {
        RuntimeEvent.Type type = switch (event.action() == null ? "" : event.action()) {
            case "create" -> RuntimeEvent.Type.CREATED;
            case "start" -> RuntimeEvent.Type.STARTED;
            case "die" -> RuntimeEvent.Type.STOPPED;
            case "destroy" -> RuntimeEvent.Type.DELETED;
            default -> null;
        };
        if (type == null || event.actor() == null || event.actor().id() == null) {
            return;
        }
        long timeNano = event.timeNano() != null ? event.timeNano()
                : event.time() != null ? event.time() * 1_000_000_000L : lastTimeNano;
        String key = event.actor().id() + "/" + event.action() + "/" + timeNano;
        if (timeNano < lastTimeNano || key.equals(lastKey)) {
            return; // replayed after a reconnect
        }
        lastTimeNano = timeNano;
        lastKey = key;
        Map<String, String> attributes = event.actor().attributes();
        String podUid = attributes == null ? null : attributes.get(Labels.POD_UID);
        try {
            listener.accept(new RuntimeEvent(event.actor().id(), podUid, type));
        } catch (RuntimeException e) {
            log.warn("A runtime event listener failed on {} of {}", type, event.actor().id(), e);
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        EngineStream<EventMessage> stream = current;
        if (stream != null) {
            stream.close();
        }
        if (thread != null) {
            thread.interrupt();
        }
        onClose.run();
    }
}
