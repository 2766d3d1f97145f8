package io.jkubelet.core.volume.gitrepo;

import io.fabric8.kubernetes.api.model.GitRepoVolumeSource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.jkubelet.core.volume.Mounter;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.Unmounter;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumePlugin;
import io.jkubelet.core.volume.VolumeSpec;
import io.jkubelet.core.volume.emptydir.EmptyDirPlugin;
import io.jkubelet.core.volume.util.ReadyFile;

import java.nio.file.Path;

/**
 * Upstream {@code pkg/volume/git_repo} (deprecated upstream, still served by v1.30's kubelet): a directory of the pod's,
 * an emptyDir on the node's disk that the host's {@code git} clones a repository into once ({@link GitRepoMounter}),
 * given to the pod's {@code fsGroup} after a revision's checkout; removed with its pod as the emptyDir it wraps. Its
 * values are validated first ({@link GitRepoValidation}), so that a pod cannot give git an option. Not remounted: the
 * repository is not fetched again while the pod runs.
 */
public final class GitRepoPlugin implements VolumePlugin {
    public static final String NAME = "kubernetes.io/git-repo";

    private final PodDirs dirs;
    private final EmptyDirPlugin emptyDir;
    private final Git git;

    public GitRepoPlugin(PodDirs dirs, EmptyDirPlugin emptyDir) {
        this(dirs, emptyDir, "git");
    }

    /** @param gitBinary the git to run: {@code git} from the kubelet's {@code PATH}, or a path */
    GitRepoPlugin(PodDirs dirs, EmptyDirPlugin emptyDir, String gitBinary) {
        this.dirs = dirs;
        this.emptyDir = emptyDir;
        this.git = new Git(gitBinary);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean canSupport(VolumeSpec spec) {
        return spec.volume() != null && spec.volume().getGitRepo() != null;
    }

    /** @throws VolumeException upstream's {@code "-x" is an invalid value for repository} and the like */
    @Override
    public Mounter newMounter(VolumeSpec spec, Pod pod) throws VolumeException {
        GitRepoVolumeSource src = spec.volume().getGitRepo();
        GitRepoValidation.validate(src);
        String uid = pod.getMetadata().getUid();
        Path dir = dirs.volumeDir(uid, NAME, spec.name());
        return new GitRepoMounter(spec.name(), dir, metaDir(uid, spec.name()),
                emptyDir.wrapperMounter(dir, uid, spec.name()), git, src.getRepository(), src.getRevision(),
                src.getDirectory());
    }

    /** Upstream {@code getMetaDir}: where the volume's ready file is. */
    private Path metaDir(String uid, String volumeName) {
        return dirs.podPluginDir(uid, NAME).resolve(volumeName);
    }

    /**
     * Upstream {@code TearDownAt}: the wrapped emptyDir's teardown. The volume's own ready file goes first (upstream
     * leaves it to the pod directory's removal), so that a volume set up again after its teardown is cloned afresh.
     */
    @Override
    public Unmounter newUnmounter(String volumeName, String podUid) {
        Path dir = dirs.volumeDir(podUid, NAME, volumeName);
        Path metaDir = metaDir(podUid, volumeName);
        Unmounter wrapped = emptyDir.wrapperUnmounter(dir, podUid, volumeName);
        return Unmounter.of(dir, () -> {
            ReadyFile.remove(metaDir);
            wrapped.tearDown();
        });
    }

    /** A gitRepo volume with an empty source: a reconstructed one is torn down, or its pod's spec replaces it. */
    @Override
    public VolumeSpec constructVolumeSpec(String volumeName, Path mountPath) {
        Volume v = new VolumeBuilder().withName(volumeName).withGitRepo(new GitRepoVolumeSource()).build();
        return VolumeSpec.of(v);
    }
}
