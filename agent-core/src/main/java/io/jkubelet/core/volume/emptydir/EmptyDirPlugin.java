package io.jkubelet.core.volume.emptydir;

import io.fabric8.kubernetes.api.model.EmptyDirVolumeSource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.jkubelet.core.volume.Mounter;
import io.jkubelet.core.volume.MounterArgs;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.Unmounter;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumeMetrics;
import io.jkubelet.core.volume.VolumePlugin;
import io.jkubelet.core.volume.VolumeOwnership;
import io.jkubelet.core.volume.VolumeSpec;
import io.jkubelet.core.volume.util.HostMounts;
import io.jkubelet.core.volume.util.ReadyFile;
import io.jkubelet.core.volume.util.RemoveAll;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Upstream {@code pkg/volume/emptydir}: a directory under the pod's, world-writable (0777) so that any container user
 * can use it, or a tmpfs for {@code medium: Memory}; removed with its pod. Once made it is given to the pod's
 * {@code fsGroup} (its group, {@code setgid}: {@code 2777}, or {@code 3777} for a tmpfs, whose root is sticky), so that
 * what containers make in it gets the group too. A ready file in {@code pods/<uid>/plugins/kubernetes.io~empty-dir/<name>}
 * marks a set-up that finished: set up again (after a restart) it is left as it is, its files and their owners too.
 * Another plugin's volume can be set up as one at its own directory (upstream's volume host {@code NewWrapperMounter}:
 * gitRepo wraps an emptyDir on the node's disk).
 */
public final class EmptyDirPlugin implements VolumePlugin {
    private static final Logger log = LoggerFactory.getLogger(EmptyDirPlugin.class);
    public static final String NAME = "kubernetes.io/empty-dir";
    static final String MEMORY = "Memory";
    /** Upstream's volume host names a wrapped volume {@code wrapped_<name>}: its ready file's directory. */
    private static final String WRAPPED = "wrapped_";

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
        String uid = pod.getMetadata().getUid();
        boolean memory = MEMORY.equals(spec.volume().getEmptyDir().getMedium());
        return mounter(dirs.volumeDir(uid, NAME, spec.name()), metaDir(uid, spec.name()), memory);
    }

    /**
     * Upstream's volume host {@code NewWrapperMounter} with an emptyDir on the node's disk, set up at {@code dir}
     * ({@code SetUpAt}): the directory of another plugin's volume {@code volumeName}, its ready file under
     * {@code wrapped_<volumeName>}.
     */
    public Mounter wrapperMounter(Path dir, String podUid, String volumeName) {
        return mounter(dir, metaDir(podUid, WRAPPED + volumeName), false);
    }

    private Mounter mounter(Path dir, Path readyDir, boolean memory) {
        return Mounter.of(dir, false, VolumeMetrics.DU, args -> setUp(dir, readyDir, memory, args));
    }

    /** Upstream {@code getMetaDir}: where the volume's ready file is. */
    private Path metaDir(String uid, String volumeName) {
        return dirs.podPluginDir(uid, NAME).resolve(volumeName);
    }

    /**
     * Upstream {@code SetUpAt}: nothing when a set-up finished before and the volume is still there; otherwise the
     * directory (or tmpfs), then the pod's {@code fsGroup} given to it, read-write, whatever the pod's
     * {@code fsGroupChangePolicy}, even when the set-up failed; a failed ownership change is logged, not returned.
     */
    private void setUp(Path dir, Path readyDir, boolean memory, MounterArgs args) throws VolumeException {
        if (ReadyFile.isReady(readyDir)) {
            if (memory ? mounts.isLikelyMountPoint(dir) : Files.isDirectory(dir)) {
                return;
            }
            if (!memory) {
                log.warn("volume ready file dir {} exist, but volume dir {} does not. Remove ready dir", readyDir, dir);
                removeReadyDir(readyDir);
            }
        }
        VolumeException failed = null;
        try {
            MemoryBackedDirs.setUp(mounts, dir, memory);
        } catch (VolumeException e) {
            failed = e;
        }
        try {
            VolumeOwnership.setVolumeOwnership(dir, args.fsGroup(), null, false);
        } catch (IOException e) {
            log.error("Setting volume ownership for {} and fsGroup {} failed: {}", dir, args.fsGroup(), e.toString());
        }
        if (failed != null) {
            throw failed;
        }
        ReadyFile.setReady(readyDir);
    }

    private static void removeReadyDir(Path readyDir) {
        try {
            RemoveAll.oneFilesystem(readyDir);
        } catch (IOException e) {
            log.warn("failed to remove ready dir [{}]: {}", readyDir, e.toString());
        }
    }

    /** Upstream {@code TearDownAt}: the ready file first, then the directory (or tmpfs). */
    @Override
    public Unmounter newUnmounter(String volumeName, String podUid) {
        return unmounter(dirs.volumeDir(podUid, NAME, volumeName), metaDir(podUid, volumeName));
    }

    /**
     * Upstream's {@code UnmountViaEmptyDir}: the volume {@code volumeName} that {@link #wrapperMounter} set up at
     * {@code dir}, torn down as an emptyDir.
     */
    public Unmounter wrapperUnmounter(Path dir, String podUid, String volumeName) {
        return unmounter(dir, metaDir(podUid, WRAPPED + volumeName));
    }

    private Unmounter unmounter(Path dir, Path readyDir) {
        Unmounter volume = MemoryBackedDirs.unmounter(mounts, dir);
        return Unmounter.of(dir, () -> {
            ReadyFile.remove(readyDir);
            volume.tearDown();
        });
    }

    @Override
    public VolumeSpec constructVolumeSpec(String volumeName, Path mountPath) {
        // The medium is not needed: tearing down looks at what is mounted there.
        Volume v = new VolumeBuilder().withName(volumeName).withEmptyDir(new EmptyDirVolumeSource()).build();
        return VolumeSpec.of(v);
    }
}
