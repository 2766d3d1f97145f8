package io.jkubelet.core.volume;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.Volume;

/**
 * What a plugin mounts (upstream {@code volume.Spec}): a pod's own volume, or the PersistentVolume a claim of the pod
 * is bound to. Its {@link #name()} is what the operations' events name: the pod's volume name, or the PV's name.
 *
 * @param volume the pod's volume, or null for a PersistentVolume
 * @param persistentVolume the claim's PersistentVolume, or null for a pod's own volume
 * @param readOnly the claim's {@code readOnly} (a pod's own volume says it in its source)
 */
public record VolumeSpec(Volume volume, PersistentVolume persistentVolume, boolean readOnly) {
    /** A pod's own volume (upstream {@code NewSpecFromVolume}). */
    public static VolumeSpec of(Volume volume) {
        return new VolumeSpec(volume, null, false);
    }

    /** The PersistentVolume of a claim, read-only as the claim's {@code readOnly} (upstream {@code NewSpecFromPersistentVolume}). */
    public static VolumeSpec of(PersistentVolume pv, boolean readOnly) {
        return new VolumeSpec(null, pv, readOnly);
    }

    /** Upstream {@code Spec.Name()}: the pod's volume name, or the PersistentVolume's. */
    public String name() {
        return volume != null ? volume.getName() : persistentVolume.getMetadata().getName();
    }

    /** Whether the PersistentVolume is a raw block device for the containers ({@code volumeMode: Block}). */
    public boolean isBlock() {
        return persistentVolume != null && persistentVolume.getSpec() != null
                && "Block".equals(persistentVolume.getSpec().getVolumeMode());
    }
}
