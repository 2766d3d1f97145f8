package io.jkubelet.core.volume.util.operationexecutor;

import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.objects.PersistentVolumeClient;
import io.jkubelet.core.volume.DeviceMounter;
import io.jkubelet.core.volume.Mounter;
import io.jkubelet.core.volume.MounterArgs;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.UncertainProgressException;
import io.jkubelet.core.volume.Unmounter;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumePlugin;
import io.jkubelet.core.volume.VolumeSpec;
import io.jkubelet.core.volume.util.operationexecutor.ActualStateOfWorldMounterUpdater.DeviceMountState;
import io.jkubelet.core.volume.util.operationexecutor.ActualStateOfWorldMounterUpdater.VolumeMountState;
import io.jkubelet.core.volume.util.subpath.SubpathException;
import io.jkubelet.core.volume.util.subpath.Subpather;
import io.jkubelet.core.volume.util.volumepathhandler.BlockVolumePathHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;

/**
 * Upstream {@code operationexecutor} with its {@code operationGenerator}: starts the mounts, unmounts and in-use
 * expansions the reconciler decides on, one at a time per volume and pod ({@link NestedPendingOperations}), and records
 * what they did in the actual state of the world. A claim's volume is grown on the node as it is mounted and while in
 * use when its PersistentVolume grew ({@link NodeExpansion}). A mount that fails records upstream's {@code FailedMount}
 * event on the pod ({@code MountVolume.SetUp failed for volume "x" : <why>}); an unmount that fails is logged only, as
 * upstream's. A raw block volume ({@code volumeMode: Block}) is mapped and unmapped instead
 * ({@link BlockVolumeOperations}), as upstream's {@code MountVolume}, {@code UnmountVolume} and {@code UnmountDevice}
 * choose by the spec's volume mode. Thread-safe.
 */
public final class OperationExecutor {
    private static final Logger log = LoggerFactory.getLogger(OperationExecutor.class);
    /** Upstream's {@code events.FailedMountVolume}. */
    public static final String FAILED_MOUNT = "FailedMount";
    /** Upstream's {@code events.FailedMapVolume}: a raw block volume's map failed. */
    public static final String FAILED_MAP_VOLUME = "FailedMapVolume";

    private final NestedPendingOperations pending;
    private final EventRecorder recorder;
    private final NodeExpansion expansion;
    private final PodDirs dirs;
    private final Subpather subpather;
    private final BlockVolumeOperations block;
    private final VerifyControllerAttachedVolume verifyAttached;

    /**
     * @param claims the apiserver's claims, read and patched by the node expansion of their volumes
     * @param subpather unmounts a volume's subPath mounts under {@code dirs}' pod directories before its teardown
     * @param blkUtil the block volumes' map files and loop devices (upstream's {@code blkUtil})
     * @param node this node's Node, whose {@code status.volumesAttached} says what the attach/detach controller attached;
     *     null on a standalone node
     */
    public OperationExecutor(NestedPendingOperations pending, EventRecorder recorder, PersistentVolumeClient claims,
                             PodDirs dirs, Subpather subpather, BlockVolumePathHandler blkUtil, NodeReader node) {
        this.pending = pending;
        this.recorder = recorder;
        this.expansion = new NodeExpansion(claims, recorder);
        this.dirs = dirs;
        this.subpather = subpather;
        this.block = new BlockVolumeOperations(recorder, blkUtil);
        this.verifyAttached = new VerifyControllerAttachedVolume(node);
    }

    /** Whether an operation on the volume for the pod (or on the whole volume, for "") is under way. */
    public boolean isOperationPending(String volumeName, String podName) {
        return pending.isOperationPending(volumeName, podName);
    }

    /**
     * Upstream {@code VerifyControllerAttachedVolume}: the volume is marked attached once the attach/detach controller
     * attached it ({@link VerifyControllerAttachedVolume}); one operation on the volume at a time, whatever the pod.
     */
    public void verifyControllerAttachedVolume(VolumeToMount volume, ActualStateOfWorldAttacherUpdater asw) {
        pending.run(volume.volumeName(), "", "verify_controller_attached_volume", () -> verifyAttached.verify(volume, asw));
    }

    /**
     * Mounts the volume for its pod (upstream {@code MountVolume}): its attachment checked when it is attached to the
     * node, its global mount when it has one, then the pod's. Volumes pods can share are mounted for one pod at a time.
     *
     * @param isRemount the volume is mounted already and set up again (its content follows objects that change)
     */
    public void mountVolume(VolumeToMount volume, ActualStateOfWorldMounterUpdater asw, boolean isRemount) {
        String podKey = volume.pluginIsAttachable() || volume.pluginIsDeviceMountable() ? "" : volume.podName();
        if (volume.spec().isBlock()) {
            pending.run(volume.volumeName(), podKey, "map_volume", () -> block.mapVolume(volume, asw));
            return;
        }
        pending.run(volume.volumeName(), podKey, "volume_mount", () -> mount(volume, asw, isRemount));
    }

