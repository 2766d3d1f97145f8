package io.jkubelet.core.volume.csi;

import io.fabric8.kubernetes.api.model.CSIPersistentVolumeSource;
import io.fabric8.kubernetes.api.model.CSIVolumeSource;
import io.fabric8.kubernetes.api.model.SecretReference;
import io.jkubelet.core.volume.VolumeSpec;

import java.util.List;
import java.util.Map;

/**
 * What a CSI volume's spec says, whichever kind it is (upstream's {@code getSourceFromSpec} and the fields its mounter
 * and attacher read): a PersistentVolume's {@code spec.csi} ({@code Persistent}) or a pod's inline {@code volumes[].csi}
 * ({@code Ephemeral}, its handle made from the pod and the volume's name).
 *
 * @param volumeHandle the PersistentVolume's {@code volumeHandle}, or upstream's {@code makeVolumeHandle} of an inline one
 * @param readOnly the claim's {@code readOnly} for a PersistentVolume, the source's own for an inline volume
 * @param accessMode the PersistentVolume's first access mode ({@code ReadWriteOnce} when it has none, as upstream)
 * @param nodeStageSecretRef null when there is none (an inline volume has none)
 * @param nodePublishSecretRef null when there is none; an inline volume's in the pod's namespace
 */
record CsiSource(String driver, String volumeHandle, boolean readOnly, String fsType, Map<String, String> volumeAttributes,
                 SecretReference nodeStageSecretRef, SecretReference nodePublishSecretRef, boolean ephemeral,
                 String accessMode, List<String> accessModes, List<String> mountOptions) {
    /** Upstream's {@code VolumeLifecycleMode}s. */
    static final String PERSISTENT = "Persistent";
    static final String EPHEMERAL = "Ephemeral";

    /** Whether the spec is a CSI volume at all (upstream {@code CanSupport}). */
    static boolean isCsi(VolumeSpec spec) {
        return (spec.persistentVolume() != null && spec.persistentVolume().getSpec() != null
                && spec.persistentVolume().getSpec().getCsi() != null)
                || (spec.volume() != null && spec.volume().getCsi() != null);
    }

    static CsiSource of(VolumeSpec spec, String podUid, String podNamespace) {
        if (spec.volume() != null) {
            CSIVolumeSource src = spec.volume().getCsi();
            SecretReference publish = src.getNodePublishSecretRef() == null ? null
                    : new SecretReference(src.getNodePublishSecretRef().getName(), podNamespace);
            return new CsiSource(src.getDriver(), CsiNames.ephemeralVolumeHandle(podUid, spec.name()),
                    Boolean.TRUE.equals(src.getReadOnly()), src.getFsType() == null ? "" : src.getFsType(),
                    orEmpty(src.getVolumeAttributes()), null, publish, true, "ReadWriteOnce", List.of(), List.of());
        }
        var pvSpec = spec.persistentVolume().getSpec();
        CSIPersistentVolumeSource src = pvSpec.getCsi();
        List<String> modes = pvSpec.getAccessModes() == null ? List.of() : pvSpec.getAccessModes();
        return new CsiSource(src.getDriver(), src.getVolumeHandle(), spec.readOnly(),
                src.getFsType() == null ? "" : src.getFsType(), orEmpty(src.getVolumeAttributes()),
                src.getNodeStageSecretRef(), src.getNodePublishSecretRef(), false,
                modes.isEmpty() ? "ReadWriteOnce" : modes.get(0), modes,
                pvSpec.getMountOptions() == null ? List.of() : pvSpec.getMountOptions());
    }

    /** Upstream {@code getVolumeLifecycleMode}. */
    String lifecycleMode() {
        return ephemeral ? EPHEMERAL : PERSISTENT;
    }

    private static Map<String, String> orEmpty(Map<String, String> m) {
        return m == null ? Map.of() : m;
    }
}
