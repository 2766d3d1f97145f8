package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.container.RuntimePodStatus;
import io.jkubelet.core.config.ConfigAnnotations;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.podutil.PodSpecs;
import io.jkubelet.core.kuberuntime.KubeRuntime;
import io.jkubelet.core.kuberuntime.RuntimeManager;
import io.jkubelet.core.kuberuntime.SyncResult;
import io.jkubelet.core.lifecycle.ActiveDeadline;
import io.jkubelet.core.metrics.KubeletMetrics;
import io.jkubelet.core.prober.ProbeManager;
import io.jkubelet.core.status.PodPhases;
import io.jkubelet.core.status.PodStatusGenerator;
import io.jkubelet.core.status.ReasonCache;
import io.jkubelet.core.status.StatusManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What each pod worker runs (upstream {@code SyncPod}, {@code SyncTerminatingPod}, {@code SyncTerminatedPod}):
 * the pod's status from the runtime, its mirror pod, then the runtime brought to the spec; or its containers
 * stopped. Remembers why containers could not start, for the status, and when to try again.
 */
final class KubeletPodSyncer implements PodSyncer {
    private static final Logger log = LoggerFactory.getLogger(KubeletPodSyncer.class);

    /** Retry after a failed pod sync (upstream {@code backOffPeriod}); the pod workers add the jitter. */
    static final Duration BACK_OFF_PERIOD = Duration.ofSeconds(10);

    private final KubeRuntime runtime;
    private final PodManager podManager;
    private final StatusManager statusManager;
    private final PodStatusGenerator statusGenerator;
    private final ReasonCache reasonCache;
    private final ProbeManager probeManager;
    private final ActiveDeadline activeDeadline;
    private final MirrorPodSync mirrorPods;
    private final Consumer<String> statusSyncRequest;
    private final EventRecorder recorder;
    private final KubeletMetrics metrics;
    private final Supplier<List<String>> hostIps;
    /** The node managers' parts in each stage, in order (the pod cgroup first). */
    private final List<PodSyncHook> hooks;
    private final Clock clock;

    KubeletPodSyncer(KubeRuntime runtime, PodManager podManager, StatusManager statusManager,
                     PodStatusGenerator statusGenerator, ReasonCache reasonCache, ProbeManager probeManager,
                     MirrorPodSync mirrorPods, Consumer<String> statusSyncRequest, EventRecorder recorder,
                     KubeletMetrics metrics, Supplier<List<String>> hostIps, List<PodSyncHook> hooks, Clock clock) {
        this.runtime = runtime;
        this.podManager = podManager;
        this.statusManager = statusManager;
        this.statusGenerator = statusGenerator;
        this.reasonCache = reasonCache;
        this.probeManager = probeManager;
        this.activeDeadline = new ActiveDeadline(clock);
        this.mirrorPods = mirrorPods;
        this.statusSyncRequest = statusSyncRequest;
        this.recorder = recorder;
        this.metrics = metrics;
        this.hostIps = hostIps;
        this.hooks = List.copyOf(hooks);
        this.clock = clock;
    }

    @Override
    public SyncOutcome syncPod(SyncPodType type, Pod pod, RuntimePodStatus podStatus) {
        long start = System.nanoTime();
        try {
            return doSyncPod(pod, podStatus);
        } finally {
            metrics.observePodWorker(type.name().toLowerCase(Locale.ROOT), Duration.ofNanos(System.nanoTime() - start));
        }
    }

    private SyncOutcome doSyncPod(Pod pod, RuntimePodStatus podStatus) {
        String uid = pod.getMetadata().getUid();
        PodStatus apiStatus = generateStatus(pod, podStatus, false);
        observePodStart(pod, apiStatus);
        statusManager.setPodStatus(pod, apiStatus);
        if (ConfigAnnotations.isStaticPod(pod)) {
            mirrorPods.syncMirrorPod(pod);
        }
        if (PodPhases.isTerminal(apiStatus.getPhase())) {
            return SyncOutcome.TERMINAL;
        }
        for (PodSyncHook hook : hooks) {
            if (!hook.beforeSync(pod, apiStatus, podStatus)) {
                return SyncOutcome.retryAfter(BACK_OFF_PERIOD);
            }
        }
        probeManager.addPod(pod); // idempotent: a pod is probed from its first sync on (upstream SyncPod)
        SyncResult result = runtime.syncPod(pod, podStatus, probeManager);
        boolean reasonsChanged = false;
        Duration retryAfter = null;
        for (SyncResult.StartResult r : result.starts()) {
            var before = reasonCache.get(uid, r.containerName());
            if (r.ok()) {
                reasonCache.remove(uid, r.containerName());
                reasonsChanged |= before.isPresent();
            } else {
                reasonCache.add(uid, r.containerName(), r.reason(), r.message());
                reasonsChanged |= before.isEmpty() || !before.get().reason().equals(r.reason());
                if (RuntimeManager.CRASH_LOOP_BACK_OFF.equals(r.reason())) {
                    Duration left = crashLoopRemaining(pod, podStatus, r.containerName());
                    retryAfter = retryAfter == null || left.compareTo(retryAfter) < 0 ? left : retryAfter;
                }
            }
        }
        if (reasonsChanged) {
            statusManager.setPodStatus(pod, generateStatus(pod, podStatus, false));
        }
        if (result.error() != null) {
            log.warn("Error syncing pod {}: {}", PodSpecs.format(pod), result.error());
            return SyncOutcome.FAILED;
        }
        if (result.failed() && retryAfter == null) {
            retryAfter = BACK_OFF_PERIOD;
        }
        // A pod with a deadline is synced again as it passes (upstream's ShouldSync), not at the next resync.
        Optional<Duration> deadline = activeDeadline.remaining(pod, apiStatus).map(d -> d.plusMillis(100));
        if (deadline.isPresent() && (retryAfter == null || deadline.get().compareTo(retryAfter) < 0)) {
            retryAfter = deadline.get();
        }
        return SyncOutcome.retryAfter(retryAfter);
    }

