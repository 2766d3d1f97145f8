package io.jkubelet.core.kubelet;

import io.jkubelet.core.config.SourcesReady;
import io.jkubelet.core.kuberuntime.PodStateProvider;

/**
 * What container GC asks about a pod (upstream's pod workers as {@code podStateProvider}): its content may go once no
 * source wants it and its worker has terminated it, or, for a pod the kubelet never ran, once every source has
 * reported; its runtime parts once it is terminated.
 */
final class PodStates implements PodStateProvider {
    private final PodManager podManager;
    private final PodSyncStatuses workerStates;
    private final SourcesReady sourcesReady;

    PodStates(PodManager podManager, PodSyncStatuses workerStates, SourcesReady sourcesReady) {
        this.podManager = podManager;
        this.workerStates = workerStates;
        this.sourcesReady = sourcesReady;
    }

    @Override
    public boolean shouldPodContentBeRemoved(String uid) {
        if (podManager.get(uid).isPresent()) {
            return false;
        }
        return workerStates.isKnown(uid) ? workerStates.isTerminated(uid) : sourcesReady.allReady();
    }

    @Override
    public boolean shouldPodRuntimeBeRemoved(String uid) {
        if (workerStates.isKnown(uid)) {
            return workerStates.isTerminated(uid);
        }
        return podManager.get(uid).isEmpty() && sourcesReady.allReady();
    }
}
