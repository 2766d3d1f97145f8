package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.admission.PodAdmitResult;
import io.jkubelet.core.admission.PodAdmitHandler;
import io.jkubelet.core.config.ConfigAnnotations;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.status.PodConditions;
import io.jkubelet.core.status.PodPhases;
import io.jkubelet.core.status.StatusManager;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The kubelet's answers to the sync loop (upstream {@code Kubelet}'s {@code SyncHandler} methods): the pod manager
 * kept as the sources say, admission of new pods, and each pod handed to its worker with what happened to it.
 * Mirror pods are never run: a change to one is a reason to sync its static pod.
 */
final class KubeletSyncHandler implements SyncHandler {
    private final PodManager podManager;
    private final PodWorkers podWorkers;
    private final PodSyncStatuses workerStates;
    private final StatusManager statusManager;
    private final List<PodAdmitHandler> admitHandlers;
    private final EventRecorder recorder;
    private final Consumer<String> statusSyncRequest;
    private final Housekeeping housekeeping;
    private final Consumer<Pod> admitted;

    /**
     * @param admitHandlers     asked in turn whether a new pod may run (upstream {@code admitHandlers})
     * @param statusSyncRequest asks the status writer to write a static pod's status (by UID) to its mirror pod
     * @param admitted told of each pod admitted, before its worker gets it (the pod's timeline)
     */
    KubeletSyncHandler(PodManager podManager, PodWorkers podWorkers, PodSyncStatuses workerStates,
                       StatusManager statusManager,
                       List<PodAdmitHandler> admitHandlers, EventRecorder recorder, Consumer<String> statusSyncRequest,
                       Housekeeping housekeeping, Consumer<Pod> admitted) {
        this.admitted = admitted;
        this.podManager = podManager;
        this.podWorkers = podWorkers;
        this.workerStates = workerStates;
        this.statusManager = statusManager;
        this.admitHandlers = List.copyOf(admitHandlers);
        this.recorder = recorder;
        this.statusSyncRequest = statusSyncRequest;
        this.housekeeping = housekeeping;
    }

    @Override
    public void handlePodAdditions(List<Pod> pods) {
        List<Pod> sorted = new ArrayList<>(pods);
        sorted.sort(Comparator.comparing(p -> String.valueOf(p.getMetadata().getCreationTimestamp())));
        for (Pod pod : sorted) {
            podManager.addOrUpdate(pod);
            if (ConfigAnnotations.isMirrorPod(pod)) {
                handleMirrorPod(pod);
                continue;
            }
            if (isTerminal(pod)) {
                continue;
            }
            if (pod.getMetadata().getDeletionTimestamp() != null) {
                // Deleted while the kubelet was away: terminate it rather than start it.
                podWorkers.updatePod(SyncPodType.KILL, pod, pod.getMetadata().getDeletionGracePeriodSeconds());
                continue;
            }
            PodAdmitResult admitted = admit(pod);
            if (!admitted.admit()) {
                reject(pod, admitted.reason(), admitted.message());
                continue;
            }
            this.admitted.accept(pod);
            podWorkers.updatePod(SyncPodType.CREATE, pod, null);
        }
    }

    @Override
    public void handlePodUpdates(List<Pod> pods) {
        for (Pod pod : pods) {
            podManager.addOrUpdate(pod);
            if (ConfigAnnotations.isMirrorPod(pod)) {
                handleMirrorPod(pod);
            } else if (workerStates.isKnown(pod.getMetadata().getUid())) {
                podWorkers.updatePod(SyncPodType.UPDATE, pod, null);
            }
        }
    }

    @Override
    public void handlePodRemoves(List<Pod> pods) {
        for (Pod pod : pods) {
            podManager.remove(pod);
            if (ConfigAnnotations.isMirrorPod(pod)) {
                handleMirrorPod(pod); // gone from the apiserver: the static pod's sync creates it again
                continue;
            }
            podWorkers.updatePod(SyncPodType.KILL, pod, null);
        }
    }

    @Override
    public void handlePodDeletes(List<Pod> pods) {
        for (Pod pod : pods) {
            podManager.addOrUpdate(pod);
            if (ConfigAnnotations.isMirrorPod(pod)) {
                handleMirrorPod(pod); // a deleted mirror pod is replaced, its static pod keeps running
                continue;
            }
            podWorkers.updatePod(SyncPodType.KILL, pod, pod.getMetadata().getDeletionGracePeriodSeconds());
        }
    }

    /**
     * Upstream {@code HandlePodReconcile}: a change of status alone, kept in the pod manager; when it makes the pod's
     * Ready condition stale (a readiness gate's condition set in the apiserver), the pod is synced now rather than
     * at the next periodic sync, so that its status says Ready at once.
     */
    @Override
    public void handlePodReconcile(List<Pod> pods) {
        for (Pod pod : pods) {
            podManager.addOrUpdate(pod);
            if (!ConfigAnnotations.isMirrorPod(pod) && workerStates.isKnown(pod.getMetadata().getUid())
                    && PodConditions.needToReconcileReadiness(pod)) {
                podWorkers.updatePod(SyncPodType.SYNC, pod, null);
            }
        }
    }

    @Override
    public void handlePodSyncs(List<Pod> pods) {
        for (Pod pod : pods) {
            podWorkers.updatePod(SyncPodType.SYNC, pod, null);
        }
    }

    @Override
    public void handlePodCleanups() {
        housekeeping.cleanupPods();
    }

    /**
     * Upstream {@code handleMirrorPod}: a change to a mirror pod is a reason to sync its static pod (which creates,
     * replaces or keeps the mirror pod) and to write the static pod's status to it.
     */
    private void handleMirrorPod(Pod mirror) {
        podManager.staticPodByFullName(ConfigAnnotations.podFullName(mirror)).ifPresent(staticPod -> {
            if (workerStates.isKnown(staticPod.getMetadata().getUid())) {
                podWorkers.updatePod(SyncPodType.SYNC, staticPod, null);
            }
            statusSyncRequest.accept(staticPod.getMetadata().getUid());
        });
    }

    /** Upstream's {@code canAdmitPod}: the pod against each handler, with the other active pods; the first refusal counts. */
    private PodAdmitResult admit(Pod pod) {
        List<Pod> active = podManager.pods().stream()
                .filter(p -> !p.getMetadata().getUid().equals(pod.getMetadata().getUid()))
                .filter(p -> !ConfigAnnotations.isMirrorPod(p)) // a mirror pod stands for a static pod counted already
                .filter(p -> !isTerminal(p) && !workerStates.isTerminationRequested(p.getMetadata().getUid()))
                .toList();
        for (PodAdmitHandler handler : admitHandlers) {
            PodAdmitResult result = handler.admit(pod, active);
            if (!result.admit()) {
                return result;
            }
        }
        return PodAdmitResult.ADMIT;
    }

    private void reject(Pod pod, String reason, String message) {
        recorder.event(References.pod(pod), EventRecorder.WARNING, reason, message);
        PodStatus s = new PodStatus();
        s.setPhase(PodPhases.FAILED);
        s.setReason(reason);
        s.setMessage("Pod was rejected: " + message);
        s.setConditions(List.of());
        statusManager.setPodStatus(pod, s);
    }

    private boolean isTerminal(Pod pod) {
        Optional<PodStatus> s = statusManager.getPodStatus(pod.getMetadata().getUid());
        return s.isPresent() && PodPhases.isTerminal(s.get().getPhase());
    }
}
