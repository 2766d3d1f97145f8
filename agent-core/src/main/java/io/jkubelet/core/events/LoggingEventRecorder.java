package io.jkubelet.core.events;

import io.fabric8.kubernetes.api.model.ObjectReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The standalone node's recorder: events go to the log (logger {@code events}) and to a bounded
 * in-memory list, newest last, so that tests and endpoints can read them.
 */
public final class LoggingEventRecorder implements EventRecorder {
    private static final Logger log = LoggerFactory.getLogger("events");
    private static final int CAPACITY = 2000;

    private final Clock clock;
    private final Deque<Event> recent = new ArrayDeque<>();

    public LoggingEventRecorder(Clock clock) {
        this.clock = clock;
    }

    @Override
    public void event(ObjectReference involved, String type, String reason, String message) {
        Event e = new Event(clock.instant(), involved, type, reason, message);
        synchronized (recent) {
            if (recent.size() == CAPACITY) {
                recent.removeFirst();
            }
            recent.addLast(e);
        }
        String object = involved.getKind() + " " + involved.getNamespace() + "/" + involved.getName()
                + (involved.getFieldPath() == null ? "" : " " + involved.getFieldPath());
        if (WARNING.equals(type)) {
            log.warn("{} {}: {} {}", type, reason, object, message);
        } else {
            log.info("{} {}: {} {}", type, reason, object, message);
        }
    }

    public List<Event> events() {
        synchronized (recent) {
            return new ArrayList<>(recent);
        }
    }
}
