package io.jkubelet.core.kubelet;

import io.jkubelet.core.stats.PodVolume;
import io.jkubelet.core.stats.PodVolumeLister;
import io.jkubelet.core.stats.summary.PvcReference;
import io.jkubelet.core.volumemanager.VolumeManager;

import java.util.List;

/**
 * Upstream {@code ListVolumesForPod} with the claims the pod names ({@code fsResourceAnalyzer}'s {@code pvcRef}): what
 * the stats measure of a pod's volumes, the volume manager's mounted ones.
 */
final class PodVolumeStats implements PodVolumeLister {
    private final PodManager podManager;
    private final VolumeManager volumeManager;

    PodVolumeStats(PodManager podManager, VolumeManager volumeManager) {
        this.podManager = podManager;
        this.volumeManager = volumeManager;
    }

    @Override
    public List<PodVolume> volumes(String podUid) {
        return podManager.get(podUid).map(pod -> volumeManager.getMountedVolumesForPod(pod).values().stream()
                .map(v -> new PodVolume(v.name(), v.path(), v.metrics(), v.claim() == null ? null
                        : new PvcReference(v.claim().getClaimName(), pod.getMetadata().getNamespace()), v.localEphemeral()))
                .toList()).orElse(List.of());
    }
}
