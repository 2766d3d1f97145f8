package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.LifecycleHandler;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Probe;
import io.jkubelet.core.container.ContainerStatus;
import io.jkubelet.core.container.RuntimePodStatus;
import io.jkubelet.core.container.SandboxStatus;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.lifecycle.HandlerRunner;
import io.jkubelet.core.lifecycle.HookException;
import io.jkubelet.core.podutil.PodSpecs;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.NotFoundException;
import io.jkubelet.core.runtime.RuntimeService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Stops containers and pods with their grace periods (upstream {@code killContainer} and {@code KillPod}): the
 * Killing event, the preStop hook cut off at the grace period, the sidecars' turn, then StopContainer. Thread-safe.
 */
final class ContainerKiller {
    private static final Logger log = LoggerFactory.getLogger(ContainerKiller.class);

    /** Grace periods are raised to this, as upstream's {@code minimumGracePeriodInSeconds}. */
    static final long MINIMUM_GRACE_PERIOD_SECONDS = 2;

    private final RuntimeService runtime;
    private final EventRecorder recorder;
    private final HandlerRunner hooks;
    private final Clock clock;
    private final TimedWait waits;

    ContainerKiller(RuntimeService runtime, EventRecorder recorder, HandlerRunner hooks, Clock clock, TimedWait waits) {
        this.runtime = runtime;
        this.recorder = recorder;
        this.hooks = hooks;
        this.clock = clock;
        this.waits = waits;
    }

    /**
     * Stops one container with its grace period (upstream {@code killContainer}).
     *
     * @param message the Killing event's message, or empty for "Stopping container X"
     * @param reason why: {@link ComputePodActions#REASON_LIVENESS_PROBE} or {@code REASON_STARTUP_PROBE} use the
     *     probe's own {@code terminationGracePeriodSeconds} when set
     * @param gracePeriodOverride seconds that replace the pod's grace period, or null
     */
    void killContainer(Pod pod, String containerId, String name, String message, String reason,
                              Long gracePeriodOverride) {
        killContainer(pod, containerId, name, message, reason, gracePeriodOverride, null);
    }

