package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.container.RuntimePodStatus;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.podutil.PodSpecs;
import io.jkubelet.core.volume.util.operationexecutor.OperationExecutor;
import io.jkubelet.core.volumemanager.VolumeManager;
import io.jkubelet.core.volumemanager.VolumeWaitException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The volumes' part in a pod's life (upstream {@code SyncPod}'s {@code WaitForAttachAndMount} and
 * {@code SyncTerminatedPod}'s {@code WaitForUnmount}): a pod's containers start once its volumes are mounted, and what a
 * terminated pod holds is released once they are unmounted. A wait that ends on the pod's processing errors records
 * upstream's {@code FailedMount} event ({@code Unable to attach or mount volumes: ...}); one that times out or is
 * cancelled by the pod's termination records none, as v1.30's kubelet (the mounts' own {@code FailedMount} events say
 * what fails).
 */
final class PodVolumesSync implements PodSyncHook {
    private static final Logger log = LoggerFactory.getLogger(PodVolumesSync.class);

    private final VolumeManager volumeManager;
    /** Forgets the service account tokens of a pod that is gone. */
    private final Consumer<String> forgetTokens;
    private final EventRecorder recorder;
    /** Whether the pod's termination was requested: its wait for volumes ends (upstream's cancelled context). */
    private final Predicate<String> terminationRequested;

    PodVolumesSync(VolumeManager volumeManager, Consumer<String> forgetTokens, EventRecorder recorder,
                   Predicate<String> terminationRequested) {
        this.volumeManager = volumeManager;
        this.forgetTokens = forgetTokens;
        this.recorder = recorder;
        this.terminationRequested = terminationRequested;
    }

    /** Waits for the pod's volumes (at most upstream's 2 min 3 s); false, the pod synced again after its back-off, if not mounted. */
    @Override
    public boolean beforeSync(Pod pod, PodStatus apiStatus, RuntimePodStatus podStatus) {
        String uid = pod.getMetadata().getUid();
        try {
            volumeManager.waitForAttachAndMount(pod, () -> terminationRequested.test(uid));
            return true;
        } catch (VolumeWaitException e) {
            if (!e.interrupted()) {
                recorder.event(References.pod(pod), EventRecorder.WARNING, OperationExecutor.FAILED_MOUNT,
                        "Unable to attach or mount volumes: " + e.getMessage());
                log.error("Unable to attach or mount volumes for pod {}; skipping pod: {}", PodSpecs.format(pod), e.getMessage());
            }
            log.error("Error syncing pod {}, skipping: {}", PodSpecs.format(pod), e.getMessage());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the kubelet stops
            return false;
        }
    }

    /**
     * Waits for the terminated pod's volumes to be unmounted, then forgets its service account tokens.
     *
     * @throws VolumeWaitException when they are still mounted after 2 min 3 s: the stage is tried again after its back-off
     */
    @Override
    public void terminated(Pod pod) throws VolumeWaitException, InterruptedException {
        volumeManager.waitForUnmount(pod);
        forgetTokens.accept(pod.getMetadata().getUid());
    }
}
