package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.volumemanager.populator.PodStateProvider;

import java.util.List;
import java.util.Optional;

/**
 * What the volume manager's populator reads of the pods (upstream passes it the pod manager and the pod workers): the
 * pods the sources want, and whether each one's worker is stopping it or has stopped its containers.
 */
final class VolumeManagerPods implements io.jkubelet.core.volumemanager.populator.PodManager, PodStateProvider {
    private final PodManager podManager;
    private final PodSyncStatuses workerStates;

    VolumeManagerPods(PodManager podManager, PodSyncStatuses workerStates) {
        this.podManager = podManager;
        this.workerStates = workerStates;
    }

    @Override
    public List<Pod> pods() {
        return podManager.pods();
    }

    @Override
    public Optional<Pod> get(String uid) {
        return podManager.get(uid);
    }

    @Override
    public boolean shouldPodContainersBeTerminating(String uid) {
        return workerStates.isTerminationRequested(uid);
    }

    @Override
    public boolean shouldPodRuntimeBeRemoved(String uid) {
        return workerStates.hasStoppedContainers(uid);
    }
}
