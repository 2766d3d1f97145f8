package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.status.PodPhases;
import io.jkubelet.core.status.StatusManager;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Upstream {@code GetActivePods}: the pods that are neither known terminated by their worker nor finished (unless a
 * termination is still under way), which the QoS cgroups' shares, eviction and node shutdown work on.
 */
final class ActivePods implements Supplier<List<Pod>> {
    private final PodManager podManager;
    private final PodSyncStatuses workerStates;
    private final StatusManager statusManager;

    ActivePods(PodManager podManager, PodSyncStatuses workerStates, StatusManager statusManager) {
        this.podManager = podManager;
        this.workerStates = workerStates;
        this.statusManager = statusManager;
    }

    @Override
    public List<Pod> get() {
        List<Pod> active = new ArrayList<>();
        for (Pod p : podManager.pods()) {
            String uid = p.getMetadata().getUid();
            if (workerStates.isKnown(uid) && workerStates.isTerminated(uid)) {
                continue;
            }
            boolean terminal = statusManager.getPodStatus(uid).map(PodStatus::getPhase).filter(PodPhases::isTerminal).isPresent();
            if (terminal && !workerStates.isTerminationRequested(uid)) {
                continue;
            }
            active.add(p);
        }
        return active;
    }
}
