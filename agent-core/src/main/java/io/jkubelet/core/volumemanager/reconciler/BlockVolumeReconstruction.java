package io.jkubelet.core.volumemanager.reconciler;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jkubelet.core.volume.BlockVolumeMapper;
import io.jkubelet.core.volume.BlockVolumePlugin;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumePluginMgr;
import io.jkubelet.core.volume.VolumeSpec;
import io.jkubelet.core.volumemanager.cache.ActualStateOfWorld;
import io.jkubelet.core.volumemanager.cache.DesiredStateOfWorld;

import java.nio.file.Files;

/**
 * Upstream {@code reconstructVolume} for a raw block volume ({@code volumeMode} {@code Block}): a link found under
 * {@code pods/<uid>/volumeDevices/<plugin>/<name>} after a restart is taken as perhaps mapped, with its global map path
 * as perhaps set up and its attachability uncertain until the node status says (v1.30's {@code updateStatesNew}), so
 * that a pod that still wants it maps it again (idempotent: the
 * map file, the link and the loop device are kept) and one that does not has it unmapped once the pods are known.
 */
final class BlockVolumeReconstruction {
    private BlockVolumeReconstruction() {}

    /**
     * @return the volume's unique name
     * @throws VolumeException {@code could not find block volume plugin ...}, the plugin's reason, or
     *     {@code volume: "<unique name>" is not mounted} when the link is not there
     */
    static String reconstruct(PodVolumeDirs.PodVolume v, VolumePluginMgr plugins, ActualStateOfWorld asw)
            throws VolumeException {
        BlockVolumePlugin plugin = plugins.findMapperPluginByName(v.pluginName()).orElseThrow(() -> new VolumeException(
                "could not find block volume plugin \"" + v.pluginName() + "\" (spec.Name: \"" + v.volumeSpecName()
                        + "\") pod \"" + v.podName() + "\" (UID: \"" + v.podName() + "\")"));
        VolumeSpec spec = plugin.constructBlockVolumeSpec(v.podName(), v.volumeSpecName(), v.volumePath());
        Pod pod = new PodBuilder().withNewMetadata().withUid(v.podName()).withName(v.podName()).endMetadata()
                .withNewSpec().endSpec().build();
        BlockVolumeMapper mapper = plugin.newBlockVolumeMapper(spec, pod);
        String volumeName = DesiredStateOfWorld.uniqueVolumeName(plugin, v.podName(), spec);
        // Upstream's CheckVolumeExistenceOperation for a block volume: the pod's link to the device is there.
        if (!Files.isSymbolicLink(mapper.podDevicePath())) {
            throw new VolumeException("volume: \"" + volumeName + "\" is not mounted");
        }
        // As a file system volume: attachability uncertain until the node status says, mapped perhaps.
        asw.addAttachUncertainReconstructedVolume(volumeName, spec, plugin);
        asw.markVolumeAsUncertainViaReconstruction(volumeName, v.podName(), v.volumeSpecName(), spec, null, mapper);
        asw.markDeviceAsUncertain(volumeName, mapper.globalMapPath());
        return volumeName;
    }
}
