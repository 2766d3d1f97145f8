package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.container.GCPolicy;
import io.jkubelet.core.container.RuntimePodStatus;
import io.jkubelet.core.prober.ProbeVerdicts;

import java.time.Duration;
import java.util.Optional;

/**
 * What the kubelet asks of the container runtime at the level of pods (upstream {@code kubecontainer.Runtime}):
 * a pod's state, bringing it to its spec, stopping it, and collecting what dead containers and gone pods left.
 * Implemented over the CRI-shaped runtime port by {@link RuntimeManager}; the kubelet's own tests use a fake of it.
 * Implementations are thread-safe: pod workers call them for different pods at once.
 */
public interface KubeRuntime {

    /** The runtime's name as container IDs carry it ({@code docker} in {@code docker://<id>}). */
    String type();

    /** Everything the runtime has of one pod (upstream {@code GetPodStatus}). */
    RuntimePodStatus getPodStatus(String uid, String name, String namespace);

    /**
     * Brings the runtime in line with the pod spec (upstream {@code SyncPod}): kills what must go, creates the
     * sandbox when needed, then starts the next init container or the app containers.
     */
    SyncResult syncPod(Pod pod, RuntimePodStatus podStatus, ProbeVerdicts probes);

    /**
     * Stops every running container, then every sandbox (upstream {@code KillPod}).
     *
     * @param gracePeriodOverride seconds that replace each container's grace period, or null
     */
    void killPod(Pod pod, RuntimePodStatus podStatus, Long gracePeriodOverride);

    /**
     * How long the named container's crash-loop back-off still runs, or empty when it is not backing off
     * from a known exit (no exited instance, or no such container in the spec).
     */
    Optional<Duration> crashLoopRemaining(Pod pod, RuntimePodStatus podStatus, String containerName);

    /** Removes every container and sandbox of a pod that is gone for good. */
    void removePod(String uid);

    /**
     * Removes dead containers and sandboxes as the policy allows, and what pods gone for good left, their logs
     * included (upstream {@code GarbageCollect}).
     *
     * @param allSourcesReady every pod source has reported: a pod none of them wants is gone, not just late
     * @param evictNonDeletedPods also remove what terminated pods that are still wanted keep (to free disk)
     * @throws RuntimeException when the runtime cannot list what it has
     */
    void garbageCollect(GCPolicy policy, boolean allSourcesReady, boolean evictNonDeletedPods);
}
