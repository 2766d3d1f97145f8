package io.jkubelet.core.volume.csi;

import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.jkubelet.core.volume.BlockVolumeMapper;
import io.jkubelet.core.volume.BlockVolumePlugin;
import io.jkubelet.core.volume.BlockVolumeUnmapper;
import io.jkubelet.core.volume.DeviceMounter;
import io.jkubelet.core.volume.Mounter;
import io.jkubelet.core.volume.NodeExpandable;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.Unmounter;
import io.jkubelet.core.volume.VolumeAttacher;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumeSpec;
import io.jkubelet.core.volume.util.HostMounts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Upstream {@code pkg/volume/csi}'s plugin ({@code kubernetes.io/csi}): a PersistentVolume's {@code spec.csi} or a pod's
 * inline {@code volumes[].csi} (a CSI ephemeral volume: only when the driver's CSIDriver lists {@code Ephemeral} in its
 * {@code volumeLifecycleModes}), mounted through the driver the plugin watcher registered (its Node service, {@link
 * CsiDriverClient}). A PersistentVolume is shared by the pods that claim it ({@code <driver>^<handle>}): its attachment
 * is checked when the CSIDriver requires one, it is staged once for the node ({@link CsiAttacher}) and published into
 * each pod ({@link CsiMounter}); an inline volume is its pod's own and only published. What a mount needs to be torn
 * down and reconstructed after a restart is kept in {@code vol_data.json} beside it. A claim's volume whose
 * PersistentVolume grew is grown on the node with the driver's {@code NodeExpandVolume} ({@link CsiExpander}).
 *
 * <p>{@code fsGroup}: the mounter gives the volume's files to the pod's {@code fsGroup} where the CSIDriver's
 * {@code fsGroupPolicy} says so ({@link FsGroupPolicy}, {@link io.jkubelet.core.volume.VolumeOwnership}). It is never
 * delegated to the driver: spec v1.2.0 has no {@code volume_mount_group}, and a driver announcing spec 1.5's
 * {@code VOLUME_MOUNT_GROUP} is named in one warning. A PersistentVolume in {@code volumeMode: Block} is mapped, not
 * mounted ({@link CsiBlockMapper}): staged and published with the {@code block} access type, its {@code vol_data.json}
 * under {@code plugins/kubernetes.io/csi/volumeDevices/<spec name>/data}.
 */
public final class CsiVolumePlugin implements BlockVolumePlugin {
    private static final Logger log = LoggerFactory.getLogger(CsiVolumePlugin.class);
    public static final String NAME = CsiNames.PLUGIN_NAME;
    private static final String PREFIX = CsiRegistrationHandler.CSI_PLUGIN_NAME + ": ";
    /** Upstream {@code csiTimeout}: how long the calls of one operation on a driver have, all together. */
    public static final Duration CSI_TIMEOUT = CsiRegistrationHandler.CSI_TIMEOUT;

    private final PodDirs dirs;
    private final HostMounts mounts;
    private final String nodeName;
    private final CsiDrivers drivers;
    private final CsiDriverClient client;
    private final CsiDriverPolicies policies;
    private final CsiAttacher attacher;
    private final CsiExpander expander;
    private final Duration csiTimeout;
    private final Set<String> notDelegatedWarned = ConcurrentHashMap.newKeySet();

    /**
     * @param drivers the drivers the plugin watcher registered ({@link CsiRegistrationHandler}'s store)
     * @param objects the apiserver's CSIDriver, VolumeAttachment and Secret objects; null on a standalone node, where
     *     every CSI mount fails as upstream's without a kube client
     */
    public CsiVolumePlugin(PodDirs dirs, HostMounts mounts, String nodeName, CsiDrivers drivers, CsiDriverClient client,
                           CsiObjects objects) {
        this(dirs, mounts, nodeName, drivers, client, objects, CSI_TIMEOUT);
    }