    /**
     * Upstream 1.30 {@code killContainer} (pkg/kubelet/kuberuntime/kuberuntime_container.go): Killing event;
     * grace from {@link #terminationGracePeriod}, replaced by the override; the preStop hook, cut off at the
     * grace period, whose time is taken off the grace; then, for a pod with sidecars, the wait for this
     * container's turn (also taken off the grace); the grace raised to {@value #MINIMUM_GRACE_PERIOD_SECONDS}
     * s; StopContainer. The preStop hook runs before the turn wait, so sidecars run theirs at once, while
     * their stop signal waits for the regular containers.
     */
    private void killContainer(Pod pod, String containerId, String name, String message, String reason,
                               Long gracePeriodOverride, TerminationOrdering ordering) {
        Optional<Container> spec = PodSpecs.findContainer(pod, name);
        long grace = terminationGracePeriod(pod, spec.orElse(null), reason);
        var ref = spec.map(c -> References.container(pod, c)).orElseGet(() -> References.pod(pod));
        if (gracePeriodOverride != null) {
            grace = gracePeriodOverride;
        }
        recorder.event(ref, EventRecorder.NORMAL, "Killing",
                message == null || message.isEmpty() ? "Stopping container " + name : message, "grace period " + grace + " s");
        try {
            var preStop = spec.map(Container::getLifecycle).map(l -> l.getPreStop()).orElse(null);
            if (preStop != null && grace > 0 && isRunning(containerId)) {
                grace -= executePreStopHook(pod, containerId, spec.get(), preStop, grace);
            }
            if (ordering != null && grace > 0) {
                // Whole seconds, truncated, as upstream.
                grace -= (long) ordering.waitForTurn(name, grace);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            log.warn("Interrupted while stopping container {} of pod {}; stopping it now", name, PodSpecs.format(pod));
        }
        // Always a short window, so that a container is not SIGKILLed needlessly.
        grace = Math.max(grace, MINIMUM_GRACE_PERIOD_SECONDS);
        log.debug("Killing container {} of pod {} with a grace period of {}s", name, PodSpecs.format(pod), grace);
        try {
            runtime.stopContainer(containerId, Duration.ofSeconds(grace));
        } catch (NotFoundException e) {
            // already gone
        }
        if (ordering != null) {
            ordering.containerTerminated(name);
        }
    }

    private boolean isRunning(String containerId) {
        try {
            return runtime.containerStatus(containerId).state() == ContainerState.CONTAINER_RUNNING;
        } catch (NotFoundException e) {
            return false;
        }
    }

    /**
     * Runs the preStop hook on its own thread and waits for it at most the grace period (upstream
     * {@code executePreStopHook}). A hook still running then is interrupted and left behind; only a hook
     * that failed in time gives a {@code FailedPreStopHook} event.
     *
     * @return the whole seconds spent, truncated
     */
    private long executePreStopHook(Pod pod, String containerId, Container c,
                                    LifecycleHandler preStop, long grace)
            throws InterruptedException {
        long start = clock.millis();
        CountDownLatch done = new CountDownLatch(1);
        HookException[] failure = new HookException[1];
        Thread hook = Thread.ofVirtual().name("prestop-" + c.getName()).start(() -> {
            try {
                hooks.run(containerId, pod, c, preStop, Duration.ofSeconds(grace));
            } catch (HookException e) {
                failure[0] = e;
            } catch (InterruptedException e) {
                // cut off at the end of the grace period
            } catch (RuntimeException e) {
                failure[0] = new HookException(e.getMessage(), e);
            } finally {
                done.countDown();
            }
        });
        if (waits.await(done, Duration.ofSeconds(grace))) {
            if (failure[0] != null) {
                log.error("PreStop hook of container {} in pod {} failed: {}", c.getName(), PodSpecs.format(pod),
                        failure[0].getMessage());
                // Upstream (since 1.26) keeps the hook's output out of the event so that no secret leaks.
                recorder.event(References.container(pod, c), EventRecorder.WARNING, "FailedPreStopHook",
                        "PreStopHook failed");
            }
        } else {
            log.info("PreStop hook of container {} in pod {} did not complete in {}s", c.getName(),
                    PodSpecs.format(pod), grace);
            hook.interrupt();
        }
        return (clock.millis() - start) / 1000;
    }

    /**
     * The grace period of a kill before any override (upstream {@code setTerminationGracePeriod}): the pod's
     * {@code deletionGracePeriodSeconds} when it is being deleted; else, for a liveness or startup failure, that
     * probe's {@code terminationGracePeriodSeconds} when set; else the pod's
     * {@code terminationGracePeriodSeconds} (30 when unset, the API default).
     */
    static long terminationGracePeriod(Pod pod, Container spec, String reason) {
        if (pod.getMetadata().getDeletionGracePeriodSeconds() != null) {
            return pod.getMetadata().getDeletionGracePeriodSeconds();
        }
        if (spec != null) {
            Probe probe = ComputePodActions.REASON_LIVENESS_PROBE.equals(reason) ? spec.getLivenessProbe()
                    : ComputePodActions.REASON_STARTUP_PROBE.equals(reason) ? spec.getStartupProbe() : null;
            if (probe != null && probe.getTerminationGracePeriodSeconds() != null) {
                return probe.getTerminationGracePeriodSeconds();
            }
        }
        Long podGrace = pod.getSpec().getTerminationGracePeriodSeconds();
        return podGrace != null ? podGrace : 30;
    }

    /**
     * Stops every running container in parallel, then every sandbox (upstream {@code KillPod} with
     * {@code killContainersWithSyncResult}). With sidecars, a {@link TerminationOrdering} makes them stop
     * after the regular containers, in reverse order.
     */
    void killPod(Pod pod, RuntimePodStatus podStatus, Long gracePeriodOverride) {
        List<ContainerStatus> running = podStatus.runningContainers();
        if (!running.isEmpty()) {
            TerminationOrdering ordering = PodSpecs.hasRestartableInitContainer(pod)
                    ? new TerminationOrdering(pod, running.stream().map(ContainerStatus::name).toList(), clock, waits)
                    : null;
            try (ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor()) {
                List<Future<?>> fs = new ArrayList<>();
                for (ContainerStatus cs : running) {
                    fs.add(ex.submit(() -> killContainer(pod, cs.id(), cs.name(), "", "", gracePeriodOverride, ordering)));
                }
                for (Future<?> f : fs) {
                    try {
                        f.get();
                    } catch (ExecutionException e) {
                        log.warn("Failed to kill a container of pod {}: {}", PodSpecs.format(pod), e.getCause().getMessage());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
        }
        for (SandboxStatus sb : podStatus.sandboxes()) {
            try {
                runtime.stopPodSandbox(sb.id());
            } catch (NotFoundException e) {
                // already gone
            }
        }
    }
}
