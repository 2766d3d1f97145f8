package io.jkubelet.core.stats;

import io.jkubelet.core.stats.summary.PvcReference;
import io.jkubelet.core.volume.VolumeMetrics;

import java.nio.file.Path;

/**
 * One mounted volume of a pod as the stats measure it (upstream's {@code ListVolumesForPod} with each volume's metrics
 * provider).
 *
 * @param name the pod's name for the volume
 * @param metrics how it is measured: its files walked, its file system's figures, or not at all
 * @param pvcRef the claim the pod names for it, or null
 * @param localEphemeral upstream's {@code IsLocalEphemeralVolume} (an emptyDir on disk, a configMap): counted in the
 *     pod's ephemeral storage and listed first
 */
public record PodVolume(String name, Path path, VolumeMetrics metrics, PvcReference pvcRef, boolean localEphemeral) {}
