package io.jkubelet.core.volume.nfs;

import io.fabric8.kubernetes.api.model.NFSVolumeSource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.jkubelet.core.volume.Mounter;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.Unmounter;
import io.jkubelet.core.volume.VolumeMetrics;
import io.jkubelet.core.volume.VolumePlugin;
import io.jkubelet.core.volume.VolumeSpec;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.util.HostMounts;
import io.jkubelet.core.volume.util.MountOptions;
import io.jkubelet.core.volume.util.MountPoints;

import java.nio.file.Path;
import java.util.List;

/**
 * Upstream {@code pkg/volume/nfs}: an NFS export, a pod's own {@code nfs} volume or an {@code nfs} PersistentVolume,
 * mounted with {@code mount -t nfs <server>:<path>} (the machine's {@code mount.nfs}, Debian's {@code nfs-common}) into
 * the pod's volume directory, read-only when the source or the claim says so, with the PersistentVolume's
 * {@code mountOptions}. The kernel must have the NFS client; without it the mount fails with the kernel's
 * {@code unknown filesystem type 'nfs'}, and the pod waits.
 */
public final class NfsPlugin implements VolumePlugin {
    public static final String NAME = "kubernetes.io/nfs";

    private final PodDirs dirs;
    private final HostMounts mounts;

    public NfsPlugin(PodDirs dirs, HostMounts mounts) {
        this.dirs = dirs;
        this.mounts = mounts;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean canSupport(VolumeSpec spec) {
        return (spec.volume() != null && spec.volume().getNfs() != null)
                || (spec.persistentVolume() != null && spec.persistentVolume().getSpec() != null
                && spec.persistentVolume().getSpec().getNfs() != null);
    }

    @Override
    public Mounter newMounter(VolumeSpec spec, Pod pod) {
        NFSVolumeSource src = spec.volume() != null ? spec.volume().getNfs() : spec.persistentVolume().getSpec().getNfs();
        // A pod's own volume says read-only in its source, a claim in its volume's.
        boolean readOnly = spec.volume() != null ? Boolean.TRUE.equals(src.getReadOnly()) : spec.readOnly();
        Path dir = dirs.volumeDir(pod.getMetadata().getUid(), NAME, spec.name());
        List<String> options = MountOptions.fromSpec(spec, readOnly ? new String[] {"ro"} : new String[0]);
        // The export's files are the server's: upstream's NFS plugin gives them to no fsGroup (args).
        return Mounter.of(dir, readOnly, VolumeMetrics.STATFS, args -> {
            if (!mounts.isMountPoint(dir)) {
                MountPoints.mount(mounts, source(src), dir, "nfs", options);
            }
        });
    }

    /** {@code server:path}, an IPv6 server in brackets. */
    static String source(NFSVolumeSource src) {
        String server = src.getServer();
        if (server.contains(":") && !server.startsWith("[")) {
            server = "[" + server + "]";
        }
        return server + ":" + src.getPath();
    }

    @Override
    public Unmounter newUnmounter(String volumeName, String podUid) {
        return MountPoints.cleanupMountPoint(mounts, dirs.volumeDir(podUid, NAME, volumeName));
    }

    /** Upstream {@code ConstructVolumeSpec}: enough to unmount what is mounted at {@code mountPath}. */
    @Override
    public VolumeSpec constructVolumeSpec(String volumeName, Path mountPath) {
        return VolumeSpec.of(new VolumeBuilder().withName(volumeName).withNewNfs().withPath(volumeName).endNfs().build());
    }
}
