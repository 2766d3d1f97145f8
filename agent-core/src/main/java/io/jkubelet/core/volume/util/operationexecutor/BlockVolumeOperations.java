package io.jkubelet.core.volume.util.operationexecutor;

import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.volume.BlockVolumeMapper;
import io.jkubelet.core.volume.BlockVolumePlugin;
import io.jkubelet.core.volume.BlockVolumeUnmapper;
import io.jkubelet.core.volume.UncertainProgressException;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumePlugin;
import io.jkubelet.core.volume.VolumeSpec;
import io.jkubelet.core.volume.util.operationexecutor.ActualStateOfWorldMounterUpdater.DeviceMountState;
import io.jkubelet.core.volume.util.volumepathhandler.BlockVolumePathHandler;
import io.jkubelet.core.volume.util.volumepathhandler.BlockVolumes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * Upstream {@code operationGenerator}'s {@code GenerateMapVolumeFunc}, {@code GenerateUnmapVolumeFunc} and
 * {@code GenerateUnmapDeviceFunc}: what the operation executor runs for a raw block volume ({@code volumeMode: Block})
 * instead of a mount. A map: the attachment checked, the plugin's {@code SetUpDevice} (once for the node),
 * {@code MapPodDevice} (the device for the pod), then the common map ({@link BlockVolumes#mapBlockVolume}); it fails
 * with upstream's {@code FailedMapVolume} event ({@code MapVolume.SetUpDevice failed for volume "pv" : ...}) and, when it
 * succeeds, says so in two {@code SuccessfulMountVolume} events, as upstream's. An unmap undoes the common map, then the
 * plugin's; the device's unmap, once no pod has the volume, refuses while a pod's map file is still there.
 */
final class BlockVolumeOperations {
    private static final Logger log = LoggerFactory.getLogger(BlockVolumeOperations.class);
    /** Upstream's {@code events.SuccessfulMountVolume}. */
    static final String SUCCESSFUL_MOUNT_VOLUME = "SuccessfulMountVolume";

    private final EventRecorder recorder;
    private final BlockVolumePathHandler blkUtil;

    BlockVolumeOperations(EventRecorder recorder, BlockVolumePathHandler blkUtil) {
        this.recorder = recorder;
        this.blkUtil = blkUtil;
    }

    /** Upstream {@code GenerateMapVolumeFunc}'s operation. */
    void mapVolume(VolumeToMount volume, ActualStateOfWorldMounterUpdater asw) throws VolumeException {
        BlockVolumePlugin plugin = mapperPlugin(volume.plugin(), "MapVolume.FindMapperPluginBySpec",
                volume.detailedMessage("MapVolume.FindMapperPluginBySpec failed to find BlockVolumeMapper plugin. "
                        + "Volume plugin is nil.", ""));
        BlockVolumeMapper mapper;
        try {
            mapper = plugin.newBlockVolumeMapper(volume.spec(), volume.pod());
        } catch (VolumeException e) {
            throw failed(volume, "MapVolume.NewBlockVolumeMapper initialization failed", e);
        }
        Path globalMapPath = mapper.globalMapPath();
        var attacher = plugin.attacher(volume.spec());
        if (attacher.isPresent()) {
            try {
                attacher.get().waitForAttach(volume.spec(), volume.devicePath(), volume.pod());
            } catch (VolumeException e) {
                throw failed(volume, "MapVolume.WaitForAttach failed", e);
            }
        }
        if (asw.getDeviceMountState(volume.volumeName()) != DeviceMountState.GLOBALLY_MOUNTED) {
            try {
                mapper.setUpDevice();
            } catch (VolumeException e) {
                OperationExecutor.markDeviceErrorState(volume, globalMapPath, e, asw);
                throw failed(volume, "MapVolume.SetUpDevice failed", e);
            }
        }
        asw.markDeviceAsMounted(volume.volumeName(), globalMapPath);
        Path devicePath;
        try {
            devicePath = mapper.mapPodDevice();
        } catch (VolumeException e) {
            OperationExecutor.markVolumeErrorState(volume, e, asw, () -> asw.markVolumeMapAsUncertain(volume, mapper));
            throw failed(volume, "MapVolume.MapPodDevice failed", e);
        }
        // From now on the plugin has mapped the volume: a failure leaves it perhaps mapped, so that it is unmapped if
        // its pod goes first (upstream's deferred markVolumeErrorState).
        try {
            mapBlockVolume(volume, mapper, devicePath, globalMapPath);
        } catch (VolumeException e) {
            OperationExecutor.markVolumeErrorState(volume, new UncertainProgressException(e.getMessage()), asw,
                    () -> asw.markVolumeMapAsUncertain(volume, mapper));
            throw e;
        }
        String globalMapped = volume.simpleMessage("MapVolume.MapPodDevice succeeded", "globalMapPath \"" + globalMapPath + "\"");
        recorder.event(References.pod(volume.pod()), EventRecorder.NORMAL, SUCCESSFUL_MOUNT_VOLUME, globalMapped);
        String podMapped = volume.simpleMessage("MapVolume.MapPodDevice succeeded", "volumeMapPath \""
                + mapper.podDeviceMapPath() + "\"");
        recorder.event(References.pod(volume.pod()), EventRecorder.NORMAL, SUCCESSFUL_MOUNT_VOLUME, podMapped);
        log.info("{}", volume.detailedMessage("MapVolume.MapPodDevice succeeded", "volumeMapPath \""
                + mapper.podDeviceMapPath() + "\""));
        asw.markVolumeAsMapped(volume, mapper);
    }

    /**
     * The device's real path (upstream's {@code EvalHostSymlinks}: a link such as {@code /dev/disk/by-id/...} is
     * followed to the device), then the common map.
     */
    private void mapBlockVolume(VolumeToMount volume, BlockVolumeMapper mapper, Path devicePath, Path globalMapPath)
            throws VolumeException {
        String device;
        try {
            device = devicePath.toRealPath().toString();
        } catch (NoSuchFileException e) {
            throw failed(volume, "MapVolume.EvalHostSymlinks failed",
                    new VolumeException("lstat " + devicePath + ": no such file or directory"));
        } catch (IOException e) {
            throw failed(volume, "MapVolume.EvalHostSymlinks failed", new VolumeException(e.toString()));
        }
        try {
            BlockVolumes.mapBlockVolume(blkUtil, device, globalMapPath, mapper.podDeviceMapPath(),
                    mapper.volumeMapName(), volume.podName());
        } catch (VolumeException e) {
            throw failed(volume, "MapVolume.MapBlockVolume failed", e);
        }
    }

    private VolumeException failed(VolumeToMount volume, String prefix, VolumeException cause) {
        return OperationExecutor.failed(recorder, OperationExecutor.FAILED_MAP_VOLUME, volume, prefix, cause);
    }

    /**
     * Upstream {@code GenerateUnmapVolumeFunc}'s operation: the volume is perhaps mapped until everything is undone,
     * so that a failure is tried again.
     */
    void unmapVolume(MountedVolume volume, ActualStateOfWorldMounterUpdater asw) throws VolumeException {
        BlockVolumePlugin plugin = mapperPlugin(volume.plugin(), "UnmapVolume.FindMapperPluginByName",
                volume.detailedMessage("UnmapVolume.FindMapperPluginByName failed to find BlockVolumeMapper plugin. "
                        + "Volume plugin is nil.", ""));
        BlockVolumeUnmapper unmapper;
        try {
            unmapper = plugin.newBlockVolumeUnmapper(volume.innerVolumeSpecName(), volume.podName());
        } catch (VolumeException e) {
            throw new VolumeException(volume.detailedMessage("UnmapVolume.NewUnmapper failed", ": " + e.getMessage()));
        }
        Path globalUnmapPath = volume.deviceMountPath();
        if (globalUnmapPath == null) {
            throw new VolumeException(volume.detailedMessage("UnmapVolume.UnmapBlockVolume failed",
                    ": the volume's global map path is not known"));
        }
        asw.markVolumeMountAsUncertain(volume.podName(), volume.volumeName());
        try {
            BlockVolumes.unmapBlockVolume(blkUtil, globalUnmapPath, unmapper.podDeviceMapPath(), unmapper.volumeMapName(),
                    volume.podName());
        } catch (VolumeException e) {
            throw new VolumeException(volume.detailedMessage("UnmapVolume.UnmapBlockVolume failed", ": " + e.getMessage()));
        }
        try {
            unmapper.unmapPodDevice();
        } catch (VolumeException e) {
            throw new VolumeException(volume.detailedMessage("UnmapVolume.UnmapPodDevice failed", ": " + e.getMessage()));
        }
        log.info("UnmapVolume succeeded for volume \"{}\" (OuterVolumeSpecName: \"{}\") pod \"{}\" (UID: \"{}\"). "
                        + "InnerVolumeSpecName \"{}\". PluginName \"{}\", VolumeGidValue \"{}\"", volume.volumeName(),
                volume.outerVolumeSpecName(), volume.podName(), volume.podName(), volume.innerVolumeSpecName(),
                volume.plugin().name(), volume.volumeGidValue() == null ? "" : volume.volumeGidValue());
        asw.markVolumeAsUnmounted(volume.podName(), volume.volumeName());
    }

    /**
     * Upstream {@code GenerateUnmapDeviceFunc}'s operation, once no pod has the volume mapped: refused while a pod's
     * map file is still under the global map path; then the plugin's {@code TearDownDevice} and the global map path
     * removed.
     */
    void unmapDevice(String volumeName, VolumeSpec spec, VolumePlugin volumePlugin, Path globalMapPath,
                     ActualStateOfWorldMounterUpdater asw) throws VolumeException {
        String what = "for volume \"" + spec.name() + "\" (UniqueName: \"" + volumeName + "\") ";
        BlockVolumePlugin plugin = mapperPlugin(volumePlugin, "UnmapDevice.FindMapperPluginByName",
                "UnmapDevice.FindMapperPluginByName failed to find BlockVolumeMapper plugin. Volume plugin is nil. " + what);
        BlockVolumeUnmapper unmapper;
        try {
            unmapper = plugin.newBlockVolumeUnmapper(spec.name(), "");
        } catch (VolumeException e) {
            throw new VolumeException("UnmapDevice.NewUnmapper failed " + what + ": " + e.getMessage());
        }
        List<Path> refs;
        try {
            refs = blkUtil.getDeviceBindMountRefs(globalMapPath);
        } catch (NoSuchFileException e) {
            refs = List.of(); // its set-up did not finish: torn down all the same
        } catch (IOException e) {
            throw new VolumeException("UnmapDevice.GetDeviceBindMountRefs check failed " + what + ": " + e);
        }
        if (!refs.isEmpty()) {
            throw new VolumeException("UnmapDevice failed " + what + ": the device \"" + globalMapPath
                    + "\" is still referenced from other Pods " + goList(refs));
        }
        asw.markDeviceAsUncertain(volumeName, globalMapPath);
        try {
            unmapper.tearDownDevice(globalMapPath);
        } catch (VolumeException e) {
            throw new VolumeException("UnmapDevice.TearDownDevice failed " + what + ": " + e.getMessage());
        }
        try {
            blkUtil.removeMapPath(globalMapPath);
        } catch (VolumeException e) {
            throw new VolumeException("UnmapDevice.RemoveMapPath failed " + what + ": " + e.getMessage());
        }
        log.info("UnmapDevice succeeded {}", what.strip());
        asw.markDeviceAsUnmounted(volumeName);
    }

    /** Upstream's {@code FindMapperPlugin...}: the volume's plugin when it maps block volumes. */
    private static BlockVolumePlugin mapperPlugin(VolumePlugin plugin, String step, String nilMessage)
            throws VolumeException {
        if (plugin instanceof BlockVolumePlugin p) {
            return p;
        }
        log.debug("{}: plugin {} maps no block volume", step, plugin.name());
        throw new VolumeException(nilMessage);
    }

    /** A list as Go's {@code %v} prints it. */
    private static String goList(List<Path> l) {
        return "[" + String.join(" ", l.stream().map(Path::toString).toList()) + "]";
    }
}
