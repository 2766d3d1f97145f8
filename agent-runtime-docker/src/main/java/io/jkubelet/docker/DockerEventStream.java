package io.jkubelet.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Event;
import com.github.dockerjava.api.model.EventType;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.RuntimeEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
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

    private final DockerClient streams;
    private final Consumer<RuntimeEvent> listener;
    private final Clock clock;
    private final Runnable onClose;
    private volatile boolean closed;
    private volatile Callback current;
    private Thread thread;
    /** Docker's time of the last delivered event, in nanoseconds since the epoch, to resume and de-duplicate. */
    private long lastTimeNano;
    private String lastKey = "";

    DockerEventStream(DockerClient streams, Consumer<RuntimeEvent> listener, Clock clock, Runnable onClose) {
        this.streams = streams;
        this.listener = Objects.requireNonNull(listener, "listener");
        this.clock = clock;
        this.onClose = onClose;
    }

    void start() {
        Instant now = clock.instant();
        lastTimeNano = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        Callback first = connect();
        thread = Thread.ofVirtual().name("docker-events").start(() -> run(first));
        try {
            if (!first.awaitStarted(CONNECT_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("Docker's event stream did not open within {}; events will come once it does", CONNECT_WAIT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run(Callback first) {
        Duration retry = FIRST_RETRY;
        Callback callback = first;
        while (!closed) {
            try {
                callback.awaitCompletion();
            } catch (InterruptedException e) {
                if (closed) {
                    break;
                }
                Thread.currentThread().interrupt();
                break;
            } catch (RuntimeException e) {
                // awaitCompletion rethrows the stream's error; the failure is logged below.
            }
            if (closed) {
                break;
            }
            if (callback.delivered) {
                retry = FIRST_RETRY;
            }
            log.warn("Docker's event stream ended ({}); reconnecting in {}", callback.failure == null
                    ? "closed by the daemon" : DockerErrors.message(callback.failure), retry);
            try {
                Thread.sleep(retry);
            } catch (InterruptedException e) {
                break;
            }
            retry = retry.multipliedBy(2).compareTo(MAX_RETRY) > 0 ? MAX_RETRY : retry.multipliedBy(2);
            if (!closed) {
                try {
                    callback = connect();
                } catch (RuntimeException e) {
                    callback = new Callback();
                    callback.onError(e);
                }
            }
        }
    }

    private Callback connect() {
        Callback callback = new Callback();
        current = callback;
        String since = (lastTimeNano / 1_000_000_000L) + "." + String.format("%09d", lastTimeNano % 1_000_000_000L);
        streams.eventsCmd()
                .withEventTypeFilter(EventType.CONTAINER)
                .withLabelFilter(DockerLabels.CONTAINER_TYPE)
                .withSince(since)
                .exec(callback);
        return callback;
    }

    private synchronized void deliver(Event event) {
        RuntimeEvent.Type type = switch (event.getAction() == null ? "" : event.getAction()) {
            case "create" -> RuntimeEvent.Type.CREATED;
            case "start" -> RuntimeEvent.Type.STARTED;
            case "die" -> RuntimeEvent.Type.STOPPED;
            case "destroy" -> RuntimeEvent.Type.DELETED;
            default -> null;
        };
        if (type == null || event.getActor() == null || event.getActor().getId() == null) {
            return;
        }
        long timeNano = event.getTimeNano() != null ? event.getTimeNano()
                : event.getTime() != null ? event.getTime() * 1_000_000_000L : lastTimeNano;
        String key = event.getActor().getId() + "/" + event.getAction() + "/" + timeNano;
        if (timeNano < lastTimeNano || key.equals(lastKey)) {
            return; // replayed after a reconnect
        }
        lastTimeNano = timeNano;
        lastKey = key;
        Map<String, String> attributes = event.getActor().getAttributes();
        String podUid = attributes == null ? null : attributes.get(Labels.POD_UID);
        try {
            listener.accept(new RuntimeEvent(event.getActor().getId(), podUid, type));
        } catch (RuntimeException e) {
            log.warn("A runtime event listener failed on {} of {}", type, event.getActor().getId(), e);
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        Callback callback = current;
        if (callback != null) {
            try {
                callback.close();
            } catch (IOException e) {
                log.debug("Closing Docker's event stream failed", e);
            }
        }
        if (thread != null) {
            thread.interrupt();
        }
        onClose.run();
    }

    private final class Callback extends QuietCallback<Event> {
        volatile boolean delivered;

        @Override
        public void onNext(Event event) {
            if (closed) {
                return;
            }
            delivered = true;
            deliver(event);
        }

    }
}