    /**
     * @param csiTimeout how long each operation's calls have to answer, all together: upstream's {@code csiTimeout}
     *     (2 min) for a kubelet; tests that make a driver hang give a shorter one
     */
    public CsiVolumePlugin(PodDirs dirs, HostMounts mounts, String nodeName, CsiDrivers drivers, CsiDriverClient client,
                           CsiObjects objects, Duration csiTimeout) {
        this.dirs = dirs;
        this.mounts = mounts;
        this.nodeName = nodeName;
        this.drivers = drivers;
        this.client = client;
        this.csiTimeout = csiTimeout;
        this.policies = new CsiDriverPolicies(objects);
        this.attacher = new CsiAttacher(dirs, mounts, nodeName, drivers, client, policies, csiTimeout);
        this.expander = new CsiExpander(drivers, client, csiTimeout);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean canSupport(VolumeSpec spec) {
        return CsiSource.isCsi(spec);
    }

    /** Upstream {@code GetVolumeName}: a PersistentVolume is {@code <driver>^<volumeHandle>}; an inline volume its pod's. */
    @Override
    public Optional<String> sharedVolumeName(VolumeSpec spec) {
        if (spec.persistentVolume() == null) {
            return Optional.empty();
        }
        var src = spec.persistentVolume().getSpec().getCsi();
        return Optional.of(CsiNames.volumeName(src.getDriver(), src.getVolumeHandle()));
    }

    /**
     * Upstream {@code CanAttach}: a PersistentVolume whose driver has no CSIDriver, or one that does not say
     * {@code attachRequired: false}; never an inline volume.
     */
    @Override
    public Optional<VolumeAttacher> attacher(VolumeSpec spec) {
        if (spec.persistentVolume() == null) {
            return Optional.empty();
        }
        try {
            return policies.skipAttach(spec.persistentVolume().getSpec().getCsi().getDriver()) ? Optional.empty()
                    : Optional.of(attacher);
        } catch (VolumeException e) {
            log.debug("{}CanAttach of {}: {}", PREFIX, spec.name(), e.getMessage());
            return Optional.empty();
        }
    }

    @Override
    public Optional<DeviceMounter> deviceMounter() {
        return Optional.of(attacher);
    }

    /** Upstream's {@code NodeExpandableVolumePlugin}: a claim's volume grown with the driver's {@code NodeExpandVolume}. */
    @Override
    public Optional<NodeExpandable> nodeExpandable() {
        return Optional.of(expander);
    }

    /**
     * Upstream {@code NewMounter}: the lifecycle mode checked against the CSIDriver, then {@code vol_data.json} written
     * in the volume's directory.
     *
     * @throws VolumeException e.g. {@code volume mode "Ephemeral" not supported by driver d (only supports ["Persistent"])}
     */
    @Override
    public Mounter newMounter(VolumeSpec spec, Pod pod) throws VolumeException {
        String uid = pod.getMetadata().getUid();
        CsiSource src = CsiSource.of(spec, uid, pod.getMetadata().getNamespace());
        policies.checkVolumeLifecycleMode(src.driver(), src.lifecycleMode());
        if (!policies.connected()) {
            throw new VolumeException(PREFIX + "failed to get a kubernetes client");
        }
        Path dataDir = dirs.volumeDir(uid, NAME, spec.name());
        Map<String, String> data = new LinkedHashMap<>();
        data.put(VolumeData.SPEC_VOL_ID, spec.name());
        data.put(VolumeData.VOLUME_HANDLE, src.volumeHandle());
        data.put(VolumeData.DRIVER_NAME, src.driver());
        data.put(VolumeData.NODE_NAME, nodeName);
        data.put(VolumeData.VOLUME_LIFECYCLE_MODE, src.lifecycleMode());
        data.put(VolumeData.ATTACHMENT_ID, CsiNames.attachmentName(src.volumeHandle(), src.driver(), nodeName));
        try {
            CsiMountDirs.mkdirs(dataDir);
            VolumeData.save(dataDir, data);
        } catch (IOException e) {
            throw new VolumeException(PREFIX + "failed to save volume info data: " + e);
        }
        return new CsiMounter(this, mounts, src, pod, dataDir.resolve("mount"));
    }

    /**
     * Says once per driver that {@code fsGroup} cannot be delegated to it: upstream passes the pod's {@code fsGroup} to a
     * driver with {@code VOLUME_MOUNT_GROUP} in {@code NodePublishVolume}'s {@code volume_mount_group} and changes no
     * ownership itself, but CSI spec v1.2.0, which this kubelet speaks, has no such field (it came in spec 1.5).
     */
    void warnFsGroupNotDelegated(String driver, String policy) {
        if (notDelegatedWarned.add(driver)) {
            log.warn("{}driver {} has the VOLUME_MOUNT_GROUP node capability, but this kubelet speaks CSI spec v1.2.0, "
                    + "which has no volume_mount_group: fsGroup is not delegated to it, the kubelet applies it as to a "
                    + "driver without the capability (CSIDriver fsGroupPolicy {})", PREFIX, driver, policy);
        }
    }

    /**
     * Upstream {@code NewUnmounter}: the driver and handle from the volume's {@code vol_data.json}.
     *
     * @throws VolumeException {@code kubernetes.io/csi: unmounter failed to load volume data file [<dir>/mount]: ...}
     */
    @Override
    public Unmounter newUnmounter(String volumeName, String podUid) throws VolumeException {
        Path dataDir = dirs.volumeDir(podUid, NAME, volumeName);
        Path dir = dataDir.resolve("mount");
        Map<String, String> data;
        try {
            data = VolumeData.load(dataDir);
        } catch (IOException e) {
            throw new VolumeException(PREFIX + "unmounter failed to load volume data file [" + dir + "]: " + e.getMessage());
        }
        String driver = data.getOrDefault(VolumeData.DRIVER_NAME, "");
        String handle = data.getOrDefault(VolumeData.VOLUME_HANDLE, "");
        return Unmounter.of(dir, () -> tearDown(driver, handle, dir));
    }

    /** Upstream {@code TearDownAt}: {@code NodeUnpublishVolume}, then the mount's directory and data go. */
    private void tearDown(String driver, String handle, Path dir) throws VolumeException {
        CsiNodeClient csi;
        try {
            csi = CsiNodeClient.of(drivers, client, driver, csiTimeout);
        } catch (VolumeException e) {
            // Upstream's words, its TearDownAt reusing SetUpAt's message.
            throw new VolumeException(PREFIX + "mounter.SetUpAt failed to get CSI client: " + e.getMessage());
        }
        try {
            csi.nodeUnpublishVolume(handle, dir.toString());
        } catch (VolumeException e) {
            throw new VolumeException(PREFIX + "mounter.TearDownAt failed: " + e.getMessage());
        }
        try {
            CsiMountDirs.removeMountDir(mounts, dir);
        } catch (VolumeException e) {
            throw new VolumeException(PREFIX + "mounter.TearDownAt failed to clean mount dir [" + dir + "]: " + e.getMessage());
        }
    }

    /**
     * Upstream {@code ConstructVolumeSpec}: from the {@code vol_data.json} in the volume's directory, an inline volume of
     * the driver, or a PersistentVolume of the driver and handle.
     */
    @Override
    public VolumeSpec constructVolumeSpec(String volumeName, Path mountPath) throws VolumeException {
        Map<String, String> data;
        try {
            data = VolumeData.load(mountPath);
        } catch (IOException e) {
            throw new VolumeException(PREFIX + "plugin.ConstructVolumeSpec failed loading volume data using [" + mountPath
                    + "]: " + e.getMessage());
        }
        String specName = data.getOrDefault(VolumeData.SPEC_VOL_ID, volumeName);
        String driver = data.getOrDefault(VolumeData.DRIVER_NAME, "");
        if (CsiSource.EPHEMERAL.equals(data.get(VolumeData.VOLUME_LIFECYCLE_MODE))) {
            return VolumeSpec.of(new VolumeBuilder().withName(specName).withNewCsi().withDriver(driver).endCsi().build());
        }
        return VolumeSpec.of(new PersistentVolumeBuilder().withNewMetadata().withName(specName).endMetadata().withNewSpec()
                .withNewCsi().withDriver(driver).withVolumeHandle(data.getOrDefault(VolumeData.VOLUME_HANDLE, ""))
                .endCsi().withVolumeMode("Filesystem").endSpec().build(), false);
    }

    /**
     * Upstream {@code NewBlockVolumeMapper}: a PersistentVolume's (an inline volume is never a block volume), with its
     * {@code vol_data.json} written for its unmap and reconstruction.
     *
     * @throws VolumeException e.g. {@code kubernetes.io/csi: failed to get a kubernetes client} on a standalone node
     */
    @Override
    public BlockVolumeMapper newBlockVolumeMapper(VolumeSpec spec, Pod pod) throws VolumeException {
        if (spec.persistentVolume() == null) {
            throw new VolumeException("unexpected api.CSIVolumeSource found in volume.Spec");
        }
        String uid = pod.getMetadata().getUid();
        CsiSource src = CsiSource.of(spec, uid, pod.getMetadata().getNamespace());
        if (!policies.connected()) {
            throw new VolumeException(PREFIX + "failed to get a kubernetes client");
        }
        Path dataDir = CsiBlockMapper.dataDir(this, spec.name());
        Map<String, String> data = new LinkedHashMap<>();
        data.put(VolumeData.SPEC_VOL_ID, spec.name());
        data.put(VolumeData.VOLUME_HANDLE, src.volumeHandle());
        data.put(VolumeData.DRIVER_NAME, src.driver());
        data.put(VolumeData.NODE_NAME, nodeName);
        data.put(VolumeData.ATTACHMENT_ID, CsiNames.attachmentName(src.volumeHandle(), src.driver(), nodeName));
        try {
            CsiMountDirs.mkdirs(dataDir);
        } catch (IOException e) {
            throw new VolumeException(PREFIX + "failed to create data dir " + dataDir + ":  " + e);
        }
        try {
            VolumeData.save(dataDir, data);
        } catch (IOException e) {
            throw new VolumeException(PREFIX + "csi.NewBlockVolumeMapper failed to save volume info data: " + e);
        }
        return new CsiBlockMapper(this, spec.name(), uid, src);
    }

    /**
     * Upstream {@code NewBlockVolumeUnmapper}: the driver and handle from the volume's {@code vol_data.json}.
     *
     * @throws VolumeException {@code kubernetes.io/csi: unmapper failed to load volume data file [<dir>]: ...}
     */
    @Override
    public BlockVolumeUnmapper newBlockVolumeUnmapper(String volumeName, String podUid) throws VolumeException {
        Map<String, String> data = blockVolumeData(volumeName, "unmapper failed to load volume data file ["
                + CsiBlockMapper.dataDir(this, volumeName) + "]: ");
        return new CsiBlockMapper(this, volumeName, podUid, new CsiSource(data.getOrDefault(VolumeData.DRIVER_NAME, ""),
                data.getOrDefault(VolumeData.VOLUME_HANDLE, ""), false, "", Map.of(), null, null, false,
                "ReadWriteOnce", List.of(), List.of()));
    }

    /**
     * Upstream {@code ConstructBlockVolumeSpec}: a Block PersistentVolume of the driver and handle its
     * {@code vol_data.json} names.
     */
    @Override
    public VolumeSpec constructBlockVolumeSpec(String podUid, String volumeName, Path mapPath) throws VolumeException {
        Map<String, String> data = blockVolumeData(volumeName, "plugin.ConstructBlockVolumeSpec failed loading volume "
                + "data using [" + mapPath + "]: ");
        return VolumeSpec.of(new PersistentVolumeBuilder().withNewMetadata()
                .withName(data.getOrDefault(VolumeData.SPEC_VOL_ID, volumeName)).endMetadata().withNewSpec()
                .withNewCsi().withDriver(data.getOrDefault(VolumeData.DRIVER_NAME, ""))
                .withVolumeHandle(data.getOrDefault(VolumeData.VOLUME_HANDLE, "")).endCsi().withVolumeMode("Block")
                .endSpec().build(), false);
    }

    private Map<String, String> blockVolumeData(String specName, String failure) throws VolumeException {
        try {
            return VolumeData.load(CsiBlockMapper.dataDir(this, specName));
        } catch (IOException e) {
            throw new VolumeException(PREFIX + failure + e.getMessage());
        }
    }

    PodDirs dirs() {
        return dirs;
    }

    String nodeName() {
        return nodeName;
    }

    CsiDrivers drivers() {
        return drivers;
    }

    CsiDriverClient client() {
        return client;
    }

    CsiDriverPolicies policies() {
        return policies;
    }

    CsiAttacher attacher() {
        return attacher;
    }

    /** Upstream {@code csiTimeout}: each operation's deadline. */
    Duration csiTimeout() {
        return csiTimeout;
    }
}
