package io.jkubelet.core.volume;

import io.fabric8.kubernetes.api.model.Pod;

import java.nio.file.Path;

/**
 * A plugin that gives its PersistentVolumes to containers as raw block devices when their {@code volumeMode} is
 * {@code Block} (upstream {@code volume.BlockVolumePlugin}): such a volume is mapped, never mounted.
 */
public interface BlockVolumePlugin extends VolumePlugin {
    /**
     * Upstream {@code NewBlockVolumeMapper}.
     *
     * @throws VolumeException when the spec cannot be mapped at all ({@code MapVolume.NewBlockVolumeMapper
     *     initialization failed})
     */
    BlockVolumeMapper newBlockVolumeMapper(VolumeSpec spec, Pod pod) throws VolumeException;

    /**
     * Upstream {@code NewBlockVolumeUnmapper}: an unmapper of the volume {@code volumeName} (the spec's name) of pod
     * {@code podUid}, or of the volume for the node when {@code podUid} is empty.
     */
    BlockVolumeUnmapper newBlockVolumeUnmapper(String volumeName, String podUid) throws VolumeException;

    /**
     * Upstream {@code ConstructBlockVolumeSpec}: the spec of a volume found mapped at {@code mapPath}
     * ({@code pods/<uid>/volumeDevices/<plugin>/<name>}) after a restart, as much as is needed to unmap it, or to take it
     * as mapped when its pod still wants it.
     */
    VolumeSpec constructBlockVolumeSpec(String podUid, String volumeName, Path mapPath) throws VolumeException;
}
