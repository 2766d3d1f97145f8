package io.jkubelet.core.volume.emptydir;

import io.fabric8.kubernetes.api.model.EmptyDirVolumeSource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.jkubelet.core.volume.Mounter;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.Unmounter;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumeMetrics;
import io.jkubelet.core.volume.VolumePlugin;
import io.jkubelet.core.volume.VolumeSpec;
import io.jkubelet.core.volume.util.HostMounts;

import java.nio.file.Path;

/**
 * Upstream {@code pkg/volume/emptydir}: a directory under the pod's, world-writable (0777) so that any container user
 * can use it, or a tmpfs for {@code medium: Memory}; removed with its pod.
 */
public final class EmptyDirPlugin implements VolumePlugin {
    public static final String NAME = "kubernetes.io/empty-dir";
    static final String MEMORY = "Memory";

    private final PodDirs dirs;
    private final HostMounts mounts;

    public EmptyDirPlugin(PodDirs dirs, HostMounts mounts) {
        this.dirs = dirs;
        this.mounts = mounts;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean canSupport(VolumeSpec spec) {
        return spec.volume() != null && spec.volume().getEmptyDir() != null;
    }

    @Override
    public Mounter newMounter(VolumeSpec spec, Pod pod) {
        Path dir = dirs.volumeDir(pod.getMetadata().getUid(), NAME, spec.name());
        boolean memory = MEMORY.equals(spec.volume().getEmptyDir().getMedium());
        return Mounter.of(dir, false, VolumeMetrics.DU, () -> MemoryBackedDirs.setUp(mounts, dir, memory));
    }

    @Override
    public Unmounter newUnmounter(String volumeName, String podUid) {
        Path dir = dirs.volumeDir(podUid, NAME, volumeName);
        return MemoryBackedDirs.unmounter(mounts, dir);
    }

    @Override
    public VolumeSpec constructVolumeSpec(String volumeName, Path mountPath) {
        // The medium is not needed: tearing down looks at what is mounted there.
        Volume v = new VolumeBuilder().withName(volumeName).withEmptyDir(new EmptyDirVolumeSource()).build();
        return VolumeSpec.of(v);
    }
}
