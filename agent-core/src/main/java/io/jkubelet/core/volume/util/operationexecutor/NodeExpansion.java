package io.jkubelet.core.volume.util.operationexecutor;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.apierrors.ApiException;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.objects.PersistentVolumeClient;
import io.jkubelet.core.volume.FailedPreconditionException;
import io.jkubelet.core.volume.Mounter;
import io.jkubelet.core.volume.NodeExpandable;
import io.jkubelet.core.volume.NodeResizeOptions;
import io.jkubelet.core.volume.OperationNotSupportedException;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.util.ResizeUtil;

import static io.jkubelet.core.volume.util.ResizeUtil.isZero;
import static io.jkubelet.core.volume.util.ResizeUtil.storage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;

/**
 * Upstream {@code operationGenerator}'s node expansion of a claim's volume whose PersistentVolume grew past the claim's
 * {@code status.capacity} (the resize controller grew the volume and left the file system to the node): as the volume
 * is mounted ({@code expandVolumeDuringMount}) and while it is in use ({@code GenerateExpandInUseVolumeFunc}), its
 * plugin's {@code NodeExpand}, then upstream's events ({@code FileSystemResizeSuccessful} on the pod and the claim) and
 * the claim's status patched ({@code MarkFSResizeFinished}).
 *
 * <p>v1.30's path with its default, {@code RecoverVolumeExpansionFailure} off ({@code legacyCallNodeExpandOnPlugin}):
 * the sizes alone decide; the claim's {@code FileSystemResizePending} condition (all a v1.20 resize controller sets) and
 * v1.30's {@code allocatedResourceStatuses} are not read, and the condition is removed once the file system grew. A
 * plugin that cannot expand (a CSI driver without {@code EXPAND_VOLUME}) and a driver that cannot while the volume is
 * in use ({@code FailedPrecondition}) end the expansion as done, without event. Thread-safe.
 */
final class NodeExpansion {
    private static final Logger log = LoggerFactory.getLogger(NodeExpansion.class);
    /** Upstream's {@code events.FileSystemResizeSuccess}. */
    static final String FILE_SYSTEM_RESIZE_SUCCESS = "FileSystemResizeSuccessful";
    /** Upstream's {@code events.FileSystemResizeFailed}: a read-only volume is not expanded. */
    static final String FILE_SYSTEM_RESIZE_FAILED = "FileSystemResizeFailed";
    /** Upstream's {@code events.VolumeResizeFailed}: an in-use expansion failed. */
    static final String VOLUME_RESIZE_FAILED = "VolumeResizeFailed";

    private final PersistentVolumeClient claims;
    private final EventRecorder recorder;

    NodeExpansion(PersistentVolumeClient claims, EventRecorder recorder) {
        this.claims = claims;
        this.recorder = recorder;
    }

    /**
     * Upstream {@code expandVolumeDuringMount}, after the volume was set up for the pod: the claim read, and the volume
     * grown when its PersistentVolume is larger than the claim's {@code status.capacity}.
     *
     * @throws VolumeException the claim could not be read or patched, or the plugin failed: the mount fails
     */
    void expandVolumeDuringMount(VolumeToMount volume, ActualStateOfWorldMounterUpdater asw, Mounter mounter)
            throws VolumeException {
        NodeExpandable plugin = supportsNodeExpansion(volume);
        if (plugin == null) {
            return;
        }
        PersistentVolume pv = volume.spec().persistentVolume();
        PersistentVolumeClaim pvc = getClaim(pv);
        Quantity pvcStatusCap = storage(pvc.getStatus() == null ? null : pvc.getStatus().getCapacity());
        Quantity pvSpecCap = storage(pv.getSpec().getCapacity());
        if (pvcStatusCap.compareTo(pvSpecCap) >= 0) {
            return;
        }
        if (volume.spec().readOnly()) {
            readOnlyNotExpanded(volume, pvc);
            return;
        }
        legacyCallNodeExpandOnPlugin(volume, asw, plugin, pvc,
                new NodeResizeOptions(volume.spec(), mounter.path(), deviceStagePath(volume), pvSpecCap, pvcStatusCap));
    }

    /**
     * Upstream {@code GenerateExpandInUseVolumeFunc}: the mounted volume grown from {@code currentSize} (what the
     * actual state knows it has) to its PersistentVolume's capacity, then marked so in the actual state. A failure
     * records {@code VolumeResizeFailed} on the pod and is tried again after the operation's back-off.
     */
    void expandInUseVolume(VolumeToMount volume, ActualStateOfWorldMounterUpdater asw, Quantity currentSize)
            throws VolumeException {
        Quantity newSize = volume.desiredPersistentVolumeSize();
        if (isZero(currentSize) || isZero(newSize)) {
            throw resizeFailed(volume, "NodeExpandvolume.expansion failed", "current or new size of the volume is not set");
        }
        Mounter mounter;
        try {
            mounter = volume.plugin().newMounter(volume.spec(), volume.pod());
        } catch (VolumeException e) {
            throw resizeFailed(volume, "NodeExpandVolume.NewMounter initialization failed", e.getMessage());
        }
        NodeResizeOptions options = new NodeResizeOptions(volume.spec(), mounter.path(), deviceStagePath(volume), newSize,
                currentSize);
        // Upstream's doOnlineExpansion: the volume is published already.
        try {
            nodeExpandVolume(volume, asw, options);
        } catch (VolumeException e) {
            throw resizeFailed(volume, "NodeExpandVolume.NodeExpandVolume failed", e.getMessage());
        }
        asw.markVolumeAsResized(volume.volumeName(), newSize);
    }

