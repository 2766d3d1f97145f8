package io.jkubelet.cri;

import io.jkubelet.core.runtime.Container;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.RuntimeEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Container life-cycle events of a CRI runtime that has no {@code GetContainerEvents} (containerd 1.6, CRI v1 of
 * Kubernetes 1.20): the containers are listed every second, upstream's relist period, and each change of state
 * since the last list becomes an event. This is upstream's relist PLEG seen from below: the kubelet's PLEG still
 * reads only the pods these events name, and still relists on its own period.
 */
final class CriContainerEvents implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(CriContainerEvents.class);
    /** Upstream's generic PLEG relists every second. */
    static final Duration PERIOD = Duration.ofSeconds(1);

    private final Function<ContainerFilter, List<Container>> lister;
    private final Consumer<RuntimeEvent> listener;
    private final Thread thread;
    private volatile boolean closed;
    private Map<String, Container> last;

    CriContainerEvents(Function<ContainerFilter, List<Container>> lister, Consumer<RuntimeEvent> listener) {
        this(lister, listener, PERIOD);
    }

    /** Lists every {@code period}: a test gives one that never comes and calls {@link #relist} itself. */
    CriContainerEvents(Function<ContainerFilter, List<Container>> lister, Consumer<RuntimeEvent> listener,
                       Duration period) {
        this.lister = lister;
        this.listener = listener;
        this.last = snapshot();
        this.thread = Thread.ofPlatform().name("cri-events").daemon().start(() -> run(period));
    }

    private void run(Duration period) {
        while (!closed) {
            try {
                Thread.sleep(period);
                if (closed) {
                    return;
                }
                relist();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // The runtime may be restarting: the next list tries again, and the PLEG relists anyway.
                log.debug("Listing the runtime's containers for events failed: {}", e.getMessage());
            }
        }
    }

    /** One list of the containers, each change of state since the previous one sent as events. */
    void relist() {
        Map<String, Container> now = snapshot();
        compare(last, now);
        last = now;
    }

    private Map<String, Container> snapshot() {
        Map<String, Container> byId = new HashMap<>();
        for (Container c : lister.apply(ContainerFilter.ALL)) {
            byId.put(c.id(), c);
        }
        return byId;
    }

    private void compare(Map<String, Container> before, Map<String, Container> now) {
        for (Container c : now.values()) {
            Container old = before.get(c.id());
            ContainerState was = old == null ? null : old.state();
            if (was == c.state()) {
                continue;
            }
            if (was == null) {
                send(c, RuntimeEvent.Type.CREATED);
            }
            if (c.state() == ContainerState.CONTAINER_RUNNING
                    || (c.state() == ContainerState.CONTAINER_EXITED && was != ContainerState.CONTAINER_RUNNING)) {
                // A container that ran and exited between two lists still started.
                send(c, RuntimeEvent.Type.STARTED);
            }
            if (c.state() == ContainerState.CONTAINER_EXITED) {
                send(c, RuntimeEvent.Type.STOPPED);
            }
        }
        for (Container c : before.values()) {
            if (!now.containsKey(c.id())) {
                send(c, RuntimeEvent.Type.DELETED);
            }
        }
    }

    private void send(Container c, RuntimeEvent.Type type) {
        if (!closed) {
            listener.accept(new RuntimeEvent(c.id(), c.labels().getOrDefault(Labels.POD_UID, ""), type));
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
