package io.jkubelet.core.volume.util;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimVolumeSource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.jkubelet.core.volume.VolumeException;

import java.util.List;
import java.util.Objects;

/**
 * Generic ephemeral volumes (upstream's {@code component-helpers/storage/ephemeral}): a pod's {@code ephemeral} volume
 * is the claim that the ephemeral volume controller makes for it from its template, named {@code <pod>-<volume>} and
 * controlled by the pod. Once bound it is used as any claim; a claim of that name the pod does not control (made by
 * hand, or for an earlier pod of the same name) is refused, so that a pod never gets another's data.
 */
public final class EphemeralVolumes {
    private EphemeralVolumes() {}

    /** Upstream {@code VolumeClaimName}. */
    public static String claimName(Pod pod, Volume volume) {
        return pod.getMetadata().getName() + "-" + volume.getName();
    }

    /**
     * The claim a pod's volume stands for: its {@code persistentVolumeClaim}, or for an {@code ephemeral} volume the
     * generated claim (never read-only: the template has no such field); null for any other volume.
     */
    public static PersistentVolumeClaimVolumeSource claimSource(Pod pod, Volume volume) {
        if (volume.getPersistentVolumeClaim() != null) {
            return volume.getPersistentVolumeClaim();
        }
        if (volume.getEphemeral() != null) {
            return new PersistentVolumeClaimVolumeSource(claimName(pod, volume), false);
        }
        return null;
    }

    /**
     * Upstream {@code VolumeIsForPod}: the claim is in the pod's namespace and its controller is the pod.
     *
     * @throws VolumeException {@code PVC default/web-scratch was not created for pod default/web (pod is not owner)}
     */
    public static void checkVolumeIsForPod(Pod pod, PersistentVolumeClaim pvc) throws VolumeException {
        String podNamespace = pod.getMetadata().getNamespace();
        String podUid = pod.getMetadata().getUid();
        List<OwnerReference> owners = pvc.getMetadata().getOwnerReferences() == null ? List.of()
                : pvc.getMetadata().getOwnerReferences();
        boolean controlledByPod = owners.stream().anyMatch(o -> Boolean.TRUE.equals(o.getController())
                && podUid != null && podUid.equals(o.getUid()));
        if (!Objects.equals(pvc.getMetadata().getNamespace(), podNamespace) || !controlledByPod) {
            throw new VolumeException("PVC " + pvc.getMetadata().getNamespace() + "/" + pvc.getMetadata().getName()
                    + " was not created for pod " + podNamespace + "/" + pod.getMetadata().getName() + " (pod is not owner)");
        }
    }
}