    private void mount(VolumeToMount volume, ActualStateOfWorldMounterUpdater asw, boolean isRemount) throws VolumeException {
        VolumePlugin plugin = volume.plugin();
        Mounter mounter;
        try {
            mounter = plugin.newMounter(volume.spec(), volume.pod());
        } catch (VolumeException e) {
            throw failed(volume, "MountVolume.NewMounter initialization failed", e);
        }
        // Upstream's order: the attachment checked, then the node's global mount, then the pod's.
        var attacher = plugin.attacher(volume.spec());
        String devicePath = volume.devicePath();
        if (attacher.isPresent()) {
            log.info("{}", volume.detailedMessage("MountVolume.WaitForAttach entering", "DevicePath \"" + devicePath + "\""));
            try {
                devicePath = attacher.get().waitForAttach(volume.spec(), devicePath, volume.pod());
            } catch (VolumeException e) {
                throw failed(volume, "MountVolume.WaitForAttach failed", e);
            }
            log.info("{}", volume.detailedMessage("MountVolume.WaitForAttach succeeded", "DevicePath \"" + devicePath + "\""));
        }
        // Once for the node: a volume another pod has mounted is globally mounted already (upstream's device mount state).
        if (plugin.deviceMounter().isPresent()
                && asw.getDeviceMountState(volume.volumeName()) != DeviceMountState.GLOBALLY_MOUNTED) {
            DeviceMounter deviceMounter = plugin.deviceMounter().get();
            try {
                deviceMounter.mountDevice(volume.spec(), devicePath);
            } catch (VolumeException e) {
                markDeviceErrorState(volume, deviceMounter.deviceMountPath(volume.spec()), e, asw);
                throw failed(volume, "MountVolume.MountDevice failed", e);
            }
            asw.markDeviceAsMounted(volume.volumeName(), deviceMounter.deviceMountPath(volume.spec()));
        }
        try {
            mounter.setUp(MounterArgs.of(volume.pod()));
        } catch (VolumeException e) {
            markVolumeErrorState(volume, e, asw, () -> asw.markVolumeMountAsUncertain(volume, mounter));
            throw failed(volume, "MountVolume.SetUp failed", e);
        }
        try {
            expansion.expandVolumeDuringMount(volume, asw, mounter);
        } catch (VolumeException e) {
            log.error("MountVolume.NodeExpandVolume failed with {}", e.getMessage());
            // Set up but not grown: perhaps mounted, so that its pod does not start on it yet and it is torn down if
            // the pod goes first; the next try sets it up again and expands it.
            asw.markVolumeMountAsUncertain(volume, mounter);
            throw failed(volume, "MountVolume.Setup failed while expanding volume", e);
        }
        String done = volume.detailedMessage("MountVolume.SetUp succeeded", "");
        if (isRemount) {
            log.debug("{}", done);
        } else {
            log.info("{}", done);
        }
        asw.markVolumeAsMounted(volume, mounter);
    }

    /**
     * Upstream {@code markDeviceErrorState}: a global mount that surely failed is not there (unless it was uncertain
     * before, it was not); one without a final answer may be, and is unmounted once no pod wants the volume. A
     * transient failure changes nothing.
     */
    static void markDeviceErrorState(VolumeToMount volume, Path deviceMountPath, VolumeException e,
                                             ActualStateOfWorldMounterUpdater asw) {
        DeviceMountState state = asw.getDeviceMountState(volume.volumeName());
        if (VolumeException.isOperationFinished(e) && state == DeviceMountState.UNCERTAIN) {
            asw.markDeviceAsUnmounted(volume.volumeName());
        } else if (e instanceof UncertainProgressException && state == DeviceMountState.NOT_MOUNTED
                && deviceMountPath != null) {
            asw.markDeviceAsUncertain(volume.volumeName(), deviceMountPath);
        }
    }

    /**
     * Upstream {@code markVolumeErrorState}: a set-up that surely failed leaves a volume found after a restart as it was
     * (perhaps mounted: it is torn down if its pod is gone), and one left uncertain otherwise is taken as not mounted; a
     * set-up without a final answer leaves the volume perhaps mounted, torn down if its pod goes first. A transient
     * failure changes nothing.
     *
     * @param markUncertain marks the volume perhaps mounted (or mapped) for the pod
     */
    static void markVolumeErrorState(VolumeToMount volume, VolumeException e, ActualStateOfWorldMounterUpdater asw,
                                     Runnable markUncertain) {
        VolumeMountState state = asw.getVolumeMountState(volume.volumeName(), volume.podName());
        if (VolumeException.isOperationFinished(e) && state == VolumeMountState.UNCERTAIN
                && !asw.isVolumeReconstructed(volume.podName(), volume.volumeName())) {
            asw.markVolumeAsUnmounted(volume.podName(), volume.volumeName());
        } else if (e instanceof UncertainProgressException && state == VolumeMountState.NOT_MOUNTED) {
            markUncertain.run();
        }
    }

