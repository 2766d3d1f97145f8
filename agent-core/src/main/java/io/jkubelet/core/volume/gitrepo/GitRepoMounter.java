package io.jkubelet.core.volume.gitrepo;

import io.jkubelet.core.volume.Mounter;
import io.jkubelet.core.volume.MounterArgs;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumeMetrics;
import io.jkubelet.core.volume.VolumeOwnership;
import io.jkubelet.core.volume.util.ReadyFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Upstream's {@code gitRepoVolumeMounter}: a pod's gitRepo volume, cloned once. Its set-up sets up the wrapped emptyDir
 * at the volume's directory, runs {@code git clone -- <repository> [<directory>]} there, and with a revision
 * {@code git checkout <revision>} and {@code git reset --hard} in the repository cloned; then the ready file, so that
 * setting it up again (each sync of the pod, a restart) leaves the repository as the pod has it. Writable; not measured
 * (upstream's {@code MetricsNil}).
 */
final class GitRepoMounter implements Mounter {
    private static final Logger log = LoggerFactory.getLogger(GitRepoMounter.class);

    private final String volumeName;
    private final Path dir;
    private final Path metaDir;
    private final Mounter wrapped;
    private final Git git;
    private final String repository;
    private final String revision;
    private final String directory;

    /**
     * @param dir the volume's directory, {@code pods/<uid>/volumes/kubernetes.io~git-repo/<name>}
     * @param metaDir where its ready file is, {@code pods/<uid>/plugins/kubernetes.io~git-repo/<name>}
     * @param wrapped the emptyDir set up at {@code dir}
     * @param revision the commit to check out, or null or empty for the cloned default branch
     * @param directory the directory to clone into within the volume, or null or empty for git's own choice
     */
    GitRepoMounter(String volumeName, Path dir, Path metaDir, Mounter wrapped, Git git, String repository,
                   String revision, String directory) {
        this.volumeName = volumeName;
        this.dir = dir;
        this.metaDir = metaDir;
        this.wrapped = wrapped;
        this.git = git;
        this.repository = repository;
        this.revision = revision;
        this.directory = directory;
    }

    @Override
    public Path path() {
        return dir;
    }

    @Override
    public boolean readOnly() {
        return false;
    }

    @Override
    public VolumeMetrics metrics() {
        return VolumeMetrics.NONE;
    }

    /**
     * Upstream {@code SetUpAt}. A failure after the clone leaves what was cloned: the next try fails on it (git's
     * {@code destination path ... already exists}), as upstream's.
     */
    @Override
    public void setUp(MounterArgs args) throws VolumeException {
        if (ReadyFile.isReady(metaDir)) {
            return;
        }
        wrapped.setUp(args);

        List<String> clone = new ArrayList<>(List.of("clone", "--", repository));
        if (GitRepoValidation.isSet(directory)) {
            clone.add(directory);
        }
        exec(clone, dir);
        if (!GitRepoValidation.isSet(revision)) {
            // Upstream's "Done!": the files keep their modes; the wrapped emptyDir's setgid gave them the group.
            ReadyFile.setReady(metaDir);
            return;
        }
        Path repo = clonedRepository();
        exec(List.of("checkout", revision), repo);
        exec(List.of("reset", "--hard"), repo);
        try {
            VolumeOwnership.setVolumeOwnership(dir, args.fsGroup(), null, false);
        } catch (IOException e) {
            // Upstream drops SetVolumeOwnership's error here.
            log.error("Setting volume ownership for {} and fsGroup {} failed: {}", dir, args.fsGroup(), e.toString());
        }
        ReadyFile.setReady(metaDir);
    }

    /**
     * Where the checkout runs: the volume itself for the directory {@code .}, else the one entry the clone made
     * (upstream's rule; its message lists Go's file infos, this one their names).
     */
    private Path clonedRepository() throws VolumeException {
        if (GitRepoValidation.isSet(directory) && GitRepoValidation.clean(directory).isEmpty()) {
            return dir;
        }
        List<String> names;
        try (Stream<Path> entries = Files.list(dir)) {
            names = entries.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new VolumeException("failed to read " + dir + ": " + e.getMessage());
        }
        if (names.size() != 1) {
            throw new VolumeException("unexpected directory contents: [" + String.join(" ", names) + "]");
        }
        return dir.resolve(names.getFirst());
    }

    /** Upstream's {@code failed to exec 'git <args>': <output>: <error>}. */
    private void exec(List<String> gitArgs, Path in) throws VolumeException {
        String command = "failed to exec 'git " + String.join(" ", gitArgs) + "': ";
        try {
            git.run(in, gitArgs);
        } catch (Git.GitException e) {
            String why = e.started() ? e.getMessage()
                    : e.getMessage() + " (the node needs " + git.binary() + " for gitRepo volume \"" + volumeName + "\")";
            throw new VolumeException(command + e.output() + ": " + why);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new VolumeException(command + "interrupted");
        }
    }
}
