package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.eviction.EvictionManager;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What the eviction manager asks of the kubelet's pods (upstream's {@code GetActivePods}, {@code killPodNow} and
 * {@code PodIsFinished}): the active pods, a kill through the pod's worker that is waited for, and whether a killed
 * pod's worker is done with it. Thread-safe.
 */
final class EvictablePods implements EvictionManager.Pods {
    /** The least a kill is waited for (upstream {@code killPodNow}'s {@code minTimeout}). */
    static final long MIN_KILL_TIMEOUT_SECONDS = 10;
    static final String EXCEEDED_GRACE_PERIOD = "ExceededGracePeriod";

    private final Supplier<List<Pod>> activePods;
    private final PodWorkers podWorkers;
    private final PodSyncStatuses workerStates;
    private final EventRecorder recorder;

    EvictablePods(Supplier<List<Pod>> activePods, PodWorkers podWorkers, PodSyncStatuses workerStates,
                  EventRecorder recorder) {
        this.activePods = activePods;
        this.podWorkers = podWorkers;
        this.workerStates = workerStates;
        this.recorder = recorder;
    }

    @Override
    public List<Pod> active() {
        return activePods.get();
    }

    /**
     * Upstream {@code killPodNow}: the pod's worker kills it; waits one and a half times the grace period, at least
     * 10 s (for the runtime's SIGKILL to complete), else an {@code ExceededGracePeriod} event.
     */
    @Override
    public void kill(Pod pod, Long gracePeriodOverride, Consumer<PodStatus> statusFn) throws Exception {
        Long own = pod.getSpec() == null ? null : pod.getSpec().getTerminationGracePeriodSeconds();
        long grace = gracePeriodOverride != null ? gracePeriodOverride : own != null ? own : 0;
        long timeout = Math.max(grace + grace / 2, MIN_KILL_TIMEOUT_SECONDS);
        try {
            podWorkers.killPod(pod, gracePeriodOverride, statusFn).get(timeout, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            recorder.event(References.pod(pod), EventRecorder.WARNING, EXCEEDED_GRACE_PERIOD,
                    "Container runtime did not kill the pod within specified grace period.");
            throw new TimeoutException("timeout waiting to kill pod");
        }
    }

    @Override
    public boolean cleanedUp(Pod pod) {
        return workerStates.isTerminated(pod.getMetadata().getUid());
    }
}
