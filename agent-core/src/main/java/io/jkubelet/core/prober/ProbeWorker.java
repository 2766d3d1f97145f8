package io.jkubelet.core.prober;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Probe;
import io.jkubelet.core.podutil.PodSpecs;
import io.jkubelet.core.probe.ProbeResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;

/**
 * Probes one container with one of its probes, periodically (upstream {@code pkg/kubelet/prober/worker.go}).
 * It follows the container through restarts by reading the pod's latest API status from the status manager,
 * keeps its consecutive-result counters and records results and metrics.
 *
 * <p>Threading: {@link #doProbe()} is never run twice at once for one worker (a tick that finds the previous
 * probe still running is dropped, as a Go ticker drops ticks its reader is too slow for), so the probe state
 * is touched by one thread at a time. {@link #stop()} may be called from any thread, any number of times.
 */
final class ProbeWorker {
    private static final Logger log = LoggerFactory.getLogger(ProbeWorker.class);

    private final ProbeManager.ProbeKey key;
    private final ProbeType type;
    private final Pod pod;
    private final Container container;
    private final Probe spec;
    private final ProbeResult initialValue;
    private final ContainerProber prober;
    private final Function<String, Optional<PodStatus>> podStatuses;
    private final ProbeResults results;
    private final ProberMetrics.Series metrics;
    private final Clock clock;
    private final Executor runner;
    private final Runnable onExit;

    // Probe state: only doProbe touches it (see the class comment).
    private String containerId;
    private ProbeResult lastResult;
    private int resultRun;
    private boolean onHold;

    // Lifecycle, guarded by this.
    private ProbeTicker.Ticking ticking;
    private boolean probing;
    private boolean stopRequested;
    private boolean exited;

    ProbeWorker(ProbeManager.ProbeKey key, Pod pod, Container container, ContainerProber prober,
                Function<String, Optional<PodStatus>> podStatuses, ProbeResults results, ProberMetrics metrics,
                Clock clock, Executor runner, Runnable onExit) {
        this.key = key;
        this.type = key.type();
        this.pod = pod;
        this.container = container;
        this.spec = probeOf(container, type);
        this.initialValue = switch (type) {
            // Not ready until a readiness probe passes; alive until a liveness probe fails; startup undecided.
            case READINESS -> ProbeResult.FAILURE;
            case LIVENESS -> ProbeResult.SUCCESS;
            case STARTUP -> ProbeResult.UNKNOWN;
        };
        this.prober = prober;
        this.podStatuses = podStatuses;
        this.results = results;
        this.metrics = metrics.series(type, pod, container.getName());
        this.clock = clock;
        this.runner = runner;
        this.onExit = onExit;
    }

    static Probe probeOf(Container c, ProbeType type) {
        return switch (type) {
            case LIVENESS -> c.getLivenessProbe();
            case READINESS -> c.getReadinessProbe();
            case STARTUP -> c.getStartupProbe();
        };
    }

    /** {@code periodSeconds}, defaulted as {@code SetDefaults_Probe} does for a pod that skipped defaulting. */
    Duration period() {
        return Duration.ofSeconds(positiveOr(spec.getPeriodSeconds(), 10));
    }

    ProbeType type() {
        return type;
    }

    /** Starts ticking; called once by the manager. */
    synchronized void start(ProbeTicker ticker, Duration firstDelay) {
        if (!stopRequested) {
            ticking = ticker.schedule(this::tick, firstDelay, period());
        }
    }

    /** A period passed: probe on the runner unless a probe of this worker is still running. */
    void tick() {
        synchronized (this) {
            if (stopRequested || probing) {
                return;
            }
            probing = true;
        }
        try {
            runner.execute(this::runOnce);
        } catch (RejectedExecutionException e) {
            // The runner was shut down: the manager is closing.
            synchronized (this) {
                probing = false;
            }
        }
    }

    private void runOnce() {
        boolean keepGoing;
        try {
            keepGoing = doProbe();
        } catch (RuntimeException e) {
            // Upstream eats a panicking probe and keeps the worker going.
            log.error("{} probe of container {} in pod {} crashed", type.displayName(), container.getName(),
                    PodSpecs.format(pod), e);
            keepGoing = true;
        }
        synchronized (this) {
            probing = false;
            if (!keepGoing) {
                stopRequested = true;
            }
            if (stopRequested) {
                exit();
            }
        }
    }

    /**
     * Stops the worker: no probe starts any more; the worker forgets its result, deletes its metric series and
     * leaves the manager now, or when its running probe returns. Idempotent.
     */
    synchronized void stop() {
        stopRequested = true;
        if (!probing) {
            exit();
        }
    }

    /** Whether the worker has exited (stopped or finished). */
    synchronized boolean exited() {
        return exited;
    }

    private void exit() {
        if (exited) {
            return;
        }
        exited = true;
        if (ticking != null) {
            ticking.cancel();
        }
        if (containerId != null) {
            results.remove(containerId);
        }
        metrics.delete();
        onExit.run();
    }