    private Duration crashLoopRemaining(Pod pod, RuntimePodStatus podStatus, String name) {
        // A little past the end, so the next sync is sure to be out of back-off.
        return runtime.crashLoopRemaining(pod, podStatus, name).map(d -> d.plusMillis(100)).orElse(BACK_OFF_PERIOD);
    }

    @Override
    public void syncTerminatingPod(Pod pod, RuntimePodStatus podStatus, Long gracePeriodOverride,
                                   Consumer<PodStatus> podStatusFn) {
        String uid = pod.getMetadata().getUid();
        if (podStatusFn != null && podManager.get(uid).isPresent()) {
            // Upstream SyncTerminatingPod: the status says why before the containers stop (an evicted pod is Failed).
            PodStatus s = generateStatus(pod, podStatus, false);
            podStatusFn.accept(s);
            statusManager.setPodStatus(pod, s);
        }
        // A terminating pod's liveness must not restart what is being stopped; readiness goes on until it is.
        probeManager.stopLivenessAndStartup(pod);
        runtime.killPod(pod, podStatus, gracePeriodOverride);
        hooks.forEach(hook -> hook.afterKill(pod));
        probeManager.removePod(pod);
        // Read from the runtime, not the cache: the final status must show the containers stopped (upstream too).
        var after = runtime.getPodStatus(uid, pod.getMetadata().getName(), pod.getMetadata().getNamespace());
        if (podManager.get(uid).isPresent() && pod.getSpec() != null) {
            PodStatus s = generateStatus(pod, after, true);
            if (podStatusFn != null) {
                // Unlike upstream, applied to the final status too: containers that exit 0 on SIGTERM would otherwise
                // turn an evicted pod Succeeded.
                podStatusFn.accept(s);
            }
            statusManager.setPodStatus(pod, s);
        }
    }

    @Override
    public void syncTerminatedPod(Pod pod, RuntimePodStatus podStatus) throws Exception {
        // Released in reverse of the order they were taken: the volumes before the pod cgroup they may charge.
        for (PodSyncHook hook : hooks.reversed()) {
            hook.terminated(pod);
        }
        log.info("Pod {} terminated", PodSpecs.format(pod));
        // A pod deleted in the apiserver can now be removed from it (its final status first).
        statusSyncRequest.accept(pod.getMetadata().getUid());
    }

    private PodStatus generateStatus(Pod pod, RuntimePodStatus podStatus, boolean terminal) {
        PodStatus old = statusManager.getPodStatus(pod.getMetadata().getUid())
                .orElse(pod.getStatus() == null ? new PodStatus() : pod.getStatus());
        PodStatus s = statusGenerator.generate(pod, podStatus, old, terminal, hostIps.get(), ConfigAnnotations.isStaticPod(pod));
        if (activeDeadline.exceeded(pod, s)) {
            // Upstream's eviction by a pod sync handler: the pod fails, and syncing it kills its containers.
            if (!ActiveDeadline.REASON.equals(old.getReason())) {
                recorder.event(References.pod(pod), EventRecorder.NORMAL, ActiveDeadline.REASON, ActiveDeadline.MESSAGE);
            }
            s.setPhase(PodPhases.FAILED);
            s.setReason(ActiveDeadline.REASON);
            s.setMessage(ActiveDeadline.MESSAGE);
        }
        return s;
    }

    /**
     * Upstream's {@code PodStartDuration}: from the kubelet first seeing the pod ({@code kubernetes.io/config.seen})
     * to the sync that first finds it running.
     */
    private void observePodStart(Pod pod, PodStatus apiStatus) {
        if (!PodPhases.RUNNING.equals(apiStatus.getPhase())) {
            return;
        }
        Optional<PodStatus> before = statusManager.getPodStatus(pod.getMetadata().getUid());
        if (before.isPresent() && PodPhases.RUNNING.equals(before.get().getPhase())) {
            return;
        }
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        String seen = annotations == null ? null : annotations.get(ConfigAnnotations.CONFIG_FIRST_SEEN);
        if (seen == null) {
            return;
        }
        try {
            metrics.observePodStart(Duration.between(Instant.parse(seen), clock.instant()));
        } catch (DateTimeParseException e) {
            log.debug("pod {}: unparsable {} annotation {}", PodSpecs.format(pod), ConfigAnnotations.CONFIG_FIRST_SEEN, seen);
        }
    }
}
