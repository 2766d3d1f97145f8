package io.jkubelet.core.volumemanager.reconciler;

import io.fabric8.kubernetes.api.model.AttachedVolume;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jkubelet.core.apierrors.ApiException;
import io.jkubelet.core.volume.Mounter;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumePlugin;
import io.jkubelet.core.volume.VolumePluginMgr;
import io.jkubelet.core.volume.VolumeSpec;
import io.jkubelet.core.volume.util.HostMounts;
import io.jkubelet.core.volume.util.operationexecutor.MountedVolume;
import io.jkubelet.core.volume.util.operationexecutor.NodeReader;
import io.jkubelet.core.volume.util.operationexecutor.OperationExecutor;
import io.jkubelet.core.volume.util.operationexecutor.VolumeToMount;
import io.jkubelet.core.volumemanager.cache.ActualStateOfWorld;
import io.jkubelet.core.volumemanager.cache.DesiredStateOfWorld;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Upstream {@code reconciler} (v1.30's, with {@code NewVolumeManagerReconstruction}): brings the actual state of the world
 * to the desired one, one pass at a time. A pass unmounts what no pod wants (only once the populator has added the pods
 * every source had at start: a volume found after a restart is never unmounted under a pod that still runs), mounts what
 * pods want and is not mounted (or must be written again), expands the mounted volumes whose PersistentVolume grew,
 * unmounts the global mounts no pod uses, and cleans up the volumes found on disk that could not be reconstructed and no
 * pod wants. Before its first pass it reconstructs the volumes found mounted under the pods' directories
 * ({@link #reconstructVolumes}). Passes run on the volume manager's reconciler thread, one at a time; the operations
 * run on their own.
 */
public final class Reconciler {
    private static final Logger log = LoggerFactory.getLogger(Reconciler.class);

    private final DesiredStateOfWorld dsw;
    private final ActualStateOfWorld asw;
    private final OperationExecutor operations;
    private final VolumePluginMgr plugins;
    private final PodDirs dirs;
    private final HostMounts mounts;
    private final BooleanSupplier populatorHasAddedPods;
    /** Upstream's {@code controllerAttachDetachEnabled}: the attach/detach controller attaches (the default). */
    private final boolean controllerAttachDetachEnabled;
    /** This node's Node, for the reconstructed volumes' device paths; null on a standalone node. */
    private final NodeReader node;
    /** Volumes found on disk whose reconstruction failed: cleaned up once the desired state is known, unless wanted. */
    private List<PodVolumeDirs.PodVolume> volumesFailedReconstruction = new ArrayList<>();
    /** Reconstructed volumes whose device path and attachability the node status has not given yet. */
    private List<String> volumesNeedUpdateFromNodeStatus = List.of();
    /** Reconstructed volumes, which a previous kubelet reported in use, to mark so once the desired state is known. */
    private List<String> volumesNeedReportedInUse = List.of();
    private volatile boolean statesHaveBeenSynced;

    /**
     * @param controllerAttachDetachEnabled {@code enableControllerAttachDetach}
     * @param node this node's Node, whose {@code status.volumesAttached} gives the reconstructed volumes' device paths;
     *     null on a standalone node
     */
    public Reconciler(DesiredStateOfWorld dsw, ActualStateOfWorld asw, OperationExecutor operations,
                      VolumePluginMgr plugins, PodDirs dirs, HostMounts mounts, BooleanSupplier populatorHasAddedPods,
                      boolean controllerAttachDetachEnabled, NodeReader node) {
        this.controllerAttachDetachEnabled = controllerAttachDetachEnabled;
        this.node = node;
        this.dsw = dsw;
        this.asw = asw;
        this.operations = operations;
        this.plugins = plugins;
        this.dirs = dirs;
        this.mounts = mounts;
        this.populatorHasAddedPods = populatorHasAddedPods;
    }

    /**
     * Upstream {@code StatesHasBeenSynced}: a pass has run since the start and the reconstructed volumes have their
     * device paths from the node status, so the actual state is complete and the node status may report what is in use.
     */
    public boolean statesHaveBeenSynced() {
        return statesHaveBeenSynced;
    }

    /** One pass (upstream {@code reconcileNew}). */
    public void reconcile() {
        // Upstream's readyToUnmount: not before the reconstructed volumes' device paths are known either.
        boolean readyToUnmount = populatorHasAddedPods.getAsBoolean() && volumesNeedUpdateFromNodeStatus.isEmpty();
        if (readyToUnmount) {
            // Unmounts come first, so that a volume a deleted pod had and a new pod wants is unmounted for the old one
            // before it is mounted for the new one.
            unmountVolumes();
        }
        mountOrAttachVolumes();
        if (readyToUnmount) {
            unmountDetachDevices();
            cleanOrphanVolumes();
        }
        if (!volumesNeedUpdateFromNodeStatus.isEmpty()) {
            updateReconstructedFromNodeStatus();
        }
        if (volumesNeedUpdateFromNodeStatus.isEmpty()) {
            statesHaveBeenSynced = true;
        }
        if (!volumesNeedReportedInUse.isEmpty() && populatorHasAddedPods.getAsBoolean()) {
            // A reconstructed volume is mounted: the kubelet before the restart reported it in use. Its pods go on to
            // MountDevice and SetUp without waiting for the next node status.
            dsw.markVolumesReportedInUse(volumesNeedReportedInUse);
            volumesNeedReportedInUse = List.of();
        }
    }

    private void unmountVolumes() {
        for (MountedVolume v : asw.getAllMountedVolumes()) {
            if (!dsw.podExistsInVolume(v.podName(), v.volumeName())) {
                log.debug("{}", v.detailedMessage("operationExecutor.UnmountVolume started", ""));
                operations.unmountVolume(v, asw);
            }
        }
    }

    private void mountOrAttachVolumes() {
        for (VolumeToMount desired : dsw.getVolumesToMount()) {
            var state = asw.podExistsInVolume(desired.podName(), desired.volumeName(),
                    desired.desiredPersistentVolumeSize());
            VolumeToMount v = desired.withDevicePath(asw.devicePath(desired.volumeName()));
            switch (state) {
                case VOLUME_NOT_ATTACHED -> waitForVolumeAttach(v);
                case NOT_MOUNTED -> mount(v, false);
                case REMOUNT_REQUIRED -> mount(v, true);
                case FS_RESIZE_REQUIRED -> expandVolume(v);
                case MOUNTED -> { }
            }
        }
    }

    /**
     * Upstream {@code waitForVolumeAttach}: the attach/detach controller attaches, the kubelet verifies
     * ({@link OperationExecutor#verifyControllerAttachedVolume}); an attachable volume not yet reported in use is not
     * even verified (no back-off to wait out once the node status has it). A kubelet that is to attach itself
     * ({@code enableControllerAttachDetach: false}) would create the volume's VolumeAttachment, which this one does
     * not: the pod's wait ends with why.
     */
    private void waitForVolumeAttach(VolumeToMount v) {
        if (controllerAttachDetachEnabled || !v.pluginIsAttachable()) {
            if (v.pluginIsAttachable() && !v.reportedInUse()) {
                log.trace("{}", v.detailedMessage("operationExecutor.VerifyControllerAttachedVolume failed",
                        " volume not marked in-use"));
                return;
            }
            log.trace("{}", v.detailedMessage("Starting operationExecutor.VerifyControllerAttachedVolume", ""));
            operations.verifyControllerAttachedVolume(v, asw);
            return;
        }
        dsw.addErrorToPod(v.podName(), KUBELET_ATTACH_UNSUPPORTED.formatted(v.spec().name()));
    }

    /** Why an attachable volume is not mounted with {@code enableControllerAttachDetach: false}. */
    static final String KUBELET_ATTACH_UNSUPPORTED = "volume \"%s\" is attachable and enableControllerAttachDetach is "
            + "false: the kubelet would attach it itself, which jkubelet does not do; set enableControllerAttachDetach "
            + "to true so that the attach/detach controller attaches it";

    /** Upstream {@code expandVolume}: the mounted volume's file system grown to its PersistentVolume's capacity. */
    private void expandVolume(VolumeToMount v) {
        log.debug("{}", v.detailedMessage("Starting operationExecutor.ExpandInUseVolume", ""));
        operations.expandInUseVolume(v, asw, asw.getClaimSize(v.volumeName()));
    }

    private void mount(VolumeToMount v, boolean isRemount) {
        log.debug("{}", v.detailedMessage("operationExecutor.MountVolume started", isRemount ? "(remount)" : ""));
        operations.mountVolume(v, asw, isRemount);
    }

    /** Upstream {@code unmountDetachDevices}: a volume no pod has mounted and none wants leaves the node's state. */
    private void unmountDetachDevices() {
        for (ActualStateOfWorld.UnmountedVolume v : asw.getUnmountedVolumes()) {
            if (dsw.volumeExists(v.volumeName()) || operations.isOperationPending(v.volumeName(), "")) {
                continue;
            }
            if (v.plugin().deviceMounter().isPresent() && v.deviceMountPath() != null) {
                operations.unmountDevice(v.volumeName(), v.spec(), v.plugin(), v.deviceMountPath(), asw);
            } else {
                asw.markVolumeAsDetached(v.volumeName());
            }
        }
    }

    /**
     * Upstream {@code reconstructVolumes}: each volume found mounted under a pod's directory is added to the actual state
     * as perhaps mounted, so that it is set up again if its pod still wants it, torn down if not. One that cannot be
     * reconstructed (no plugin, not mounted, a spec the plugin cannot make) is remembered for
     * {@link #cleanOrphanVolumes}.
     */
    public void reconstructVolumes() {
        int reconstructed = 0;
        List<String> reconstructedNames = new ArrayList<>();
        for (PodVolumeDirs.PodVolume v : PodVolumeDirs.list(dirs)) {
            if (asw.volumeExistsWithSpecName(v.podName(), v.volumeSpecName())) {
                continue;
            }
            try {
                reconstructedNames.add(v.block() ? BlockVolumeReconstruction.reconstruct(v, plugins, asw)
                        : reconstructVolume(v));
                reconstructed++;
            } catch (VolumeException e) {
                log.info("Could not construct volume information: podName={} volumeSpecName={} err={}", v.podName(),
                        v.volumeSpecName(), e.getMessage());
                if (!v.block()) {
                    // A block volume's link that cannot be reconstructed is removed with its pod's directory.
                    volumesFailedReconstruction.add(v);
                }
            }
        }
        if (!reconstructedNames.isEmpty()) {
            volumesNeedReportedInUse = List.copyOf(reconstructedNames);
            volumesNeedUpdateFromNodeStatus = List.copyOf(reconstructedNames);
        }
        log.info("Volume reconstruction finished: {} volumes reconstructed, {} to check once the pods are known",
                reconstructed, volumesFailedReconstruction.size());
    }

    /**
     * Upstream {@code reconstructVolume} and {@code updateStates} for one pod's volume: the volume on the node with its
     * attachability uncertain, perhaps mounted for the pod, its global mount perhaps there.
     *
     * @return the volume's unique name
     */
    private String reconstructVolume(PodVolumeDirs.PodVolume v) throws VolumeException {
        VolumePlugin plugin = plugins.findPluginByName(v.pluginName());
        VolumeSpec spec = plugin.constructVolumeSpec(v.volumeSpecName(), v.volumePath());
        Pod pod = placeholderPod(v.podName());
        Mounter mounter = plugin.newMounter(spec, pod);
        // Upstream's CheckVolumeExistenceOperation on the mounter's path: only what is mounted there is reconstructed
        // (a CSI volume is mounted at <volume dir>/mount, every other one at its volume directory).
        if (!mounts.isMountPoint(mounter.path())) {
            throw new VolumeException("volume: \"" + v.volumeSpecName() + "\" is not mounted");
        }
        String volumeName = DesiredStateOfWorld.uniqueVolumeName(plugin, v.podName(), spec);
        asw.addAttachUncertainReconstructedVolume(volumeName, spec, plugin);
        asw.markVolumeAsUncertainViaReconstruction(volumeName, v.podName(), v.volumeSpecName(), spec, mounter, null);
        // Its global mount too, perhaps there: mounted again for a pod that wants the volume (a CSI volume's
        // NodeStageVolume, idempotent), unmounted once none does (NodeUnstageVolume). A global path that is not there
        // is surely not mounted.
        if (plugin.deviceMounter().isPresent()) {
            Path deviceMountPath = plugin.deviceMounter().get().deviceMountPath(spec);
            if (deviceMountPath != null && Files.exists(deviceMountPath)) {
                asw.markDeviceAsUncertain(volumeName, deviceMountPath);
            }
        }
        log.debug("Reconstructed volume {} of pod {} at {}", volumeName, v.podName(), v.volumePath());
        return volumeName;
    }

    /**
     * Upstream {@code updateReconstructedFromNodeStatus}: the reconstructed volumes' device paths and attachability from
     * the node's {@code status.volumesAttached}, once the Node can be read (tried at each pass until then); skipped on a
     * standalone node, which has no attachable volume.
     */
    private void updateReconstructedFromNodeStatus() {
        if (node == null) {
            log.info("Skipped reconstruction of DevicePaths from node.status in standalone mode");
            volumesNeedUpdateFromNodeStatus = List.of();
            return;
        }
        List<AttachedVolume> attached;
        try {
            attached = node.volumesAttached();
        } catch (ApiException e) {
            log.debug("Failed to get Node status to reconstruct device paths: {}", e.getMessage());
            return;
        }
        for (String volumeName : volumesNeedUpdateFromNodeStatus) {
            boolean attachable = false;
            for (AttachedVolume a : attached) {
                if (volumeName.equals(a.getName())) {
                    asw.updateReconstructedDevicePath(volumeName, a.getDevicePath() == null ? "" : a.getDevicePath());
                    attachable = true;
                }
            }
            asw.updateReconstructedVolumeAttachability(volumeName, attachable);
        }
        log.info("DevicePaths of reconstructed volumes updated");
        volumesNeedUpdateFromNodeStatus = List.of();
    }

    /** The pod a reconstructed volume belongs to, known by its UID only. */
    private static Pod placeholderPod(String uid) {
        return new PodBuilder().withNewMetadata().withUid(uid).withName(uid).endMetadata().withNewSpec().endSpec().build();
    }

    /** Upstream {@code cleanOrphanVolumes}: once, after the desired state is known. */
    private void cleanOrphanVolumes() {
        if (volumesFailedReconstruction.isEmpty()) {
            return;
        }
        for (PodVolumeDirs.PodVolume v : volumesFailedReconstruction) {
            if (dsw.volumeExistsWithSpecName(v.podName(), v.volumeSpecName())) {
                // Its pod still wants it: the pass mounts it again as any other.
                continue;
            }
            log.info("Cleaning up mounts for volume that could not be reconstructed: podName={} volumeSpecName={}",
                    v.podName(), v.volumeSpecName());
            try {
                VolumePlugin plugin = plugins.findPluginByName(v.pluginName());
                VolumeSpec spec = plugin.constructVolumeSpec(v.volumeSpecName(), v.volumePath());
                // Its unique name does not matter: the actual state has nothing of it.
                operations.unmountVolume(new MountedVolume(v.volumeSpecName(), v.podName(), v.volumeSpecName(),
                        v.volumeSpecName(), plugin, spec, null, "", true), asw);
            } catch (VolumeException e) {
                log.error("Cannot clean up volume {} of pod {}: {}", v.volumeSpecName(), v.podName(), e.getMessage());
            }
        }
        volumesFailedReconstruction = new ArrayList<>();
    }
}
