package io.jkubelet.core.volume.csi;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachment;
import io.jkubelet.core.apierrors.ApiException;
import io.jkubelet.core.volume.DeviceMounter;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.TransientOperationException;
import io.jkubelet.core.volume.UncertainProgressException;
import io.jkubelet.core.volume.VolumeAttacher;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumeSpec;
import io.jkubelet.core.volume.util.HostMounts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * Upstream {@code csiAttacher}'s kubelet side, for PersistentVolumes: {@code WaitForAttach} (the VolumeAttachment
 * {@code csi-<sha256(handle+driver+node)>} that the external attacher marks attached, one look per try: v1.31's, the
 * operation's back-off paces the tries, issue 124398), and {@code MountDevice}/{@code UnmountDevice}: the volume staged
 * with {@code NodeStageVolume} at its global path when the driver has {@code STAGE_UNSTAGE_VOLUME}, unstaged once no pod
 * has it, with a {@code vol_data.json} beside it either way. An inline volume has no global mount. Thread-safe.
 */
final class CsiAttacher implements VolumeAttacher, DeviceMounter {
    private static final Logger log = LoggerFactory.getLogger(CsiAttacher.class);
    private static final String PREFIX = CsiRegistrationHandler.CSI_PLUGIN_NAME + ": ";

    private final PodDirs dirs;
    private final HostMounts mounts;
    private final String nodeName;
    private final CsiDrivers drivers;
    private final CsiDriverClient client;
    private final CsiDriverPolicies policies;
    /** Upstream's {@code watchTimeout}, which its plugin sets to {@code csiTimeout}: each operation's deadline. */
    private final Duration watchTimeout;

    CsiAttacher(PodDirs dirs, HostMounts mounts, String nodeName, CsiDrivers drivers, CsiDriverClient client,
                CsiDriverPolicies policies, Duration watchTimeout) {
        this.dirs = dirs;
        this.mounts = mounts;
        this.nodeName = nodeName;
        this.drivers = drivers;
        this.client = client;
        this.policies = policies;
        this.watchTimeout = watchTimeout;
    }

    /**
     * Upstream {@code WaitForAttach}: the device path the node status gave is not used (the attacher returns "" for a
     * CSI volume); the attachment's name is given back in its place.
     *
     * @throws VolumeException {@code volume <handle> is not attached for volume attachment csi-...}, the attacher's
     *     {@code attachError}, {@code volume attachment is being deleted}, or the GET's error
     */
    @Override
    public String waitForAttach(VolumeSpec spec, String devicePath, Pod pod) throws VolumeException {
        CsiSource src = CsiSource.of(spec, pod.getMetadata().getUid(), pod.getMetadata().getNamespace());
        String attachId = CsiNames.attachmentName(src.volumeHandle(), src.driver(), nodeName);
        VolumeAttachment va;
        try {
            va = getAttachment(attachId);
        } catch (VolumeException e) {
            throw new VolumeException("volume " + src.volumeHandle() + " has GET error for volume attachment " + attachId
                    + ": " + e.getMessage());
        }
        if (va.getMetadata().getDeletionTimestamp() != null) {
            throw new VolumeException("volume attachment is being deleted");
        }
        if (va.getStatus() != null && Boolean.TRUE.equals(va.getStatus().getAttached())) {
            return attachId;
        }
        if (va.getStatus() != null && va.getStatus().getAttachError() != null) {
            throw new VolumeException(va.getStatus().getAttachError().getMessage());
        }
        log.info("{}attacher.WaitForAttach failed for volume [{}] attached (will continue to try)", PREFIX, src.volumeHandle());
        throw new VolumeException("volume " + src.volumeHandle() + " is not attached for volume attachment " + attachId);
    }

    private VolumeAttachment getAttachment(String attachId) throws VolumeException {
        VolumeAttachment va;
        try {
            va = policies.connected() ? policies.objects().getVolumeAttachment(attachId) : null;
        } catch (ApiException e) {
            throw new VolumeException(CsiDriverPolicies.why(e));
        }
        if (va == null) {
            throw new VolumeException("volumeattachments.storage.k8s.io \"" + attachId + "\" not found");
        }
        return va;
    }

    /**
     * Upstream {@code getPublishContext}: the attachment's {@code attachmentMetadata} for the driver's stage and publish;
     * empty when the driver needs no attachment.
     */
    Map<String, String> publishContext(CsiSource src) throws VolumeException {
        if (policies.skipAttach(src.driver())) {
            return Map.of();
        }
        VolumeAttachment va = getAttachment(CsiNames.attachmentName(src.volumeHandle(), src.driver(), nodeName));
        return va.getStatus() == null || va.getStatus().getAttachmentMetadata() == null ? Map.of()
                : va.getStatus().getAttachmentMetadata();
    }

    @Override
    public Path deviceMountPath(VolumeSpec spec) {
        if (spec.persistentVolume() == null) {
            return null;
        }
        var src = spec.persistentVolume().getSpec().getCsi();
        return CsiNames.deviceMountPath(dirs, src.getDriver(), src.getVolumeHandle());
    }

