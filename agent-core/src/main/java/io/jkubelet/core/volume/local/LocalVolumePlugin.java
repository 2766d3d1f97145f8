package io.jkubelet.core.volume.local;

import io.fabric8.kubernetes.api.model.LocalVolumeSource;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.volume.DeviceMounter;
import io.jkubelet.core.volume.Mounter;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.Unmounter;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumeMetrics;
import io.jkubelet.core.volume.VolumePlugin;
import io.jkubelet.core.volume.VolumeSpec;
import io.jkubelet.core.volume.util.HostMounts;
import io.jkubelet.core.volume.util.HostUtil;
import io.jkubelet.core.volume.util.MountException;
import io.jkubelet.core.volume.util.MountOptions;
import io.jkubelet.core.volume.util.MountPoints;
import io.jkubelet.core.volume.util.SafeFormatAndMount;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Upstream {@code pkg/volume/local}: a {@code local} PersistentVolume, a directory of the node (or a block device,
 * formatted if need be and mounted once at {@code <root-dir>/plugins/kubernetes.io/local-volume/mounts/<pv>}),
 * bind-mounted into each pod that claims it, read-only when the claim is. The volume is named for itself, so that the
 * pods sharing it share one volume; tearing a pod's mount down never touches the data.
 */
public final class LocalVolumePlugin implements VolumePlugin {
    public static final String NAME = "kubernetes.io/local-volume";

    private final PodDirs dirs;
    private final HostMounts mounts;
    private final SafeFormatAndMount formatter;

    public LocalVolumePlugin(PodDirs dirs, HostMounts mounts) {
        this.dirs = dirs;
        this.mounts = mounts;
        this.formatter = new SafeFormatAndMount(mounts);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean canSupport(VolumeSpec spec) {
        return spec.persistentVolume() != null && spec.persistentVolume().getSpec() != null
                && spec.persistentVolume().getSpec().getLocal() != null;
    }

    /** Upstream {@code GetVolumeName}: the PersistentVolume's name. */
    @Override
    public Optional<String> sharedVolumeName(VolumeSpec spec) {
        return Optional.of(spec.name());
    }

    @Override
    public Mounter newMounter(VolumeSpec spec, Pod pod) throws VolumeException {
        Path globalPath = globalLocalPath(spec);
        Path dir = dirs.volumeDir(pod.getMetadata().getUid(), NAME, spec.name());
        List<String> options = MountOptions.fromSpec(spec, spec.readOnly() ? new String[] {"ro"} : new String[0]);
        return Mounter.of(dir, spec.readOnly(), VolumeMetrics.STATFS, () -> {
            if (HostUtil.hasBacksteps(globalPath.toString())) {
                throw new VolumeException("invalid path: " + globalPath + " must not contain '..'");
            }
            if (!mounts.isMountPoint(dir)) {
                MountPoints.bindMount(mounts, globalPath, dir, options);
            }
        });
    }

    /**
     * Upstream {@code getGlobalLocalPath}: the directory itself, or the global mount of a block device.
     *
     * @throws VolumeException {@code path "<p>" does not exist}, or that only directories and block devices are supported
     */
    private Path globalLocalPath(VolumeSpec spec) throws VolumeException {
        String path = source(spec).getPath();
        if (path == null || path.isEmpty()) {
            throw new VolumeException("LocalVolume volume \"" + spec.name() + "\" path is empty");
        }
        return switch (HostUtil.fileType(Path.of(path))) {
            case DIRECTORY -> Path.of(path);
            case BLOCK_DEV -> deviceMountPath(spec.name());
            case MISSING -> throw new VolumeException("path \"" + path + "\" does not exist");
            default -> throw new VolumeException("only directory and block device are supported");
        };
    }

    private Path deviceMountPath(String pvName) {
        return dirs.pluginDir(NAME).resolve("mounts").resolve(pvName);
    }

    private static LocalVolumeSource source(VolumeSpec spec) {
        return spec.persistentVolume().getSpec().getLocal();
    }

    @Override
    public Unmounter newUnmounter(String volumeName, String podUid) {
        return MountPoints.cleanupMountPoint(mounts, dirs.volumeDir(podUid, NAME, volumeName));
    }

    /**
     * Upstream {@code ConstructVolumeSpec}: only what tears the pod's mount down, the bind mount at {@code mountPath};
     * its source path is not needed for that.
     */
    @Override
    public VolumeSpec constructVolumeSpec(String volumeName, Path mountPath) {
        return VolumeSpec.of(new PersistentVolumeBuilder().withNewMetadata().withName(volumeName).endMetadata()
                .withNewSpec().withNewLocal().withPath("").endLocal().withVolumeMode("Filesystem").endSpec().build(), false);
    }

    @Override
    public Optional<DeviceMounter> deviceMounter() {
        return Optional.of(new DeviceMounter() {
            @Override
            public Path deviceMountPath(VolumeSpec spec) {
                return LocalVolumePlugin.this.deviceMountPath(spec.name());
            }

            /** A directory needs no global mount; a block device is formatted if need be and mounted once. */
            @Override
            public void mountDevice(VolumeSpec spec) throws VolumeException {
                Path device = Path.of(source(spec).getPath());
                switch (HostUtil.fileType(device)) {
                    case DIRECTORY -> { }
                    case BLOCK_DEV -> mountBlockDevice(spec, device, deviceMountPath(spec));
                    case MISSING -> throw new VolumeException("path \"" + device + "\" does not exist");
                    default -> throw new VolumeException("only directory and block device are supported");
                }
            }

            @Override
            public void unmountDevice(String volumeName, Path deviceMountPath) throws VolumeException {
                MountPoints.cleanupMountPoint(mounts, deviceMountPath).tearDown();
            }
        });
    }

    /** Upstream {@code mountLocalBlockDevice}: {@code FormatAndMount} with the source's {@code fsType} (ext4 by default). */
    private void mountBlockDevice(VolumeSpec spec, Path device, Path deviceMountPath) throws VolumeException {
        if (mounts.isMountPoint(deviceMountPath)) {
            return;
        }
        String fsType = source(spec).getFsType() == null || source(spec).getFsType().isEmpty() ? "ext4"
                : source(spec).getFsType();
        List<String> options = new ArrayList<>(MountOptions.fromSpec(spec, spec.readOnly() ? new String[] {"ro"} : new String[0]));
        try {
            formatter.formatAndMount(device, deviceMountPath, fsType, options);
        } catch (MountException e) {
            throw new VolumeException("local: failed to mount device " + device + " at " + deviceMountPath
                    + " (fstype: " + fsType + "), error " + e.getMessage());
        }
    }
}
