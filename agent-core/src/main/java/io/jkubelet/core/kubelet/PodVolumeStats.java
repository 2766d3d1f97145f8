package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.stats.PodVolume;
import io.jkubelet.core.stats.PodVolumeLister;
import io.jkubelet.core.stats.summary.PvcReference;
import io.jkubelet.core.volumemanager.VolumeManager;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Upstream {@code ListVolumesForPod} with the claims the pod names ({@code fsResourceAnalyzer}'s {@code pvcRef}): what
 * the stats measure of a pod's volumes, the volume manager's mounted ones, each with its mounter's metrics provider.
 */
public final class PodVolumeStats implements PodVolumeLister {
    private final Function<String, Optional<Pod>> pods;
    private final VolumeManager volumeManager;

    /** @param pods the pod of a UID (the pod manager's) */
    public PodVolumeStats(Function<String, Optional<Pod>> pods, VolumeManager volumeManager) {
        this.pods = pods;
        this.volumeManager = volumeManager;
    }

    @Override
    public List<PodVolume> volumes(String podUid) {
        return pods.apply(podUid).map(pod -> volumeManager.getMountedVolumesForPod(pod).values().stream()
                .map(v -> new PodVolume(v.name(), v.path(), v.metrics(), v.claim() == null ? null
                        : new PvcReference(v.claim().getClaimName(), pod.getMetadata().getNamespace()), v.localEphemeral()))
                .toList()).orElse(List.of());
    }
}
