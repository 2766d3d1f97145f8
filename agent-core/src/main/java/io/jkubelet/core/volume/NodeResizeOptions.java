package io.jkubelet.core.volume;

import io.fabric8.kubernetes.api.model.Quantity;

import java.nio.file.Path;

/**
 * What a plugin's node expansion is given (upstream {@code volume.NodeResizeOptions}).
 *
 * @param deviceMountPath where the volume is mounted for the pod (a CSI volume's publish path)
 * @param deviceStagePath the volume's global mount path, null when its plugin has none
 * @param newSize the PersistentVolume's capacity, what the file system is to grow to
 * @param oldSize the claim's {@code status.capacity}, what it had
 */
public record NodeResizeOptions(VolumeSpec spec, Path deviceMountPath, Path deviceStagePath, Quantity newSize,
                                Quantity oldSize) {}
