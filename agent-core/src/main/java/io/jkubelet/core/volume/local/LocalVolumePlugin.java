package io.jkubelet.core.volume.local;

import io.fabric8.kubernetes.api.model.LocalVolumeSource;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.volume.BlockVolumeMapper;
import io.jkubelet.core.volume.BlockVolumePlugin;
import io.jkubelet.core.volume.BlockVolumeUnmapper;
import io.jkubelet.core.volume.DeviceMounter;
import io.jkubelet.core.volume.Mounter;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.Unmounter;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumeMetrics;
import io.jkubelet.core.volume.VolumeOwnership;
import io.jkubelet.core.volume.VolumeSpec;
import io.jkubelet.core.volume.util.HostMounts;
import io.jkubelet.core.volume.util.HostUtil;
import io.jkubelet.core.volume.util.MountException;
import io.jkubelet.core.volume.util.MountOptions;
import io.jkubelet.core.volume.util.MountPoints;
import io.jkubelet.core.volume.util.SafeFormatAndMount;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Upstream {@code pkg/volume/local}: a {@code local} PersistentVolume, a directory of the node (or a block device,
 * formatted if need be and mounted once at {@code <root-dir>/plugins/kubernetes.io/local-volume/mounts/<pv>}),
 * bind-mounted into each pod that claims it, read-only when the claim is. The volume is named for itself, so that the
 * pods sharing it share one volume; tearing a pod's mount down never touches the data. The first pod to mount a
 * writable claim gives the volume to its {@code fsGroup}, as its {@code fsGroupChangePolicy} says; a pod that mounts it
 * while another pod has it changes nothing, and is told with a warning event when the volume's group is not its own.
 * A volume in {@code volumeMode: Block} is the node's block device given to the pods as it is ({@link LocalVolumeMapper}),
 * never formatted nor mounted.
 */
public final class LocalVolumePlugin implements BlockVolumePlugin {
    public static final String NAME = "kubernetes.io/local-volume";
    /** Upstream's {@code events.WarnAlreadyMountedVolume}. */
    public static final String ALREADY_MOUNTED_VOLUME = "AlreadyMountedVolume";

    private final PodDirs dirs;
    private final HostMounts mounts;
    private final SafeFormatAndMount formatter;
    private final EventRecorder recorder;

    /** @param recorder where the warning that a shared volume's group is not the pod's {@code fsGroup} goes */
    public LocalVolumePlugin(PodDirs dirs, HostMounts mounts, EventRecorder recorder) {
        this.dirs = dirs;
        this.mounts = mounts;
        this.formatter = new SafeFormatAndMount(mounts);
        this.recorder = recorder;
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
        return Mounter.of(dir, spec.readOnly(), VolumeMetrics.STATFS, args -> {
            if (HostUtil.hasBacksteps(globalPath.toString())) {
                throw new VolumeException("invalid path: " + globalPath + " must not contain '..'");
            }
            if (mounts.isMountPoint(dir)) {
                return;
            }
            List<Path> otherPods = args.fsGroup() == null ? List.of() : otherPodsMounts(spec, pod, globalPath, args.fsGroup());
            MountPoints.bindMount(mounts, globalPath, dir, options);
            // Upstream's "volume owner will be written only once on the first volume mount".
            if (!spec.readOnly() && otherPods.isEmpty()) {
                try {
                    VolumeOwnership.setVolumeOwnership(dir, args.fsGroup(), args.fsGroupChangePolicy(), false);
                } catch (IOException e) {
                    throw new VolumeException("setting the volume's ownership for fsGroup " + args.fsGroup() + " failed: "
                            + e);
                }
            }
        });
    }

    /**
     * Upstream's mount refs of the volume that are pods' (under {@code <root-dir>/pods}); when there are some and the
     * volume's group is not {@code fsGroup}, the pod is told that it may not share it.
     *
     * @throws VolumeException when the mounts or the volume's group cannot be read
     */
    private List<Path> otherPodsMounts(VolumeSpec spec, Pod pod, Path globalPath, long fsGroup) throws VolumeException {
        List<Path> refs = new ArrayList<>();
        try {
            for (Path ref : mounts.mountRefs(globalPath)) {
                if (ref.startsWith(dirs.podsDir().toAbsolutePath())) {
                    refs.add(ref);
                }
            }
        } catch (MountException e) {
            throw new VolumeException(e.getMessage());
        }
        if (refs.isEmpty()) {
            return refs;
        }
        int gid;
        try {
            gid = (Integer) Files.getAttribute(globalPath, "unix:gid");
        } catch (IOException e) {
            throw new VolumeException("failed to check fsGroup for " + globalPath + " (" + e + ")");
        }
        if (gid != fsGroup) {
            recorder.event(References.pod(pod), EventRecorder.WARNING, ALREADY_MOUNTED_VOLUME, "The requested fsGroup is "
                    + fsGroup + ", but the volume " + spec.name() + " has GID " + gid + ". The volume may not be shareable.");
        }
        return refs;
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

    /** Upstream {@code NewBlockVolumeMapper}: the device at the PersistentVolume's path. */
    @Override
    public BlockVolumeMapper newBlockVolumeMapper(VolumeSpec spec, Pod pod) {
        String path = source(spec).getPath();
        return new LocalVolumeMapper(dirs, pod.getMetadata().getUid(), spec.name(), path == null ? "" : path);
    }

    @Override
    public BlockVolumeUnmapper newBlockVolumeUnmapper(String volumeName, String podUid) {
        return new LocalVolumeMapper(dirs, podUid, volumeName, "");
    }

    /**
     * Upstream {@code ConstructBlockVolumeSpec}: a Block PersistentVolume of that name without its path, which unmapping
     * does not need (the device is not detached from the node).
     */
    @Override
    public VolumeSpec constructBlockVolumeSpec(String podUid, String volumeName, Path mapPath) {
        return VolumeSpec.of(new PersistentVolumeBuilder().withNewMetadata().withName(volumeName).endMetadata()
                .withNewSpec().withNewLocal().withPath("").endLocal().withVolumeMode("Block").endSpec().build(), false);
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
            public void mountDevice(VolumeSpec spec, String devicePath) throws VolumeException {
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