    /** Records the mount's {@code FailedMount} event and returns the error that backs the operation off. */
    private VolumeException failed(VolumeToMount volume, String prefix, VolumeException cause) {
        return failed(recorder, FAILED_MOUNT, volume, prefix, cause);
    }

    /** Records the operation's warning event {@code reason} and returns the error that backs the operation off. */
    static VolumeException failed(EventRecorder recorder, String reason, VolumeToMount volume, String prefix,
                                  VolumeException cause) {
        String message = volume.simpleMessage(prefix, ": " + cause.getMessage());
        recorder.event(References.pod(volume.pod()), EventRecorder.WARNING, reason, message);
        return new VolumeException(volume.detailedMessage(prefix, ": " + cause.getMessage()));
    }

    /**
     * Grows the mounted volume's file system to its PersistentVolume's capacity (upstream {@code ExpandInUseVolume}),
     * one operation on the volume at a time; a failure records {@code VolumeResizeFailed} and backs off.
     *
     * @param currentSize what the actual state knows the volume's file system has
     */
    public void expandInUseVolume(VolumeToMount volume, ActualStateOfWorldMounterUpdater asw, Quantity currentSize) {
        pending.run(volume.volumeName(), "", "volume_fs_resize",
                () -> expansion.expandInUseVolume(volume, asw, currentSize));
    }

    /**
     * Tears the volume down for its pod (upstream {@code UnmountVolume}), its containers' subPath mounts first (upstream's
     * {@code CleanSubPaths}: a subPath mount must not outlive its volume, nor keep a file system it holds busy). A
     * teardown that fails leaves the volume uncertain, so that it is torn down again, and a pod that wants it again sets
     * it up afresh; subPath mounts that cannot be cleaned leave it as it is, tried again after the back-off.
     */
    public void unmountVolume(MountedVolume volume, ActualStateOfWorldMounterUpdater asw) {
        if (volume.spec() != null && volume.spec().isBlock()) {
            pending.run(volume.volumeName(), volume.podName(), "unmap_volume", () -> block.unmapVolume(volume, asw));
            return;
        }
        pending.run(volume.volumeName(), volume.podName(), "volume_unmount", () -> {
            try {
                subpather.cleanSubPaths(dirs.podDir(volume.podName()), volume.innerVolumeSpecName());
            } catch (SubpathException e) {
                throw new VolumeException(volume.detailedMessage("error cleaning subPath mounts", ": " + e.getMessage()));
            }
            Unmounter unmounter;
            try {
                unmounter = volume.plugin().newUnmounter(volume.innerVolumeSpecName(), volume.podName());
                unmounter.tearDown();
            } catch (VolumeException e) {
                asw.markVolumeMountAsUncertain(volume.podName(), volume.volumeName());
                throw new VolumeException(volume.detailedMessage("UnmountVolume.TearDown failed", ": " + e.getMessage()));
            }
            log.info("UnmountVolume.TearDown succeeded for volume \"{}\" (OuterVolumeSpecName: \"{}\") pod \"{}\" "
                            + "(UID: \"{}\"). InnerVolumeSpecName \"{}\". PluginName \"{}\", VolumeGIDValue \"{}\"",
                    volume.volumeName(), volume.outerVolumeSpecName(), volume.podName(), volume.podName(),
                    volume.innerVolumeSpecName(), volume.plugin().name(),
                    volume.volumeGidValue() == null ? "" : volume.volumeGidValue());
            asw.markVolumeAsUnmounted(volume.podName(), volume.volumeName());
        });
    }

    /**
     * Upstream {@code UnmountDevice}: a raw block volume's device is unmapped (its global map path), any other volume's
     * global mount unmounted, once no pod has the volume; the volume then leaves the node's state.
     */
    public void unmountDevice(String volumeName, VolumeSpec spec, VolumePlugin plugin, Path deviceMountPath,
                              ActualStateOfWorldMounterUpdater asw) {
        if (spec.isBlock()) {
            pending.run(volumeName, "", "unmap_device",
                    () -> block.unmapDevice(volumeName, spec, plugin, deviceMountPath, asw));
            return;
        }
        unmountDevice(volumeName, spec.name(), plugin, deviceMountPath, asw);
    }

    /**
     * Unmounts a volume's global mount once no pod has it mounted (upstream {@code UnmountDevice}); the volume then
     * leaves the node's state.
     */
    public void unmountDevice(String volumeName, String specName, VolumePlugin plugin, Path deviceMountPath,
                              ActualStateOfWorldMounterUpdater asw) {
        DeviceMounter deviceMounter = plugin.deviceMounter().orElseThrow();
        pending.run(volumeName, "", "unmount_device", () -> {
            try {
                deviceMounter.unmountDevice(specName, deviceMountPath);
            } catch (VolumeException e) {
                throw new VolumeException("UnmountDevice failed for volume \"" + specName + "\" (UniqueName: \""
                        + volumeName + "\") : " + e.getMessage());
            }
            log.info("UnmountDevice succeeded for volume \"{}\" (UniqueName: \"{}\") on node", specName, volumeName);
            asw.markDeviceAsUnmounted(volumeName);
        });
    }
}
