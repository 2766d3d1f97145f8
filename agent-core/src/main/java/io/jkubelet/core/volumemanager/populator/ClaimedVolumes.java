package io.jkubelet.core.volumemanager.populator;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Status;
import io.jkubelet.core.apierrors.ApiException;
import io.jkubelet.core.objects.PersistentVolumeClient;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumeSpec;
import io.jkubelet.core.volume.util.EphemeralVolumes;

import java.util.Map;

/**
 * A pod's claim turned into the spec of the PersistentVolume bound to it (upstream populator's {@code getPVCExtractPV}
 * and {@code getPVSpec}), refused with upstream's messages while it cannot be used: missing, being deleted, not
 * (or no longer: lost) bound, bound to a volume that is not bound back to it, or, for a generic ephemeral volume, not
 * controlled by the pod.
 */
final class ClaimedVolumes {
    /** Upstream's {@code VolumeGidAnnotationKey}: a group the pod is given to use the volume. */
    static final String VOLUME_GID_ANNOTATION = "pv.beta.kubernetes.io/gid";

    /** The claim's volume as a spec, with the group its PersistentVolume's annotation gives ("" for none). */
    record Claimed(PersistentVolumeClaim claim, VolumeSpec spec, String volumeGidValue) {}

    private final PersistentVolumeClient client;

    ClaimedVolumes(PersistentVolumeClient client) {
        this.client = client;
    }

    /**
     * @param ephemeralFor the pod whose generic ephemeral volume the claim is, which must control it (checked between
     *     reading the claim and its volume, as upstream's populator does); null for a claim the pod names
     * @throws VolumeException e.g. {@code error processing PVC default/data: PVC is not bound}
     */
    Claimed claimed(String namespace, String claimName, boolean readOnly, Pod ephemeralFor) throws VolumeException {
        PersistentVolumeClaim pvc;
        try {
            pvc = extractPv(namespace, claimName);
        } catch (VolumeException e) {
            throw processing(namespace, claimName, e);
        }
        if (ephemeralFor != null) {
            EphemeralVolumes.checkVolumeIsForPod(ephemeralFor, pvc);
        }
        PersistentVolume pv;
        try {
            pv = persistentVolume(pvc.getSpec().getVolumeName(), pvc.getMetadata().getUid());
        } catch (VolumeException e) {
            throw processing(namespace, claimName, e);
        }
        Map<String, String> annotations = pv.getMetadata().getAnnotations();
        String gid = annotations == null ? "" : annotations.getOrDefault(VOLUME_GID_ANNOTATION, "");
        return new Claimed(pvc, VolumeSpec.of(pv, readOnly), gid);
    }

    private static VolumeException processing(String namespace, String claimName, VolumeException e) {
        return new VolumeException("error processing PVC " + namespace + "/" + claimName + ": " + e.getMessage());
    }

    /** Upstream {@code getPVCExtractPV}. */
    private PersistentVolumeClaim extractPv(String namespace, String claimName) throws VolumeException {
        PersistentVolumeClaim pvc;
        try {
            pvc = client.getPersistentVolumeClaim(namespace, claimName);
        } catch (ApiException e) {
            throw new VolumeException("failed to fetch PVC from API server: " + why(e));
        }
        if (pvc == null) {
            throw new VolumeException("failed to fetch PVC from API server: persistentvolumeclaims \"" + claimName
                    + "\" not found");
        }
        // A pod whose claim is being deleted must not start: the claim's protection holds it only while pods use it.
        if (pvc.getMetadata().getDeletionTimestamp() != null) {
            throw new VolumeException("PVC is being deleted");
        }
        if (pvc.getStatus() == null || !"Bound".equals(pvc.getStatus().getPhase())) {
            throw new VolumeException("PVC is not bound");
        }
        if (pvc.getSpec() == null || pvc.getSpec().getVolumeName() == null || pvc.getSpec().getVolumeName().isEmpty()) {
            throw new VolumeException("PVC has empty pvc.Spec.VolumeName");
        }
        return pvc;
    }

    /** Upstream {@code getPVSpec}'s checks: the volume exists and is bound to this very claim. */
    private PersistentVolume persistentVolume(String name, String claimUid) throws VolumeException {
        PersistentVolume pv;
        try {
            pv = client.getPersistentVolume(name);
        } catch (ApiException e) {
            throw new VolumeException("failed to fetch PV " + name + " from API server: " + why(e));
        }
        if (pv == null) {
            throw new VolumeException("failed to fetch PV " + name + " from API server: persistentvolumes \"" + name
                    + "\" not found");
        }
        if (pv.getSpec() == null || pv.getSpec().getClaimRef() == null) {
            throw new VolumeException("found PV object " + name
                    + " but it has a nil pv.Spec.ClaimRef indicating it is not yet bound to the claim");
        }
        String bound = pv.getSpec().getClaimRef().getUid();
        if (!claimUid.equals(bound)) {
            throw new VolumeException("found PV object " + name + " but its pv.Spec.ClaimRef.UID "
                    + (bound == null ? "" : bound) + " does not point to claim.UID " + claimUid);
        }
        return pv;
    }

    /** What client-go's error says: the apiserver's Status message, or why no answer came. */
    private static String why(ApiException e) {
        return e.status().map(Status::getMessage).filter(m -> !m.isEmpty()).orElse(e.getMessage());
    }
}