    /** Upstream {@code nodeExpandVolume}: the sizes the caller gives compared, the claim read, the plugin called. */
    private void nodeExpandVolume(VolumeToMount volume, ActualStateOfWorldMounterUpdater asw, NodeResizeOptions options)
            throws VolumeException {
        NodeExpandable plugin = supportsNodeExpansion(volume);
        if (plugin == null || options.newSize().compareTo(options.oldSize()) <= 0) {
            return;
        }
        PersistentVolumeClaim pvc = getClaim(volume.spec().persistentVolume());
        if (volume.spec().readOnly()) {
            readOnlyNotExpanded(volume, pvc);
            return;
        }
        legacyCallNodeExpandOnPlugin(volume, asw, plugin, pvc, options);
    }

    /**
     * Upstream {@code legacyCallNodeExpandOnPlugin}: the plugin's {@code NodeExpand}; on success the events and, unless
     * the claim has the new size already (another node grew a shared volume), the claim's status.
     */
    private void legacyCallNodeExpandOnPlugin(VolumeToMount volume, ActualStateOfWorldMounterUpdater asw,
                                              NodeExpandable plugin, PersistentVolumeClaim pvc, NodeResizeOptions options)
            throws VolumeException {
        log.debug("{}", volume.detailedMessage("MountVolume.NodeExpandVolume entering", ""));
        try {
            plugin.nodeExpand(options);
        } catch (OperationNotSupportedException e) {
            log.debug("{}", volume.detailedMessage("MountVolume.NodeExpandVolume failed", "NodeExpandVolume not supported"));
            return;
        } catch (FailedPreconditionException e) {
            asw.markForInUseExpansionError(volume.volumeName());
            log.error("{}", volume.detailedMessage("MountVolume.NodeExapndVolume failed", ": " + e.getMessage()));
            return;
        }
        String nodeName = volume.pod().getSpec() == null || volume.pod().getSpec().getNodeName() == null ? ""
                : volume.pod().getSpec().getNodeName();
        String message = volume.simpleMessage("MountVolume.NodeExpandVolume succeeded", nodeName);
        recorder.event(References.pod(volume.pod()), EventRecorder.NORMAL, FILE_SYSTEM_RESIZE_SUCCESS, message);
        recorder.event(References.claim(pvc), EventRecorder.NORMAL, FILE_SYSTEM_RESIZE_SUCCESS, message);
        log.info("{}", volume.detailedMessage("MountVolume.NodeExpandVolume succeeded", nodeName));
        Quantity pvcStatusCap = storage(pvc.getStatus() == null ? null : pvc.getStatus().getCapacity());
        if (pvcStatusCap.compareTo(options.newSize()) >= 0) {
            return;
        }
        try {
            ResizeUtil.markFsResizeFinished(pvc, options.newSize(), claims);
        } catch (VolumeException e) {
            // Tried again: NodeExpandVolume is called again, and does nothing to a file system already grown.
            throw new VolumeException("mountVolume.NodeExpandVolume update PVC status failed : " + e.getMessage());
        }
    }

    /** Upstream's answer to a read-only volume: not expanded, said on the pod and the claim, and taken as done. */
    private void readOnlyNotExpanded(VolumeToMount volume, PersistentVolumeClaim pvc) {
        String suffix = "requested read-only file system";
        log.warn("{}", volume.detailedMessage("MountVolume.NodeExpandVolume failed", suffix));
        String message = volume.simpleMessage("MountVolume.NodeExpandVolume failed", suffix);
        recorder.event(References.pod(volume.pod()), EventRecorder.WARNING, FILE_SYSTEM_RESIZE_FAILED, message);
        recorder.event(References.claim(pvc), EventRecorder.WARNING, FILE_SYSTEM_RESIZE_FAILED, message);
    }

    /**
     * Upstream {@code checkIfSupportsNodeExpansion}: a PersistentVolume whose plugin grows volumes on the node.
     *
     * @return the plugin's expander, or null when the volume is not expanded on the node
     */
    private static NodeExpandable supportsNodeExpansion(VolumeToMount volume) {
        if (volume.spec().persistentVolume() == null) {
            return null;
        }
        return volume.plugin().nodeExpandable().filter(NodeExpandable::requiresFsResize).orElse(null);
    }

    /** The global mount path the plugin gives the volume (upstream's {@code DeviceStagePath}); null when none. */
    private static Path deviceStagePath(VolumeToMount volume) {
        return volume.plugin().deviceMounter().map(d -> d.deviceMountPath(volume.spec())).orElse(null);
    }

    /** The claim the PersistentVolume is bound to, as the apiserver has it now. */
    private PersistentVolumeClaim getClaim(PersistentVolume pv) throws VolumeException {
        var ref = pv.getSpec().getClaimRef();
        PersistentVolumeClaim pvc;
        try {
            pvc = claims.getPersistentVolumeClaim(ref.getNamespace(), ref.getName());
        } catch (ApiException e) {
            String why = e.status().map(s -> s.getMessage()).filter(m -> m != null && !m.isEmpty()).orElse(e.getMessage());
            throw new VolumeException("mountVolume.NodeExpandVolume get PVC failed : " + why);
        }
        if (pvc == null) {
            throw new VolumeException("mountVolume.NodeExpandVolume get PVC failed : persistentvolumeclaims \""
                    + ref.getName() + "\" not found");
        }
        return pvc;
    }

    /** Records the in-use expansion's {@code VolumeResizeFailed} and returns the error that backs the operation off. */
    private VolumeException resizeFailed(VolumeToMount volume, String prefix, String why) {
        recorder.event(References.pod(volume.pod()), EventRecorder.WARNING, VOLUME_RESIZE_FAILED,
                volume.simpleMessage(prefix, ": " + why));
        return new VolumeException(volume.detailedMessage(prefix, ": " + why));
    }
}
