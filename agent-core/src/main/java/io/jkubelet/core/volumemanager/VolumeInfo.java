package io.jkubelet.core.volumemanager;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaimVolumeSource;
import io.jkubelet.core.volume.BlockVolumeMapper;
import io.jkubelet.core.volume.VolumeMetrics;

import java.nio.file.Path;

/**
 * One mounted volume of a pod as its containers and the stats see it (upstream {@code kubecontainer.VolumeInfo}).
 *
 * @param name the pod's name for the volume
 * @param innerVolumeSpecName the spec's name: the pod's name for it, or its PersistentVolume's (the directory of its
 *     subPath mounts)
 * @param path where it is on the node; for a raw block volume, the pod's link to its device
 * @param readOnly every container mounts it read-only (the mounter's attributes); a raw block volume's claim is
 *     read-only
 * @param metrics how its usage is measured
 * @param claim the claim the pod names for it, or null
 * @param localEphemeral upstream's {@code IsLocalEphemeralVolume}: an emptyDir on disk or a configMap, which the pod's
 *     ephemeral storage counts
 * @param blockVolumeMapper what mapped a raw block volume ({@code volumeMode: Block}), which containers get as a device
 *     (upstream's {@code BlockVolumeMapper}); null for a volume mounted as a file system
 */
public record VolumeInfo(String name, String innerVolumeSpecName, Path path, boolean readOnly, VolumeMetrics metrics,
                         PersistentVolumeClaimVolumeSource claim, boolean localEphemeral,
                         BlockVolumeMapper blockVolumeMapper) {

    /** A volume mounted as a file system. */
    public VolumeInfo(String name, String innerVolumeSpecName, Path path, boolean readOnly, VolumeMetrics metrics,
                      PersistentVolumeClaimVolumeSource claim, boolean localEphemeral) {
        this(name, innerVolumeSpecName, path, readOnly, metrics, claim, localEphemeral, null);
    }

    /** A raw block volume, read-only as its claim is: at the pod's link to its device. */
    public static VolumeInfo ofBlock(String name, String innerVolumeSpecName, BlockVolumeMapper mapper, boolean readOnly,
                                     PersistentVolumeClaimVolumeSource claim) {
        return new VolumeInfo(name, innerVolumeSpecName, mapper.podDevicePath(), readOnly, mapper.metrics(), claim, false,
                mapper);
    }
}
