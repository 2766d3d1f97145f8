package io.jkubelet.core.volumemanager.cache;

import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.volume.BlockVolumeMapper;
import io.jkubelet.core.volume.Mounter;
import io.jkubelet.core.volume.NodeExpandable;
import io.jkubelet.core.volume.VolumePlugin;
import io.jkubelet.core.volume.VolumeSpec;
import io.jkubelet.core.volume.util.ResizeUtil;
import io.jkubelet.core.volume.util.operationexecutor.ActualStateOfWorldAttacherUpdater;
import io.jkubelet.core.volume.util.operationexecutor.ActualStateOfWorldMounterUpdater;
import io.jkubelet.core.volume.util.operationexecutor.MountedVolume;
import io.jkubelet.core.volume.util.operationexecutor.VolumeToMount;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The volumes the node has, and for which pods each is mounted (upstream {@code cache.ActualStateOfWorld}): written by
 * the operations as they finish and by the reconstruction after a restart, read by the reconciler, the pods' syncs and
 * the stats. A pod's mount is mounted or uncertain (found on disk after a restart, a set-up without a final answer, or
 * a teardown that failed): an uncertain one is set up again if its pod wants it, torn down if not. A volume's global
 * mount is mounted or uncertain alike (a stage without a final answer): mounted again for a pod, unmounted once no pod
 * wants the volume. A raw block volume is held the same way, mapped rather than mounted: its pods' entries carry the
 * block mapper, its global mount is its global map path. Each change wakes whoever waits on {@link #changes()}.
 * Thread-safe.
 */
public final class ActualStateOfWorld implements ActualStateOfWorldMounterUpdater, ActualStateOfWorldAttacherUpdater {
    /** What the reconciler finds of a pod's volume (upstream {@code PodExistsInVolume}'s answers). */
    public enum PodVolumeState {
        /**
         * The volume is not on the node yet (upstream's {@code volumeNotAttachedError}): the reconciler verifies that
         * it is attached first (a volume whose plugin attaches nothing is at once).
         */
        VOLUME_NOT_ATTACHED,
        /** On the node, not mounted (or perhaps mounted) for the pod. */
        NOT_MOUNTED,
        MOUNTED,
        /** Mounted, and its content must be written again. */
        REMOUNT_REQUIRED,
        /**
         * Mounted, and its PersistentVolume grew past the size its file system has (upstream's
         * {@code FsResizeRequiredError}): expanded while in use.
         */
        FS_RESIZE_REQUIRED
    }

    /**
     * A volume on the node with no pod mounting it (upstream {@code AttachedVolume}), for its global unmount.
     *
     * @param deviceMountPath where its global mount is or perhaps is; null when it has none
     */
    public record UnmountedVolume(String volumeName, VolumeSpec spec, VolumePlugin plugin, Path deviceMountPath) {}

    private final Map<String, AttachedVolume> attachedVolumes = new LinkedHashMap<>();
    private final StateChanges changes = new StateChanges();

    /** Woken at each change. */
    public StateChanges changes() {
        return changes;
    }

    /** Upstream {@code MarkVolumeAsAttached}: a volume already on the node takes the new device path. */
    @Override
    public void markVolumeAsAttached(String volumeName, VolumeSpec spec, VolumePlugin plugin, boolean attachable,
                                     String devicePath) {
        synchronized (this) {
            AttachedVolume v = attachedVolumes.get(volumeName);
            if (v == null) {
                attachedVolumes.put(volumeName, new AttachedVolume(volumeName, spec, plugin,
                        AttachedVolume.attachability(attachable), devicePath));
            } else {
                v.devicePath = devicePath;
            }
        }
        changes.signal();
    }

    /** Upstream {@code MarkVolumeAsDetached}: the volume leaves the node's state. */
    public void markVolumeAsDetached(String volumeName) {
        synchronized (this) {
            attachedVolumes.remove(volumeName);
        }
        changes.signal();
    }

    @Override
    public void markVolumeAsMounted(VolumeToMount volume, Mounter mounter) {
        putPodMount(volume, mounter, null, false);
    }

    /** Only a volume not mounted for the pod becomes uncertain: a mounted one stays as it is. */
    @Override
    public void markVolumeMountAsUncertain(VolumeToMount volume, Mounter mounter) {
        putPodMount(volume, mounter, null, true);
    }

    @Override
    public void markVolumeAsMapped(VolumeToMount volume, BlockVolumeMapper mapper) {
        putPodMount(volume, null, mapper, false);
    }

    /** Only a volume not mapped for the pod becomes uncertain: a mapped one stays as it is. */
    @Override
    public void markVolumeMapAsUncertain(VolumeToMount volume, BlockVolumeMapper mapper) {
        putPodMount(volume, null, mapper, true);
    }

    private void putPodMount(VolumeToMount volume, Mounter mounter, BlockVolumeMapper mapper, boolean uncertain) {
        synchronized (this) {
            AttachedVolume v = attachedVolumes.computeIfAbsent(volume.volumeName(), n -> new AttachedVolume(n,
                    volume.spec(), volume.plugin(), AttachedVolume.attachability(volume.pluginIsAttachable()),
                    volume.devicePath()));
            PodMount m = new PodMount(volume.podName(), volume.outerVolumeSpecName(), volume.spec(), mounter, mapper,
                    volume.volumeGidValue());
            m.uncertain = uncertain;
            if (uncertain) {
                v.pods.putIfAbsent(volume.podName(), m);
            } else {
                v.pods.put(volume.podName(), m);
            }
        }
        changes.signal();
    }

    /**
     * Upstream {@code AddAttachUncertainReconstructedVolume}: a volume found on disk after a restart is on the node, but
     * whether it is attachable, and where its device is, only the node's {@code status.volumesAttached} tells
     * ({@link #updateReconstructedVolumeAttachability}, {@link #updateReconstructedDevicePath}).
     */
    public void addAttachUncertainReconstructedVolume(String volumeName, VolumeSpec spec, VolumePlugin plugin) {
        synchronized (this) {
            attachedVolumes.computeIfAbsent(volumeName,
                    n -> new AttachedVolume(n, spec, plugin, AttachedVolume.Attachability.UNCERTAIN, ""));
        }
        changes.signal();
    }

    /**
     * Upstream {@code CheckAndMarkVolumeAsUncertainViaReconstruction}: the pod's mount (or a raw block volume's map,
     * {@code mapper} not null) found on disk is perhaps mounted until the pod sets it up again, or torn down once the
     * pods are known and none wants it. The volume must have been added first.
     */
    public void markVolumeAsUncertainViaReconstruction(String volumeName, String podName, String outerVolumeSpecName,
                                                       VolumeSpec spec, Mounter mounter, BlockVolumeMapper mapper) {
        synchronized (this) {
            AttachedVolume v = attachedVolumes.get(volumeName);
            if (v == null || v.pods.containsKey(podName)) {
                return;
            }
            PodMount m = new PodMount(podName, outerVolumeSpecName, spec, mounter, mapper, "");
            m.uncertain = true;
            m.reconstructed = true;
            v.pods.put(podName, m);
        }
        changes.signal();
    }

    /**
     * Upstream {@code UpdateReconstructedDevicePath}: the device path the node status gives a reconstructed volume,
     * unless an operation has settled its global mount since (and with it the device path).
     */
    public synchronized void updateReconstructedDevicePath(String volumeName, String devicePath) {
        AttachedVolume v = attachedVolumes.get(volumeName);
        if (v != null && v.deviceMountPath != null && v.deviceUncertain) {
            v.devicePath = devicePath;
        }
    }

    /** Upstream {@code UpdateReconstructedVolumeAttachability}: only a volume still uncertain takes it. */
    public synchronized void updateReconstructedVolumeAttachability(String volumeName, boolean attachable) {
        AttachedVolume v = attachedVolumes.get(volumeName);
        if (v != null && v.attachability == AttachedVolume.Attachability.UNCERTAIN) {
            v.attachability = AttachedVolume.attachability(attachable);
        }
    }

    /** The volume's device path (upstream's from {@code PodExistsInVolume}); "" when it has none or is not on the node. */
    public synchronized String devicePath(String volumeName) {
        AttachedVolume v = attachedVolumes.get(volumeName);
        return v == null ? "" : v.devicePath;
    }

    @Override
    public void markVolumeMountAsUncertain(String podName, String volumeName) {
        synchronized (this) {
            PodMount m = podMount(podName, volumeName);
            if (m != null) {
                m.uncertain = true;
            }
        }
        changes.signal();
    }

    @Override
    public void markVolumeAsUnmounted(String podName, String volumeName) {
        synchronized (this) {
            AttachedVolume v = attachedVolumes.get(volumeName);
            if (v != null) {
                v.pods.remove(podName);
            }
        }
        changes.signal();
    }

    @Override
    public void markDeviceAsMounted(String volumeName, Path deviceMountPath) {
        setDeviceMount(volumeName, deviceMountPath, false);
    }

    @Override
    public void markDeviceAsUncertain(String volumeName, Path deviceMountPath) {
        setDeviceMount(volumeName, deviceMountPath, true);
    }

    private void setDeviceMount(String volumeName, Path deviceMountPath, boolean uncertain) {
        synchronized (this) {
            AttachedVolume v = attachedVolumes.get(volumeName);
            if (v != null) {
                v.deviceMountPath = deviceMountPath;
                v.deviceUncertain = uncertain;
            }
        }
        changes.signal();
    }

    @Override
    public void markDeviceAsUnmounted(String volumeName) {
        markVolumeAsDetached(volumeName);
    }

    @Override
    public synchronized DeviceMountState getDeviceMountState(String volumeName) {
        AttachedVolume v = attachedVolumes.get(volumeName);
        if (v == null || v.deviceMountPath == null) {
            return DeviceMountState.NOT_MOUNTED;
        }
        return v.deviceUncertain ? DeviceMountState.UNCERTAIN : DeviceMountState.GLOBALLY_MOUNTED;
    }

    @Override
    public synchronized boolean isVolumeReconstructed(String podName, String volumeName) {
        PodMount m = podMount(podName, volumeName);
        return m != null && m.reconstructed;
    }

    @Override
    public synchronized VolumeMountState getVolumeMountState(String volumeName, String podName) {
        PodMount m = podMount(podName, volumeName);
        if (m == null) {
            return VolumeMountState.NOT_MOUNTED;
        }
        return m.uncertain ? VolumeMountState.UNCERTAIN : VolumeMountState.MOUNTED;
    }

    /** Upstream {@code MarkRemountRequired}: the pod's volumes whose content follows objects are written again. */
    public synchronized void markRemountRequired(String podName) {
        for (AttachedVolume v : attachedVolumes.values()) {
            PodMount m = v.pods.get(podName);
            if (m != null && v.plugin.requiresRemount(m.spec)) {
                m.remountRequired = true;
            }
        }
    }

    /**
     * Upstream {@code PodExistsInVolume}: what the reconciler must do for the pod's volume.
     *
     * @param desiredVolumeSize the capacity of the volume's PersistentVolume as the desired state has it; null for none
     */
    public synchronized PodVolumeState podExistsInVolume(String podName, String volumeName, Quantity desiredVolumeSize) {
        AttachedVolume v = attachedVolumes.get(volumeName);
        if (v == null) {
            return PodVolumeState.VOLUME_NOT_ATTACHED;
        }
        PodMount m = v.pods.get(podName);
        if (m == null || m.uncertain) {
            return PodVolumeState.NOT_MOUNTED;
        }
        if (m.remountRequired) {
            return PodVolumeState.REMOUNT_REQUIRED;
        }
        return volumeNeedsExpansion(v, desiredVolumeSize) ? PodVolumeState.FS_RESIZE_REQUIRED : PodVolumeState.MOUNTED;
    }

    /**
     * Upstream {@code volumeNeedsExpansion}: the PersistentVolume is larger than what the volume's file system was last
     * known to have, and its plugin grows volumes on the node.
     */
    private static boolean volumeNeedsExpansion(AttachedVolume v, Quantity desiredVolumeSize) {
        if (v.volumeInUseErrorForExpansion || v.persistentVolumeSize == null || ResizeUtil.isZero(desiredVolumeSize)
                || desiredVolumeSize.compareTo(v.persistentVolumeSize) <= 0) {
            return false;
        }
        return v.plugin.nodeExpandable().map(NodeExpandable::requiresFsResize).orElse(false);
    }

    /**
     * Upstream {@code InitializeClaimSize}: the size a mounted volume's file system has, the claim's
     * {@code status.capacity}, set once (at its first processing after the mount, or after a restart's reconstruction).
     */
    public synchronized void initializeClaimSize(String volumeName, Quantity claimSize) {
        AttachedVolume v = attachedVolumes.get(volumeName);
        if (v != null && v.persistentVolumeSize == null) {
            v.persistentVolumeSize = claimSize;
        }
    }

    /** Upstream {@code GetClaimSize}: what the volume's file system was last known to have; null when not known. */
    public synchronized Quantity getClaimSize(String volumeName) {
        AttachedVolume v = attachedVolumes.get(volumeName);
        return v == null ? null : v.persistentVolumeSize;
    }

    @Override
    public synchronized void markVolumeAsResized(String volumeName, Quantity claimSize) {
        AttachedVolume v = attachedVolumes.get(volumeName);
        if (v != null) {
            v.persistentVolumeSize = claimSize;
        }
    }

    @Override
    public synchronized void markForInUseExpansionError(String volumeName) {
        AttachedVolume v = attachedVolumes.get(volumeName);
        if (v != null) {
            v.volumeInUseErrorForExpansion = true;
        }
    }

    /** Upstream {@code PodRemovedFromVolume}: neither mounted nor perhaps mounted for the pod. */
    public synchronized boolean podRemovedFromVolume(String podName, String volumeName) {
        return podMount(podName, volumeName) == null;
    }

    public synchronized boolean volumeExists(String volumeName) {
        return attachedVolumes.containsKey(volumeName);
    }

    /** Whether the pod has (or perhaps has) a volume whose spec has this name (upstream {@code VolumeExistsWithSpecName}). */
    public synchronized boolean volumeExistsWithSpecName(String podName, String specName) {
        for (AttachedVolume v : attachedVolumes.values()) {
            PodMount m = v.pods.get(podName);
            if (m != null && m.spec.name().equals(specName)) {
                return true;
            }
        }
        return false;
    }

    /** Every pod's mounted volume, uncertain ones included (upstream {@code GetAllMountedVolumes}). */
    public synchronized List<MountedVolume> getAllMountedVolumes() {
        return collect(null, true);
    }

    /** The pod's mounted volumes, not the uncertain ones (upstream {@code GetMountedVolumesForPod}). */
    public synchronized List<MountedVolume> getMountedVolumesForPod(String podName) {
        return collect(podName, false);
    }

    /** The pod's mounted and perhaps mounted volumes (upstream {@code GetPossiblyMountedVolumesForPod}). */
    public synchronized List<MountedVolume> getPossiblyMountedVolumesForPod(String podName) {
        return collect(podName, true);
    }

    /** The volumes on the node that no pod has mounted (upstream {@code GetUnmountedVolumes}). */
    public synchronized List<UnmountedVolume> getUnmountedVolumes() {
        List<UnmountedVolume> unmounted = new ArrayList<>();
        for (AttachedVolume v : attachedVolumes.values()) {
            if (v.pods.isEmpty()) {
                unmounted.add(new UnmountedVolume(v.volumeName, v.spec, v.plugin, v.deviceMountPath));
            }
        }
        return unmounted;
    }

    /**
     * The unique names of the attachable volumes on the node (upstream {@code GetAttachedVolumes}, filtered): one whose
     * attachability is uncertain is not one yet.
     */
    public synchronized List<String> getAttachableVolumeNames() {
        return attachedVolumes.values().stream().filter(v -> v.attachability == AttachedVolume.Attachability.TRUE)
                .map(v -> v.volumeName).toList();
    }

    private List<MountedVolume> collect(String podName, boolean withUncertain) {
        List<MountedVolume> mounted = new ArrayList<>();
        for (AttachedVolume v : attachedVolumes.values()) {
            for (PodMount m : v.pods.values()) {
                if ((podName == null || podName.equals(m.podName)) && (withUncertain || !m.uncertain)) {
                    mounted.add(new MountedVolume(v.volumeName, m.podName, m.spec.name(), m.outerVolumeSpecName,
                            v.plugin, m.spec, m.mounter, m.volumeGidValue, m.uncertain, m.blockVolumeMapper,
                            v.deviceMountPath));
                }
            }
        }
        return mounted;
    }

    private PodMount podMount(String podName, String volumeName) {
        AttachedVolume v = attachedVolumes.get(volumeName);
        return v == null ? null : v.pods.get(podName);
    }
}
