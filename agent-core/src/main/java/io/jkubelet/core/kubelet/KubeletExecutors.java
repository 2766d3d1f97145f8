package io.jkubelet.core.kubelet;

import io.jkubelet.core.util.DaemonThreads;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The threads the kubelet's parts run on. Whoever builds the kubelet makes them (named, daemon or virtual) and
 * hands them over with its {@link KubeletDeps}; from then on the kubelet owns them: each part that uses one
 * shuts it down when the kubelet stops that part, and {@link Kubelet#stop} makes sure none is left. Tests
 * hand over executors they control.
 *
 * @param podWorkers one virtual thread per pod sync, kill and housekeeping removal
 * @param timers the container GC's period
 * @param pleg relists: one thread, so relists never overlap
 * @param probeTicker ticks every probe worker
 * @param probes one virtual thread per probe run, so a hanging probe holds only its own worker
 * @param stats the stats provider's collection rounds
 * @param eviction the eviction manager's cycles: one thread, as a cycle may wait for an evicted pod's kill
 * @param volumes the volume manager's populator and reconciler loops and one virtual thread per mount or unmount, so
 *     that a mount that hangs holds only its own
 * @param volumeStats one virtual thread per volume measurement of the stats, so that a volume whose CSI driver hangs
 *     holds only its own
 */
public record KubeletExecutors(ExecutorService podWorkers, ScheduledExecutorService timers,
                               ScheduledExecutorService pleg, ScheduledExecutorService probeTicker,
                               ExecutorService probes, ScheduledExecutorService stats,
                               ScheduledExecutorService eviction, ExecutorService volumes, ExecutorService volumeStats) {

    /**
     * Stops the pod workers' threads, interrupted rather than waited for to the end of a kill (the containers keep
     * running, as upstream's do), and waits at most {@code within} for them to end.
     */
    void stopPodWorkers(Duration within) throws InterruptedException {
        podWorkers.shutdownNow();
        podWorkers.awaitTermination(within.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The production threads, named as they show in a thread dump. Threads are made only once used. */
    public static KubeletExecutors named() {
        return new KubeletExecutors(
                Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("pod-worker-", 0).factory()),
                DaemonThreads.scheduler("kubelet-timers"),
                DaemonThreads.scheduler("pleg"),
                DaemonThreads.scheduler("probe-ticker"),
                Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("probe-", 0).factory()),
                DaemonThreads.scheduler("stats-provider"),
                DaemonThreads.scheduler("eviction-manager"),
                Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("volume-manager-", 0).factory()),
                Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("volume-stats-", 0).factory()));
    }

    /** Interrupts whatever still runs on any of them; for parts built but never started or stopped in time. */
    void shutdownNow() {
        for (ExecutorService e : List.of(podWorkers, timers, pleg, probeTicker, probes, stats, eviction, volumes, volumeStats)) {
            e.shutdownNow();
        }
    }
}
