package io.jkubelet.core.volumemanager.reconciler;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jkubelet.core.volume.Mounter;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumePlugin;
import io.jkubelet.core.volume.VolumePluginMgr;
import io.jkubelet.core.volume.VolumeSpec;
import io.jkubelet.core.volume.util.HostMounts;
import io.jkubelet.core.volume.util.operationexecutor.MountedVolume;
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
    /** Volumes found on disk whose reconstruction failed: cleaned up once the desired state is known, unless wanted. */
    private List<PodVolumeDirs.PodVolume> volumesFailedReconstruction = new ArrayList<>();
    private volatile boolean statesHaveBeenSynced;

    public Reconciler(DesiredStateOfWorld dsw, ActualStateOfWorld asw, OperationExecutor operations,
                      VolumePluginMgr plugins, PodDirs dirs, HostMounts mounts, BooleanSupplier populatorHasAddedPods) {
        this.dsw = dsw;
        this.asw = asw;
        this.operations = operations;
        this.plugins = plugins;
        this.dirs = dirs;
        this.mounts = mounts;
        this.populatorHasAddedPods = populatorHasAddedPods;
    }

    /** Upstream {@code StatesHasBeenSynced}: a pass has run since the start, so the actual state is complete. */
    public boolean statesHaveBeenSynced() {
        return statesHaveBeenSynced;
    }

    /** One pass (upstream {@code reconcileNew}). */
    public void reconcile() {
        boolean readyToUnmount = populatorHasAddedPods.getAsBoolean();
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
        statesHaveBeenSynced = true;
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
        for (VolumeToMount v : dsw.getVolumesToMount()) {
            switch (asw.podExistsInVolume(v.podName(), v.volumeName(), v.desiredPersistentVolumeSize())) {
                case VOLUME_NOT_ATTACHED -> {
                    // Upstream's VerifyControllerAttachedVolume: a volume whose plugin attaches nothing is taken as
                    // attached at once, and mounted in the same pass.
                    asw.markVolumeAsAttached(v.volumeName(), v.spec(), v.plugin(), v.pluginIsAttachable());
                    mount(v, false);
                }
                case NOT_MOUNTED -> mount(v, false);
                case REMOUNT_REQUIRED -> mount(v, true);
                case FS_RESIZE_REQUIRED -> expandVolume(v);
                case MOUNTED -> { }
            }
        }
    }

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
        for (PodVolumeDirs.PodVolume v : PodVolumeDirs.list(dirs)) {
            if (asw.volumeExistsWithSpecName(v.podName(), v.volumeSpecName())) {
                continue;
            }
            try {
                if (v.block()) {
                    BlockVolumeReconstruction.reconstruct(v, plugins, asw);
                } else {
                    reconstructVolume(v);
                }
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
        log.info("Volume reconstruction finished: {} volumes reconstructed, {} to check once the pods are known",
                reconstructed, volumesFailedReconstruction.size());
    }

    private void reconstructVolume(PodVolumeDirs.PodVolume v) throws VolumeException {
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
        asw.addReconstructedVolume(volumeName, v.podName(), v.volumeSpecName(), spec, plugin, mounter);
        // Its global mount too, so that it is unmounted once no pod has the volume (a CSI volume's NodeUnstageVolume).
        if (plugin.deviceMounter().isPresent()) {
            Path deviceMountPath = plugin.deviceMounter().get().deviceMountPath(spec);
            if (deviceMountPath != null && Files.exists(deviceMountPath)) {
                asw.markDeviceAsMounted(volumeName, deviceMountPath);
            }
        }
        log.debug("Reconstructed volume {} of pod {} at {}", volumeName, v.podName(), v.volumePath());
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
