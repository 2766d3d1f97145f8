package io.jkubelet.core.prober;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.podutil.PodSpecs;
import io.jkubelet.core.probe.ProbeResult;
import io.jkubelet.core.status.ContainerProbeView;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import java.util.function.Function;

/**
 * Probes the containers of the node's pods (upstream {@code pkg/kubelet/prober/prober_manager.go}): one
 * {@link ProbeWorker} per container and kind of probe it declares, for regular containers and restartable init
 * containers (sidecars), with the cached liveness, readiness and startup results the rest of the kubelet reads
 * through {@link ContainerProbeView} (status generation) and {@link ProbeVerdicts} (kill and restart decisions).
 *
 * <p>Scheduling: one scheduler thread ticks every worker; each probe then runs on its own virtual thread. At
 * 110 pods with two probes each every second that is about 220 short-lived virtual threads a second, which
 * costs far less than a parked platform thread per worker and needs no pool sizing. A probe that hangs (an
 * exec that never returns) holds only its own virtual thread; that worker skips its ticks until it returns,
 * and every other worker goes on.
 *
 * <p>Thread-safe. Updating the probes of a pod already added is not supported (as upstream): a changed
 * container spec comes with a new pod UID or is ignored until the pod is removed.
 */
public final class ProbeManager implements ContainerProbeView, ProbeVerdicts, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ProbeManager.class);

    /** Identifies the worker of one probe of one container. */
    record ProbeKey(String podUid, String containerName, ProbeType type) {}

    private final ContainerProber prober;
    private final Function<String, Optional<PodStatus>> podStatuses;
    private final ProberMetrics metrics;
    private final Clock clock;
    private final ProbeTicker ticker;
    private final Executor runner;
    private final DoubleSupplier jitter;
    private final Map<ProbeType, ProbeResults> results = new EnumMap<>(ProbeType.class);
    private final ConcurrentMap<ProbeKey, ProbeWorker> workers = new ConcurrentHashMap<>();
    private final Instant start;
    private final List<ExecutorService> owned;
    private volatile boolean closed;

    /**
     * @param prober runs one probe of a running container
     * @param podStatuses the status manager's latest API status of a pod, by pod UID
     * @param listener told of every changed result; must not block
     * @param metrics where probe counts and durations go
     * @param clock the time for {@code initialDelaySeconds} and probe durations
     * @param ticker when workers probe
     * @param runner where probes run; each may block up to its timeout, so give each its own (virtual) thread
     * @param jitter a number in [0, 1): which fraction of its period a worker waits before its first probe
     */
    public ProbeManager(ContainerProber prober, Function<String, Optional<PodStatus>> podStatuses,
                        ProbeResultListener listener, ProberMetrics metrics, Clock clock, ProbeTicker ticker,
                        Executor runner, DoubleSupplier jitter) {
        this(prober, podStatuses, listener, metrics, clock, ticker, runner, jitter, List.of());
    }

    private ProbeManager(ContainerProber prober, Function<String, Optional<PodStatus>> podStatuses,
                         ProbeResultListener listener, ProberMetrics metrics, Clock clock, ProbeTicker ticker,
                         Executor runner, DoubleSupplier jitter, List<ExecutorService> owned) {
        this.prober = Objects.requireNonNull(prober, "prober");
        this.podStatuses = Objects.requireNonNull(podStatuses, "podStatuses");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.runner = Objects.requireNonNull(runner, "runner");
        this.jitter = Objects.requireNonNull(jitter, "jitter");
        Objects.requireNonNull(listener, "listener");
        for (ProbeType type : ProbeType.values()) {
            results.put(type, new ProbeResults(type, listener));
        }
        this.owned = owned;
        this.start = clock.instant();
    }

    /**
     * The production manager: {@code scheduler} ticks the workers, {@code runs} runs each probe (a thread per run,
     * so that a hanging probe holds only its own worker), random first delays. {@link #close()} shuts both down.
     */
    public static ProbeManager create(ContainerProber prober, Function<String, Optional<PodStatus>> podStatuses,
                                      ProbeResultListener listener, ProberMetrics metrics, Clock clock,
                                      ScheduledExecutorService scheduler, ExecutorService runs) {
        return new ProbeManager(prober, podStatuses, listener, metrics, clock, ProbeTicker.on(scheduler), runs,
                () -> ThreadLocalRandom.current().nextDouble(), List.of(scheduler, runs));
    }

    /** The containers that get probe workers: regular containers and restartable init containers. */
    private static List<Container> probedContainers(Pod pod) {
        List<Container> all = new ArrayList<>(PodSpecs.containers(pod));
        for (Container c : PodSpecs.initContainers(pod)) {
            if (PodSpecs.isRestartableInitContainer(c)) {
                all.add(c);
            }
        }
        return all;
    }

    /**
     * Starts a worker for every probe of the pod's containers (upstream {@code AddPod}). Probes that already
     * have a worker are left alone, so calling it on every sync of the pod is cheap and idempotent.
     */
    public void addPod(Pod pod) {
        if (closed) {
            return;
        }
        String uid = pod.getMetadata().getUid();
        for (Container c : probedContainers(pod)) {
            // Upstream's order: startup, readiness, liveness.
            for (ProbeType type : List.of(ProbeType.STARTUP, ProbeType.READINESS, ProbeType.LIVENESS)) {
                if (ProbeWorker.probeOf(c, type) == null) {
                    continue;
                }
                ProbeKey key = new ProbeKey(uid, c.getName(), type);
                ProbeWorker[] created = new ProbeWorker[1];
                workers.computeIfAbsent(key, k -> created[0] = new ProbeWorker(k, pod, c, prober, podStatuses,
                        results.get(type), metrics, clock, runner, () -> workers.remove(k, created[0])));
                if (created[0] != null) {
                    created[0].start(ticker, firstDelay(created[0].period()));
                }
            }
        }
    }

    /**
     * After a kubelet (re)start, workers would all probe at once: each waits a random part of its period first.
     * Later, a new worker probes at once (upstream does the same).
     */
    private Duration firstDelay(Duration period) {
        if (Duration.between(start, clock.instant()).compareTo(period) >= 0) {
            return Duration.ZERO;
        }
        return Duration.ofNanos((long) (jitter.getAsDouble() * period.toNanos()));
    }

    /** Stops the liveness and startup workers of a terminating pod (upstream {@code StopLivenessAndStartup}). */
    public void stopLivenessAndStartup(Pod pod) {
        stopWorkers(pod, List.of(ProbeType.LIVENESS, ProbeType.STARTUP));
    }

    /** Stops every worker of the pod; their results and metric series go with them. Idempotent. */
    public void removePod(Pod pod) {
        stopWorkers(pod, List.of(ProbeType.values()));
    }

    private void stopWorkers(Pod pod, List<ProbeType> types) {
        String uid = pod.getMetadata().getUid();
        for (Container c : probedContainers(pod)) {
            for (ProbeType type : types) {
                ProbeWorker w = workers.get(new ProbeKey(uid, c.getName(), type));
                if (w != null) {
                    w.stop();
                }
            }
        }
    }

    /** Stops the workers of every pod whose UID is not in {@code desiredPodUids} (upstream {@code CleanupPods}). */
    public void cleanupPods(Set<String> desiredPodUids) {
        for (Map.Entry<ProbeKey, ProbeWorker> e : workers.entrySet()) {
            if (!desiredPodUids.contains(e.getKey().podUid())) {
                e.getValue().stop();
            }
        }
    }

    /**
     * Whether a running container is started: true without a startup probe; else its cached startup result
     * is success; with no result yet, true only if no startup worker exists (upstream {@code UpdatePodStatus}).
     */
    @Override
    public boolean started(String podUid, Container spec, String containerId) {
        if (spec.getStartupProbe() == null) {
            return true;
        }
        Optional<ProbeResult> r = results.get(ProbeType.STARTUP).get(containerId);
        if (r.isPresent()) {
            return r.get() == ProbeResult.SUCCESS;
        }
        return !workers.containsKey(new ProbeKey(podUid, spec.getName(), ProbeType.STARTUP));
    }

    /**
     * Whether a running, started container is ready: true without a readiness probe; else its cached readiness
     * result is success. When it is not, and a readiness worker exists, that worker probes now rather than at
     * its next period (upstream {@code UpdatePodStatus}), so a container turns ready as soon as it can.
     */
    @Override
    public boolean ready(String podUid, Container spec, String containerId) {
        if (spec.getReadinessProbe() == null) {
            return true;
        }
        Optional<ProbeResult> r = results.get(ProbeType.READINESS).get(containerId);
        if (r.isPresent() && r.get() == ProbeResult.SUCCESS) {
            return true;
        }
        ProbeWorker w = workers.get(new ProbeKey(podUid, spec.getName(), ProbeType.READINESS));
        if (w == null) {
            // No worker (yet, or any more): upstream counts such a container as ready.
            return true;
        }
        w.tick();
        return false;
    }

    @Override
    public boolean livenessFailed(String containerId) {
        return results.get(ProbeType.LIVENESS).get(containerId).orElse(null) == ProbeResult.FAILURE;
    }

    @Override
    public boolean startupFailed(String containerId) {
        return results.get(ProbeType.STARTUP).get(containerId).orElse(null) == ProbeResult.FAILURE;
    }

    /**
     * Whether a running container's startup probe has succeeded (upstream {@code startupManager.Get(id)} is
     * {@code Success}); asked for sidecars with a startup probe before the next init container starts.
     */
    @Override
    public boolean startupSucceeded(String containerId) {
        return results.get(ProbeType.STARTUP).get(containerId).orElse(null) == ProbeResult.SUCCESS;
    }

    /** The cached result of one probe of a container, if any. */
    public Optional<ProbeResult> result(ProbeType type, String containerId) {
        return results.get(type).get(containerId);
    }

    /** The number of live workers. */
    public int workerCount() {
        return workers.size();
    }

    // For tests: drive a worker by hand.
    Optional<ProbeWorker> worker(String podUid, String containerName, ProbeType type) {
        return Optional.ofNullable(workers.get(new ProbeKey(podUid, containerName, type)));
    }

    /** Stops every worker and the threads this manager owns. Idempotent; {@link #addPod} does nothing after. */
    @Override
    public void close() {
        closed = true;
        for (ProbeWorker w : workers.values()) {
            w.stop();
        }
        for (ExecutorService e : owned) {
            e.shutdownNow();
        }
        log.debug("Probe manager closed");
    }
}
