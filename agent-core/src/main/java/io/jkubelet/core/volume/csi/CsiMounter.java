package io.jkubelet.core.volume.csi;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.volume.Mounter;
import io.jkubelet.core.volume.MounterArgs;
import io.jkubelet.core.volume.TransientOperationException;
import io.jkubelet.core.volume.UncertainProgressException;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumeMetrics;
import io.jkubelet.core.volume.VolumeOwnership;
import io.jkubelet.core.volume.util.HostMounts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Upstream {@code csiMountMgr}'s {@code SetUpAt}: the volume published with {@code NodePublishVolume} at
 * {@code <root-dir>/pods/<uid>/volumes/kubernetes.io~csi/<volume>/mount}, from its global mount when the driver staged
 * it, with the attachment's publish context, the {@code nodePublishSecretRef}'s secret and, when the CSIDriver asks
 * ({@code podInfoOnMount}), the pod's details in the volume context; then the pod's {@code fsGroup} applied to its files
 * when the CSIDriver's {@code fsGroupPolicy} says so. A publish that surely failed leaves no directory; one without a
 * final answer from the driver leaves it, the volume perhaps mounted. The
 * driver must make {@code NodePublishVolume} idempotent (the CSI spec's rule): a volume found mounted after a restart
 * is published again. Thread-safe.
 */
final class CsiMounter implements Mounter {
    private static final Logger log = LoggerFactory.getLogger(CsiMounter.class);
    private static final String PREFIX = CsiRegistrationHandler.CSI_PLUGIN_NAME + ": ";

    private final CsiVolumePlugin plugin;
    private final HostMounts mounts;
    private final CsiSource src;
    private final Pod pod;
    private final Path dir;

    CsiMounter(CsiVolumePlugin plugin, HostMounts mounts, CsiSource src, Pod pod, Path dir) {
        this.plugin = plugin;
        this.mounts = mounts;
        this.src = src;
        this.pod = pod;
        this.dir = dir;
    }

    @Override
    public Path path() {
        return dir;
    }

    @Override
    public boolean readOnly() {
        return src.readOnly();
    }

    /** Upstream's {@code NewMetricsCsi}: the driver's {@code NodeGetVolumeStats} at the publish path. */
    @Override
    public VolumeMetrics metrics() {
        return new CsiMetrics(plugin.drivers(), plugin.client(), src.driver(), src.volumeHandle(), dir, plugin.csiTimeout());
    }

    /**
     * Upstream {@code SetUpAt}: every driver call within one {@code csiTimeout}.
     *
     * @throws TransientOperationException the driver is not registered, or what the publish needs from the apiserver
     *     could not be read: the volume's state stays as it was
     * @throws UncertainProgressException {@code NodePublishVolume} gave no final answer (its deadline passed, its
     *     connection broke), or the volume was published but its {@code fsGroup} could not be applied: the directory is
     *     kept and the volume held as perhaps mounted, so that it is unpublished if its pod goes first
     */
    @Override
    public void setUp(MounterArgs args) throws VolumeException {
        CsiNodeClient csi;
        try {
            csi = CsiNodeClient.of(plugin.drivers(), plugin.client(), src.driver(), plugin.csiTimeout());
        } catch (VolumeException e) {
            // Upstream issue 120268: a driver not registered (yet) is expected to come.
            throw new TransientOperationException(PREFIX + "mounter.SetUpAt failed to get CSI client: " + e.getMessage());
        }
        String fsGroupPolicy;
        try {
            fsGroupPolicy = plugin.policies().fsGroupPolicy(src.driver());
        } catch (VolumeException e) {
            throw new TransientOperationException(PREFIX + "mounter.SetupAt failed to check fsGroup policy: "
                    + e.getMessage());
        }
        String deviceMountPath = "";
        Map<String, String> publishContext = Map.of();
        if (!src.ephemeral()) {
            boolean staged;
            try {
                staged = csi.nodeSupportsStageUnstage();
            } catch (VolumeException e) {
                throw new VolumeException(PREFIX + "mounter.SetUpAt failed to check for STAGE_UNSTAGE_VOLUME capability: "
                        + e.getMessage());
            }
            if (staged) {
                deviceMountPath = CsiNames.deviceMountPath(plugin.dirs(), src.driver(), src.volumeHandle()).toString();
            }
            try {
                publishContext = plugin.attacher().publishContext(src);
            } catch (VolumeException e) {
                throw new TransientOperationException(PREFIX + "mounter.SetUpAt failed to fetch publishContext: "
                        + e.getMessage());
            }
        }
        try {
            CsiMountDirs.mkdirs(dir.getParent());
        } catch (IOException e) {
            throw new VolumeException(PREFIX + "mounter.SetUpAt failed to create dir \"" + dir.getParent() + "\":  " + e);
        }
        Map<String, String> secrets = Map.of();
        if (src.nodePublishSecretRef() != null) {
            try {
                secrets = plugin.policies().credentials(src.nodePublishSecretRef());
            } catch (VolumeException e) {
                throw new TransientOperationException("fetching NodePublishSecretRef "
                        + src.nodePublishSecretRef().getNamespace() + "/" + src.nodePublishSecretRef().getName()
                        + " failed: " + e.getMessage());
            }
        }
        Map<String, String> volumeContext = new LinkedHashMap<>(src.volumeAttributes());
        try {
            volumeContext.putAll(plugin.policies().podAttributes(src.driver(), pod, src.ephemeral()));
        } catch (VolumeException e) {
            throw new TransientOperationException(PREFIX + "mounter.SetUpAt failed to assemble volume attributes: "
                    + e.getMessage());
        }
        boolean volumeMountGroup;
        try {
            volumeMountGroup = csi.nodeSupportsVolumeMountGroup();
        } catch (VolumeException e) {
            throw new TransientOperationException(PREFIX + "mounter.SetUpAt failed to determine if the node service has "
                    + "VOLUME_MOUNT_GROUP capability: " + e.getMessage());
        }
        try {
            csi.nodePublishVolume(new CsiDriverClient.NodePublishRequest(src.volumeHandle(), publishContext,
                    deviceMountPath, dir.toString(), new CsiDriverClient.MountCapability(src.fsType(), src.mountOptions(),
                    src.accessMode()), src.readOnly(), secrets, volumeContext));
        } catch (VolumeException e) {
            // Only a publish that surely failed leaves nothing behind: an uncertain one may have mounted there.
            if (VolumeException.isOperationFinished(e)) {
                CsiMountDirs.removeMountDir(mounts, dir);
            }
            throw e;
        }
        applyFsGroup(args, fsGroupPolicy, volumeMountGroup);
        log.debug("{}mounter.SetUp successfully requested NodePublish [{}]", PREFIX, dir);
    }

    /**
     * Upstream's ownership step after the publish: the pod's {@code fsGroup} given to the volume's files when the
     * CSIDriver's policy says so. Upstream delegates it to a driver with {@code VOLUME_MOUNT_GROUP} instead; spec v1.2.0
     * cannot, so such a driver is named in one warning and the kubelet applies it as to any other.
     *
     * @throws UncertainProgressException {@code applyFSGroup failed for vol <handle>: ...}: the volume stays published,
     *     perhaps mounted for the pod, so that the next try publishes it again (idempotent) or, if its pod goes first,
     *     it is unpublished
     */
    private void applyFsGroup(MounterArgs args, String fsGroupPolicy, boolean volumeMountGroup) throws VolumeException {
        Long fsGroup = args.fsGroup();
        if (fsGroup != null && volumeMountGroup) {
            plugin.warnFsGroupNotDelegated(src.driver(), fsGroupPolicy);
        }
        if (!FsGroupPolicy.supportsFsGroup(fsGroupPolicy, fsGroup, src.readOnly(), src.fsType(),
                src.ephemeral() ? null : src.accessModes())) {
            return;
        }
        try {
            VolumeOwnership.setVolumeOwnership(dir, fsGroup, args.fsGroupChangePolicy(), src.readOnly());
        } catch (IOException e) {
            throw new UncertainProgressException("applyFSGroup failed for vol " + src.volumeHandle() + ": " + e);
        }
        log.debug("{}mounter.SetupAt fsGroup [{}] applied successfully to {}", PREFIX, fsGroup, src.volumeHandle());
    }
}
