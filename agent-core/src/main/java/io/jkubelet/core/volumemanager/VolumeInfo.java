package io.jkubelet.core.volumemanager;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaimVolumeSource;
import io.jkubelet.core.volume.VolumeMetrics;

import java.nio.file.Path;

/**
 * One mounted volume of a pod as its containers and the stats see it (upstream {@code kubecontainer.VolumeInfo}).
 *
 * @param name the pod's name for the volume
 * @param innerVolumeSpecName the spec's name: the pod's name for it, or its PersistentVolume's (the directory of its
 *     subPath mounts)
 * @param path where it is on the node
 * @param readOnly every container mounts it read-only (the mounter's attributes)
 * @param metrics how its usage is measured
 * @param claim the claim the pod names for it, or null
 * @param localEphemeral upstream's {@code IsLocalEphemeralVolume}: an emptyDir on disk or a configMap, which the pod's
 *     ephemeral storage counts
 */
public record VolumeInfo(String name, String innerVolumeSpecName, Path path, boolean readOnly, VolumeMetrics metrics,
                         PersistentVolumeClaimVolumeSource claim, boolean localEphemeral) {}
