package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.cm.CgroupException;
import io.jkubelet.core.cm.CgroupName;
import io.jkubelet.core.cm.ContainerManager;
import io.jkubelet.core.cm.PodContainerManager;
import io.jkubelet.core.container.RuntimePodStatus;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.kuberuntime.KubeRuntime;
import io.jkubelet.core.podutil.PodSpecs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.function.Predicate;

/**
 * The pod cgroup's part in a pod's life (upstream {@code SyncPod}, {@code killPod}, {@code SyncTerminatedPod}): made
 * before the sandbox so that every container starts inside it, given the fewest CPU shares once the pod is stopped,
 * removed once it is terminated; the QoS cgroups follow each change.
 */
final class PodCgroupSync implements PodSyncHook {
    private static final Logger log = LoggerFactory.getLogger(PodCgroupSync.class);
    static final String FAILED_TO_CREATE_POD_CONTAINER = "FailedToCreatePodContainer";

    private final ContainerManager containerManager;
    private final KubeRuntime runtime;
    private final EventRecorder recorder;
    /** Upstream {@code podVolumesExist}: a pod cgroup is kept while memory-backed volumes may still charge it. */
    private final Predicate<String> podVolumesExist;

    PodCgroupSync(ContainerManager containerManager, KubeRuntime runtime, EventRecorder recorder,
                  Predicate<String> podVolumesExist) {
        this.containerManager = containerManager;
        this.runtime = runtime;
        this.recorder = recorder;
        this.podVolumesExist = podVolumesExist;
    }

    /**
     * Makes sure the pod's cgroup exists before its sandbox is made. A pod found running without it (the kubelet
     * restarted with {@code cgroupsPerQOS} turned on) is killed first, so that it comes back up inside it; a
     * {@code restartPolicy: Never} pod killed so stays down.
     *
     * @return false when the cgroup could not be made: the pod must not be synced now
     */
    @Override
    public boolean beforeSync(Pod pod, PodStatus apiStatus, RuntimePodStatus podStatus) {
        PodContainerManager pcm = containerManager.podContainerManager();
        if (pcm.exists(pod)) {
            return true;
        }
        boolean firstSync = apiStatus.getContainerStatuses() == null || apiStatus.getContainerStatuses().stream()
                .noneMatch(c -> c.getState() != null && c.getState().getRunning() != null);
        boolean killed = false;
        if (!firstSync) {
            try {
                runtime.killPod(pod, podStatus, null);
                killed = true;
            } catch (RuntimeException e) {
                log.warn("KillPod failed for pod {}: {}", PodSpecs.format(pod), e.getMessage());
            }
        }
        if (killed && PodSpecs.RESTART_NEVER.equals(PodSpecs.restartPolicy(pod))) {
            return true;
        }
        updateQosCgroups("syncing pod");
        try {
            pcm.ensureExists(pod);
            return true;
        } catch (CgroupException e) {
            recorder.event(References.pod(pod), EventRecorder.WARNING, FAILED_TO_CREATE_POD_CONTAINER,
                    "unable to ensure pod container exists: " + e.getMessage());
            log.warn("Error syncing pod {}: failed to ensure that the pod: {} cgroups exist and are correctly applied: {}",
                    PodSpecs.format(pod), pod.getMetadata().getUid(), e.getMessage());
            return false;
        }
    }

    /** After the pod's containers were stopped: it no longer competes for CPU, and the QoS shares drop its request. */
    @Override
    public void afterKill(Pod pod) {
        PodContainerManager pcm = containerManager.podContainerManager();
        if (pcm.exists(pod)) {
            try {
                pcm.reduceCpuLimits(pcm.name(pod));
            } catch (CgroupException e) {
                log.info("Failed to reduce cpu time for pod {} pending volume cleanup: {}", PodSpecs.format(pod), e.getMessage());
            }
        }
        updateQosCgroups("killing pod");
    }

    /**
     * Removes the terminated pod's cgroup; while its volumes are still there the housekeeping's orphan clean-up
     * removes it later, so that a memory-backed volume's pages are not charged to the QoS cgroup meanwhile.
     *
     * @throws CgroupException when what runs in it cannot be killed or the cgroup cannot be removed (tried again)
     */
    @Override
    public void terminated(Pod pod) throws CgroupException {
        if (!containerManager.cgroupsPerQos() || volumesExist(pod.getMetadata().getUid())) {
            return;
        }
        PodContainerManager pcm = containerManager.podContainerManager();
        pcm.destroy(pcm.name(pod));
        log.debug("Pod termination removed cgroups of pod {}", PodSpecs.format(pod));
    }

    /**
     * Upstream {@code cleanupOrphanedPodCgroups}: removes the pod cgroups of pods that cannot be running any more,
     * killing what is left in them; one whose pod's volumes are still there only loses its CPU shares until they go.
     *
     * @param possiblyRunning whether a pod's worker may still have containers running
     */
    void cleanupOrphans(Predicate<String> possiblyRunning) {
        if (!containerManager.cgroupsPerQos()) {
            return;
        }
        PodContainerManager pcm = containerManager.podContainerManager();
        Map<String, CgroupName> found;
        try {
            found = pcm.allPodsFromCgroups();
        } catch (CgroupException e) {
            log.warn("Failed to list pod cgroups: {}", e.getMessage());
            return;
        }
        found.forEach((uid, cgroup) -> {
            if (possiblyRunning.test(uid)) {
                return;
            }
            try {
                if (volumesExist(uid)) {
                    log.debug("Orphaned pod {} found, but volumes not yet removed; reducing cpu to minimum", uid);
                    pcm.reduceCpuLimits(cgroup);
                } else {
                    log.info("Orphaned pod {} found, removing pod cgroups", uid);
                    pcm.destroy(cgroup);
                }
            } catch (CgroupException e) {
                // The next housekeeping tries again.
                log.info("Failed to clean up the cgroup of orphaned pod {}: {}", uid, e.getMessage());
            }
        });
    }

    private boolean volumesExist(String uid) {
        return podVolumesExist.test(uid);
    }

    private void updateQosCgroups(String when) {
        try {
            containerManager.updateQosCgroups();
        } catch (CgroupException e) {
            log.debug("Failed to update QoS cgroups while {}: {}", when, e.getMessage());
        }
    }
}
