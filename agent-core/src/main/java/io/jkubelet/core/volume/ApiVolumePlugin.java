package io.jkubelet.core.volume;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.jkubelet.core.volume.emptydir.MemoryBackedDirs;
import io.jkubelet.core.volume.util.HostMounts;

import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * What the configMap, secret, downwardAPI and projected plugins share (upstream's four wrap an emptyDir and write
 * through the atomic writer): each SetUp writes the payload {@link ApiVolumes} builds into the volume's directory,
 * memory-backed for all but configMap; they require a remount, so that each sync of their pod refreshes the files; the
 * kubelet owns the files, so containers mount them read-only. Each version written is given to the pod's
 * {@code fsGroup} before containers see it, read-only and whatever the pod's {@code fsGroupChangePolicy} (upstream's
 * {@code setPerms}: the group's read is added to each file's mode, {@code defaultMode: 0400} becomes {@code 0440}). On a
 * standalone node only downwardAPI volumes can be set up: the others say they need the apiserver.
 */
public abstract class ApiVolumePlugin implements VolumePlugin {
    private final String name;
    private final String sourceField;
    private final Predicate<Volume> supports;
    private final boolean memoryBacked;
    private final ApiVolumes api;
    private final PodDirs dirs;
    private final HostMounts mounts;

    /**
     * @param sourceField the volume source's field, as the standalone message names it ({@code configMap})
     * @param source the volume's source of this plugin's kind, or null
     * @param memoryBacked whether the files live on a tmpfs (secrets never reach the node's disk)
     */
    protected ApiVolumePlugin(String name, String sourceField, Function<Volume, Object> source, boolean memoryBacked,
                              ApiVolumes api, PodDirs dirs, HostMounts mounts) {
        this.name = name;
        this.sourceField = sourceField;
        this.supports = v -> source.apply(v) != null;
        this.memoryBacked = memoryBacked;
        this.api = api;
        this.dirs = dirs;
        this.mounts = mounts;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean canSupport(VolumeSpec spec) {
        return spec.volume() != null && supports.test(spec.volume());
    }

    @Override
    public boolean requiresRemount(VolumeSpec spec) {
        return true;
    }

    @Override
    public Mounter newMounter(VolumeSpec spec, Pod pod) {
        Path dir = dirs.volumeDir(pod.getMetadata().getUid(), name, spec.name());
        return Mounter.of(dir, true, VolumeMetrics.DU, args -> {
            // A standalone node still serves downwardAPI volumes: they need nothing but the pod.
            if (!api.fromApiserver() && spec.volume().getDownwardAPI() == null) {
                throw new VolumeException("volume type " + sourceField + " needs the apiserver, and this node runs standalone");
            }
            var payload = api.payload(pod, spec.volume(), args);
            // Upstream's wrapped emptyDir: a 0777 directory, or a tmpfs.
            MemoryBackedDirs.setUp(mounts, dir, memoryBacked);
            try {
                // The whole volume, not only the new version: the first write makes files outside it too.
                new AtomicWriter(dir, api.clock()).write(payload,
                        tsDir -> VolumeOwnership.setVolumeOwnership(dir, args.fsGroup(), null, true));
            } catch (IOException | IllegalArgumentException e) {
                throw new VolumeException("failed to write the volume's files in " + dir + ": " + e.getMessage());
            }
        });
    }

    @Override
    public Unmounter newUnmounter(String volumeName, String podUid) {
        return MemoryBackedDirs.unmounter(mounts, dirs.volumeDir(podUid, name, volumeName));
    }

    /**
     * A volume of this kind named {@code volumeName}, its source empty: after a restart it is either still wanted (its
     * pod's own spec replaces this one) or torn down, which needs nothing but the directory.
     */
    @Override
    public VolumeSpec constructVolumeSpec(String volumeName, Path mountPath) {
        return VolumeSpec.of(emptySource(new VolumeBuilder().withName(volumeName)).build());
    }

    /** The builder given a source of this kind with nothing in it. */
    protected abstract VolumeBuilder emptySource(VolumeBuilder volume);
}
