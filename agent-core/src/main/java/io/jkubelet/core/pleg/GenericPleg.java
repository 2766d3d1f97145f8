package io.jkubelet.core.pleg;

import io.jkubelet.core.apis.config.GoDuration;
import io.jkubelet.core.container.PodCache;
import io.jkubelet.core.runtime.Container;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.PodSandbox;
import io.jkubelet.core.runtime.PodSandboxFilter;
import io.jkubelet.core.runtime.PodSandboxState;
import io.jkubelet.core.runtime.RuntimeService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The pod lifecycle event generator (upstream {@code GenericPLEG}): relists the node's sandboxes and
 * containers, compares each one's state with the previous relist and emits one event per change.
 * It relists when the runtime reports an event (so a container's death is seen at once, with no polling per
 * pod) and every {@code relistPeriod} as the safety net for events lost or not delivered.
 * Relists run on one thread; {@link #runningPods()} and {@link #healthy()} may be read from any thread.
 */
public final class GenericPleg implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(GenericPleg.class);
    /** A relist older than this makes the PLEG, and so the node, unhealthy (upstream 3 min). */
    public static final Duration RELIST_THRESHOLD = Duration.ofMinutes(3);

    private final RuntimeService runtime;
    private final String nodeName;
    private final Consumer<PodLifecycleEvent> sink;
    private final Clock clock;
    private final Duration relistPeriod;
    private volatile RelistObserver relistObserver = RelistObserver.NOOP;
    private Instant lastRelistStart;
    private final ScheduledExecutorService executor;
    private final AtomicBoolean relistQueued = new AtomicBoolean();
    private final AtomicBoolean followUpQueued = new AtomicBoolean();
    /** When the relist after runtime events comes (upstream's relist period). */
    static final Duration FOLLOW_UP_DELAY = Duration.ofSeconds(1);
    /**
     * How long after the previous relist began one asked for (by a runtime event or a waiting worker) may begin. A
     * burst of pod starts sends events back to back: relisting at once for each listed the node's sandboxes and
     * containers without pause (51 relists while 10 pods started in 3 s, on a machine whose cores the engine needed),
     * where upstream relists once a second.
     */
    static final Duration MIN_RELIST_SPACING = Duration.ofMillis(200);
    /** {@link System#nanoTime()} when the last relist began, for {@link #MIN_RELIST_SPACING}. */
    private volatile long lastRelistNanos = System.nanoTime() - MIN_RELIST_SPACING.toNanos();
    private Map<String, Record> previous = new HashMap<>();
    private volatile List<RunningPod> runningPods = List.of();
    private volatile Instant lastRelist;
    private AutoCloseable subscription;

    private final PodCache cache;

    private record Record(String podUid, boolean running, boolean exited) {}

    /**
     * @param cache where each relist marks the pods whose sandboxes or containers changed, before it sends their
     *              events
     * @param executor the one thread relists run on (so they never overlap); shut down by {@link #close()}
     */
    public GenericPleg(RuntimeService runtime, String nodeName, Consumer<PodLifecycleEvent> sink, Clock clock,
                       Duration relistPeriod, PodCache cache, ScheduledExecutorService executor) {
        this.cache = Objects.requireNonNull(cache, "cache");
        this.runtime = runtime;
        this.nodeName = nodeName;
        this.sink = sink;
        this.clock = clock;
        this.relistPeriod = relistPeriod;
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    public void start() {
        try {
            subscription = runtime.watchEvents(e -> {
                if (e.podUid() != null) {
                    requestRelist();
                    requestFollowUpRelist();
                }
            });
        } catch (RuntimeException e) {
            log.warn("Runtime events unavailable, relying on the periodic relist: {}", e.getMessage());
        }
        executor.scheduleWithFixedDelay(this::relistSafely, 0, relistPeriod.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Asks for a relist soon: at once, or {@link #MIN_RELIST_SPACING} after the previous one began. Requests that
     * arrive while one is queued are coalesced.
     */
    public void requestRelist() {
        long sinceLast = System.nanoTime() - lastRelistNanos;
        queueRelist(relistQueued, Duration.ofNanos(Math.max(0, MIN_RELIST_SPACING.toNanos() - sinceLast)));
    }

    /**
     * One more relist a second after runtime events (coalesced): Docker sends a container's {@code die} before its
     * list shows the container exited, so the relist an event triggers can miss the death it announces; without this
     * a crashed container waited for the periodic relist (up to 10 s) to be seen and restarted. Upstream relists every
     * second and never meets the race.
     */
    private void requestFollowUpRelist() {
        queueRelist(followUpQueued, FOLLOW_UP_DELAY);
    }

    /** A relist after {@code delay}, unless one of this kind ({@code queued}) is already waiting. */
    private void queueRelist(AtomicBoolean queued, Duration delay) {
        if (queued.compareAndSet(false, true)) {
            executor.schedule(() -> {
                queued.set(false);
                relistSafely();
            }, delay.toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    private void relistSafely() {
        try {
            relist();
        } catch (RuntimeException e) {
            log.error("PLEG relist failed: {}", e.getMessage());
        }
    }

    /** One relist; package-visible so that tests drive it directly. */
    void relist() {
        lastRelistNanos = System.nanoTime();
        Instant started = clock.instant();
        Duration sincePrevious = lastRelistStart == null ? null : Duration.between(lastRelistStart, started);
        lastRelistStart = started;
        long observation = cache.beginRelist();
        Map<String, String> scope = Map.of(Labels.NODE_NAME, nodeName);
        List<PodSandbox> sandboxes = runtime.listPodSandbox(new PodSandboxFilter(null, null, scope));
        List<Container> containers = runtime.listContainers(new ContainerFilter(null, null, null, scope));
        lastRelist = clock.instant();

        Map<String, Record> current = new HashMap<>();
        Map<String, RunningPod.Builder> pods = new LinkedHashMap<>();
        for (PodSandbox sb : sandboxes) {
            boolean ready = sb.state() == PodSandboxState.SANDBOX_READY;
            current.put(sb.id(), new Record(sb.metadata().uid(), ready, !ready));
            pods.computeIfAbsent(sb.metadata().uid(),
                    k -> new RunningPod.Builder(k, sb.metadata().name(), sb.metadata().namespace()))
                    .add(new RunningPod.Member(sb.id(), "POD", "", true, ready));
        }
        for (Container c : containers) {
            String uid = c.labels().get(Labels.POD_UID);
            if (uid == null) {
                continue;
            }
            boolean running = c.state() == ContainerState.CONTAINER_RUNNING;
            current.put(c.id(), new Record(uid, running, c.state() == ContainerState.CONTAINER_EXITED));
            pods.computeIfAbsent(uid, k -> new RunningPod.Builder(k, c.labels().getOrDefault(Labels.POD_NAME, ""),
                            c.labels().getOrDefault(Labels.POD_NAMESPACE, "")))
                    .add(new RunningPod.Member(c.id(), c.metadata().name(), c.image(), false, running));
        }
        List<RunningPod> running = new ArrayList<>();
        pods.values().forEach(b -> running.add(b.build()));
        runningPods = List.copyOf(running);
        Map<String, Integer> byState = new HashMap<>();
        for (Container c : containers) {
            byState.merge(stateName(c.state()), 1, Integer::sum);
        }
        int ready = (int) sandboxes.stream().filter(sb -> sb.state() == PodSandboxState.SANDBOX_READY).count();
        relistObserver.relisted(Duration.between(started, clock.instant()), sincePrevious, ready, byState);

        List<PodLifecycleEvent> events = new ArrayList<>();
        // The pods with a sandbox or container that appeared, changed state or went since the previous relist.
        Set<String> changed = new HashSet<>();
        current.forEach((id, now) -> {
            Record before = previous.get(id);
            if (!now.equals(before)) {
                changed.add(now.podUid());
            }
            boolean wasRunning = before != null && before.running;
            boolean wasExited = before != null && before.exited;
            if (now.running && !wasRunning) {
                events.add(new PodLifecycleEvent(now.podUid, PodLifecycleEvent.Type.CONTAINER_STARTED, id));
            } else if (now.exited && !wasExited) {
                events.add(new PodLifecycleEvent(now.podUid, PodLifecycleEvent.Type.CONTAINER_DIED, id));
            }
            // A container merely created, or otherwise changed, makes no event: upstream filters out
            // ContainerChanged as unreliable, and the start or death that follows is what matters.
        });
        previous.forEach((id, before) -> {
            if (!current.containsKey(id)) {
                changed.add(before.podUid());
                events.add(new PodLifecycleEvent(before.podUid, PodLifecycleEvent.Type.CONTAINER_REMOVED, id));
            }
        });
        // Before the events go out: a worker woken by one must find its pod marked changed.
        for (String uid : changed) {
            if (pods.containsKey(uid)) {
                cache.markChanged(uid, observation);
            } else {
                cache.delete(uid); // nothing of it left on the runtime
            }
        }
        cache.completeRelist(observation);
        previous = current;
        for (PodLifecycleEvent e : events) {
            // Upstream's V(4) line for each change the relist saw.
            log.debug("GenericPLEG: {}/{}: {}", e.podUid(), e.containerId(), e.type());
            sink.accept(e);
        }
    }

    /** Upstream's {@code kubecontainer.State} names, the {@code container_state} label values. */
    static String stateName(ContainerState state) {
        return switch (state) {
            case CONTAINER_CREATED -> "created";
            case CONTAINER_RUNNING -> "running";
            case CONTAINER_EXITED -> "exited";
            default -> "unknown";
        };
    }

    /** Tells {@code observer} about every relist from now on (the kubelet's metrics). */
    public void observeRelists(RelistObserver observer) {
        this.relistObserver = observer;
    }

    public List<RunningPod> runningPods() {
        return runningPods;
    }

    public Optional<RunningPod> runningPod(String uid) {
        return runningPods.stream().filter(p -> p.uid().equals(uid)).findFirst();
    }

    /** Healthy while the last relist is recent; the error reads as upstream's. */
    public Optional<String> healthy() {
        Instant last = lastRelist;
        if (last == null) {
            return Optional.of("pleg has yet to be successful");
        }
        Duration since = Duration.between(last, clock.instant());
        if (since.compareTo(RELIST_THRESHOLD) > 0) {
            return Optional.of("pleg was last seen active " + GoDuration.format(since)
                    + " ago; threshold is " + GoDuration.format(RELIST_THRESHOLD));
        }
        return Optional.empty();
    }

    @Override
    public void close() {
        if (subscription != null) {
            try {
                subscription.close();
            } catch (Exception e) {
                log.debug("closing runtime events: {}", e.getMessage());
            }
        }
        executor.shutdownNow();
    }
}