    /**
     * Probes the container once and records the result (upstream {@code worker.doProbe}).
     *
     * @return whether the worker should go on probing
     */
    boolean doProbe() {
        Instant startTime = clock.instant();
        String podUid = pod.getMetadata().getUid();
        Optional<PodStatus> maybeStatus = podStatuses.apply(podUid);
        if (maybeStatus.isEmpty()) {
            // Either the pod has not been created yet, or it was already deleted.
            log.trace("No status for pod {}", PodSpecs.format(pod));
            return true;
        }
        PodStatus status = maybeStatus.get();
        if ("Failed".equals(status.getPhase()) || "Succeeded".equals(status.getPhase())) {
            log.debug("Pod {} is terminated ({}), exiting {} probe worker of container {}",
                    PodSpecs.format(pod), status.getPhase(), type.displayName(), container.getName());
            return false;
        }

        ContainerStatus c = containerStatus(status.getContainerStatuses(), container.getName());
        if (c == null) {
            c = containerStatus(status.getInitContainerStatuses(), container.getName());
        }
        if (c == null) {
            // Either the container has not been created yet, or it was deleted.
            log.trace("Probe target container {} of pod {} not found", container.getName(), PodSpecs.format(pod));
            return true;
        }

        // The API status says docker://<id>; results are keyed by the runtime's own id, as the kubelet asks.
        String runtimeId = io.jkubelet.core.container.ContainerStatus.runtimeId(c.getContainerID());
        if (!runtimeId.equals(containerId)) {
            if (containerId != null) {
                results.remove(containerId);
            }
            containerId = runtimeId;
            results.set(containerId, initialValue, podUid, container.getName());
            // A new container: resume probing. The consecutive-result counters carry over, as upstream's do.
            onHold = false;
        }
        if (onHold) {
            // After a liveness or startup verdict, wait for the next container.
            return true;
        }

        if (c.getState() == null || c.getState().getRunning() == null) {
            log.trace("Non-running container {} of pod {} probed", container.getName(), PodSpecs.format(pod));
            results.set(containerId, ProbeResult.FAILURE, podUid, container.getName());
            // Stop for good when the container will not be restarted.
            boolean terminated = c.getState() != null && c.getState().getTerminated() != null;
            return !terminated || !"Never".equals(PodSpecs.restartPolicy(pod))
                    || PodSpecs.isRestartableInitContainer(container);
        }

        if (pod.getMetadata().getDeletionTimestamp() != null
                && (type == ProbeType.LIVENESS || type == ProbeType.STARTUP)) {
            // Graceful shutdown of the pod: a last success, so the container is not restarted while it stops.
            if (type == ProbeType.STARTUP) {
                log.info("Pod {} deletion requested before container {} has fully started",
                        PodSpecs.format(pod), container.getName());
            }
            results.set(containerId, ProbeResult.SUCCESS, podUid, container.getName());
            return false;
        }

        // Probing is disabled for initialDelaySeconds after the container started (whole seconds, truncated).
        Instant startedAt = parseTime(c.getState().getRunning().getStartedAt());
        if (startedAt != null
                && Duration.between(startedAt, clock.instant()).toMillis() / 1000 < nonNegative(spec.getInitialDelaySeconds())) {
            return true;
        }

        if (Boolean.TRUE.equals(c.getStarted())) {
            // A started container needs no startup probe; the worker stays for the container's next instance.
            if (type == ProbeType.STARTUP) {
                return true;
            }
        } else if (type != ProbeType.STARTUP) {
            // Liveness and readiness wait until the startup probe has passed.
            return true;
        }

        ProbeResult raw = prober.probe(type, pod, status.getPodIP(), container, containerId);
        if (raw == null || raw == ProbeResult.UNKNOWN) {
            // The probe errored (upstream: prober.probe returned an error): the run is thrown away.
            return true;
        }
        // A warning is a success with a remark (its ProbeWarning event is the prober's job).
        ProbeResult result = raw.passed() ? ProbeResult.SUCCESS : ProbeResult.FAILURE;
        if (result == ProbeResult.SUCCESS) {
            metrics.countResult(ProberMetrics.RESULT_SUCCESSFUL);
            metrics.observeDuration(Duration.between(startTime, clock.instant()).toNanos() / 1e9);
        } else {
            // Upstream observes no duration for a failed probe.
            metrics.countResult(ProberMetrics.RESULT_FAILED);
        }

        if (result == lastResult) {
            resultRun++;
        } else {
            lastResult = result;
            resultRun = 1;
        }
        if ((result == ProbeResult.FAILURE && resultRun < positiveOr(spec.getFailureThreshold(), 3))
                || (result == ProbeResult.SUCCESS && resultRun < positiveOr(spec.getSuccessThreshold(), 1))) {
            // Below the threshold: the cached result stays as it is.
            return true;
        }

        results.set(containerId, result, podUid, container.getName());

        if ((type == ProbeType.LIVENESS && result == ProbeResult.FAILURE) || type == ProbeType.STARTUP) {
            // A failed liveness or startup probe gets the container restarted: probing it while it is being
            // stopped only risks corrupting it (kubernetes#21751). A startup verdict, either way, is final for
            // this container (kubernetes#117153). Wait for the next container.
            onHold = true;
            resultRun = 0;
        }
        return true;
    }

    private static ContainerStatus containerStatus(List<ContainerStatus> statuses, String name) {
        if (statuses == null) {
            return null;
        }
        for (ContainerStatus s : statuses) {
            if (name.equals(s.getName()) && s.getContainerID() != null && !s.getContainerID().isEmpty()) {
                return s;
            }
        }
        return null;
    }

    private Instant parseTime(String rfc3339) {
        if (rfc3339 == null || rfc3339.isEmpty()) {
            return null;
        }
        try {
            return OffsetDateTime.parse(rfc3339).toInstant();
        } catch (DateTimeParseException e) {
            log.warn("Container {} of pod {}: cannot read state.running.startedAt {}; initialDelaySeconds ignored",
                    container.getName(), PodSpecs.format(pod), rfc3339);
            return null;
        }
    }

    private static int positiveOr(Integer value, int dflt) {
        return value == null || value <= 0 ? dflt : value;
    }

    private static int nonNegative(Integer value) {
        return value == null || value < 0 ? 0 : value;
    }

    // For tests.
    String containerId() {
        return containerId;
    }

    boolean onHold() {
        return onHold;
    }
}