    /**
     * Upstream {@code MountDevice}: every driver call within one {@code watchTimeout}.
     *
     * @throws TransientOperationException the driver is not registered, or the attachment or the secret could not be
     *     read: the volume's state stays as it was
     * @throws UncertainProgressException {@code NodeStageVolume} gave no final answer (its deadline passed, its connection
     *     broke): the global mount is kept and the volume held as perhaps staged, so that it is unstaged once no pod
     *     wants it
     */
    @Override
    public void mountDevice(VolumeSpec spec, String devicePath) throws VolumeException {
        Path deviceMountPath = deviceMountPath(spec);
        if (deviceMountPath == null) {
            return; // an inline volume is published directly
        }
        CsiSource src = CsiSource.of(spec, "", "");
        CsiNodeClient csi;
        try {
            csi = CsiNodeClient.of(drivers, client, src.driver(), watchTimeout);
        } catch (VolumeException e) {
            // Upstream issue 120268: a driver not registered (yet) is expected to come.
            throw new TransientOperationException(PREFIX + "attacher.MountDevice failed to create newCsiDriverClient: "
                    + e.getMessage());
        }
        boolean stage = csi.nodeSupportsStageUnstage();
        Map<String, String> publishContext;
        try {
            publishContext = publishContext(src);
        } catch (VolumeException e) {
            throw new TransientOperationException(e.getMessage());
        }
        Map<String, String> secrets = Map.of();
        if (src.nodeStageSecretRef() != null && stage) {
            try {
                secrets = policies.credentials(src.nodeStageSecretRef());
            } catch (VolumeException e) {
                throw new TransientOperationException("fetching NodeStageSecretRef " + src.nodeStageSecretRef().getNamespace()
                        + "/" + src.nodeStageSecretRef().getName() + " failed: " + e.getMessage());
            }
        }
        try {
            CsiMountDirs.mkdirs(deviceMountPath);
            // Kept even when the driver does not stage: UnmountDevice needs it.
            VolumeData.save(deviceMountPath.getParent(), Map.of(VolumeData.VOLUME_HANDLE, src.volumeHandle(),
                    VolumeData.DRIVER_NAME, src.driver()));
        } catch (IOException e) {
            throw new VolumeException(PREFIX + "attacher.MountDevice failed to create dir \"" + deviceMountPath + "\": " + e);
        }
        if (!stage) {
            log.info("{}attacher.MountDevice STAGE_UNSTAGE_VOLUME capability not set. Skipping MountDevice...", PREFIX);
            return;
        }
        try {
            csi.nodeStageVolume(new CsiDriverClient.NodeStageRequest(src.volumeHandle(), publishContext,
                    deviceMountPath.toString(), new CsiDriverClient.MountCapability(src.fsType(), src.mountOptions(),
                    src.accessMode()), secrets, src.volumeAttributes()));
        } catch (VolumeException e) {
            // Only a stage that surely failed leaves nothing behind: an uncertain one may have mounted there.
            if (VolumeException.isOperationFinished(e)) {
                CsiMountDirs.removeMountDir(mounts, deviceMountPath);
            }
            throw e;
        }
    }

    /** Upstream {@code UnmountDevice}: {@code NodeUnstageVolume} when the driver stages, then the directories go. */
    @Override
    public void unmountDevice(String volumeName, Path deviceMountPath) throws VolumeException {
        Map<String, String> data;
        try {
            data = VolumeData.load(deviceMountPath.getParent());
        } catch (IOException e) {
            if (e.getCause() instanceof NoSuchFileException) {
                return;
            }
            throw new VolumeException(PREFIX + "attacher.UnmountDevice failed to get driver and volume name from device "
                    + "mount path: " + e.getMessage());
        }
        CsiNodeClient csi;
        try {
            csi = CsiNodeClient.of(drivers, client, data.getOrDefault(VolumeData.DRIVER_NAME, ""), watchTimeout);
        } catch (VolumeException e) {
            throw new VolumeException(PREFIX + "attacher.UnmountDevice failed to create newCsiDriverClient: " + e.getMessage());
        }
        boolean stage;
        try {
            stage = csi.nodeSupportsStageUnstage();
        } catch (VolumeException e) {
            throw new VolumeException(PREFIX + "attacher.UnmountDevice failed to check whether STAGE_UNSTAGE_VOLUME set: "
                    + e.getMessage());
        }
        if (stage) {
            try {
                csi.nodeUnstageVolume(data.getOrDefault(VolumeData.VOLUME_HANDLE, ""), deviceMountPath.toString());
            } catch (VolumeException e) {
                throw new VolumeException(PREFIX + "attacher.UnmountDevice failed: " + e.getMessage());
            }
        }
        try {
            CsiMountDirs.removeMountDir(mounts, deviceMountPath);
        } catch (VolumeException e) {
            throw new VolumeException(PREFIX + "failed to clean up global mount " + deviceMountPath.getParent() + ": "
                    + e.getMessage());
        }
    }
}
