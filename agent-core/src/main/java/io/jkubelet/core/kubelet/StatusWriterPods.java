package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.status.ApiStatusSync;

import java.util.Optional;

/** What the status writer asks of the pod manager and the pod workers (upstream's {@code podDeletionSafety}). */
final class StatusWriterPods implements ApiStatusSync.Pods {
    private final PodManager podManager;
    private final PodSyncStatuses workerStates;

    StatusWriterPods(PodManager podManager, PodSyncStatuses workerStates) {
        this.podManager = podManager;
        this.workerStates = workerStates;
    }

    @Override
    public Optional<Pod> pod(String uid) {
        return podManager.get(uid);
    }

    @Override
    public Optional<Pod> mirrorPodOf(Pod staticPod) {
        return podManager.mirrorPodOf(staticPod);
    }

    @Override
    public boolean podResourcesReclaimed(String uid) {
        // Upstream PodCouldHaveRunningContainers: once terminated, its containers are stopped.
        return !workerStates.couldHaveRunningContainers(uid);
    }
}
