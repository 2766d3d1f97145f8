package io.jkubelet.core.volume.gitrepo;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.objects.PersistentVolumeClient;
import io.jkubelet.core.testing.FakeClock;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumePluginMgr;
import io.jkubelet.core.volume.emptydir.EmptyDirPlugin;
import io.jkubelet.core.volume.util.LinuxMounts;
import io.jkubelet.core.volumemanager.ManualVolumeManager;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * gitRepo volumes mounted through the real volume manager and its in-tree plugins, cloned by the host's real git from a
 * repository the test makes with two commits: what the pod's containers find in the volume, the messages of its
 * {@code FailedMount} events (upstream's), its {@code fsGroup}, a restarted kubelet that does not clone again, and its
 * teardown.
 */
class GitRepoVolumeTest {
    private static final long FS_GROUP = 4321;

    @TempDir Path root;
    private final LoggingEventRecorder events = new LoggingEventRecorder(new FakeClock());
    private PodDirs dirs;
    private ManualVolumeManager volumes;
    private Path origin;
    private String first;
    private String second;

    @BeforeEach
    void aRepositoryWithTwoCommits() throws Exception {
        dirs = new PodDirs(root.resolve("kubelet"));
        volumes = ManualVolumeManager.standalone(dirs.rootDir(), events);
        origin = Files.createDirectories(root.resolve("site"));
        git(origin, "init", "-q");
        Files.writeString(origin.resolve("index.html"), "v1");
        git(origin, "add", ".");
        git(origin, "commit", "-q", "-m", "first");
        first = git(origin, "rev-parse", "HEAD").strip();
        Files.writeString(origin.resolve("index.html"), "v2");
        Files.writeString(origin.resolve("news.html"), "new");
        git(origin, "add", ".");
        git(origin, "commit", "-q", "-m", "second");
        second = git(origin, "rev-parse", "HEAD").strip();
    }

    /** The test's own git, with an identity and no hooks or signing from the machine's configuration. */
    private static String git(Path dir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "-c", "user.name=test", "-c", "user.email=test@example.com",
                "-c", "commit.gpgsign=false", "-c", "core.hooksPath=/dev/null"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("git " + String.join(" ", args)).isTrue();
        assertThat(p.exitValue()).as("git " + String.join(" ", args) + ": " + out).isZero();
        return out;
    }

    private static Volume gitRepo(String repository, String revision, String directory) {
        return new VolumeBuilder().withName("site").withNewGitRepo().withRepository(repository).withRevision(revision)
                .withDirectory(directory).endGitRepo().build();
    }

    private Volume gitRepo(String revision, String directory) {
        return gitRepo(origin.toString(), revision, directory);
    }

    private static Pod pod(String uid, Long fsGroup, Volume volume) {
        return new PodBuilder().withNewMetadata().withName("web-" + uid).withNamespace("shop").withUid(uid).endMetadata()
                .withNewSpec().withNewSecurityContext().withFsGroup(fsGroup).endSecurityContext()
                .addNewContainer().withName("app").withImage("nginx").addNewVolumeMount().withName(volume.getName())
                .withMountPath("/usr/share/nginx/html").endVolumeMount().endContainer()
                .withVolumes(volume).endSpec().build();
    }

    private Path mount(Pod pod) throws VolumeException {
        return volumes.mountVolumes(pod).get("site");
    }

    private static String stat(Path p) throws IOException {
        return Files.getAttribute(p, "unix:gid") + " " + Integer.toOctalString((Integer) Files.getAttribute(p, "unix:mode") & 07777);
    }

    @Test
    void theRepositoryIsClonedIntoADirectoryOfItsOwnAtItsDefaultBranch() throws Exception {
        Path site = mount(pod("u-1", null, gitRepo(null, null)));

        assertThat(site).isEqualTo(dirs.volumeDir("u-1", "kubernetes.io/git-repo", "site"));
        assertThat(Files.readString(site.resolve("site/index.html"))).isEqualTo("v2");
        assertThat(git(site.resolve("site"), "rev-parse", "HEAD").strip()).isEqualTo(second);
        assertThat(Files.isDirectory(site.resolve("site/.git"))).isTrue();
    }

    @Test
    void aRevisionIsCheckedOutInTheDirectoryCloned() throws Exception {
        Path site = mount(pod("u-1", null, gitRepo(first, "html")));

        assertThat(site.toFile().list()).containsExactly("html");
        assertThat(Files.readString(site.resolve("html/index.html"))).isEqualTo("v1");
        assertThat(site.resolve("html/news.html")).doesNotExist();
        assertThat(git(site.resolve("html"), "rev-parse", "HEAD").strip()).isEqualTo(first);
    }

    @Test
    void theDirectoryDotMakesTheVolumeItselfTheRepository() throws Exception {
        Path site = mount(pod("u-1", null, gitRepo(first, ".")));

        assertThat(Files.readString(site.resolve("index.html"))).isEqualTo("v1");
        assertThat(git(site, "rev-parse", "HEAD").strip()).isEqualTo(first);
    }

    @Test
    void aDirectoryOfSeveralLevelsIsClonedIntoWhenNoRevisionIsGiven() throws Exception {
        Path site = mount(pod("u-1", null, gitRepo(null, "www/html")));

        assertThat(Files.readString(site.resolve("www/html/index.html"))).isEqualTo("v2");
    }

    /**
     * The first {@code FailedMount} message of a pod with the volume (the retries that follow may say otherwise: a
     * failed checkout leaves the clone, on which the next clone fails, as upstream's); the pod then goes.
     */
    private String mountFailure(String uid, Volume volume) {
        Pod pod = pod(uid, null, volume);
        try {
            assertThatThrownBy(() -> mount(pod)).isInstanceOf(VolumeException.class);
        } finally {
            volumes.cleanupPod(uid);
        }
        return events.events().stream().filter(e -> e.reason().equals("FailedMount")
                        && e.involvedObject().getName().equals(pod.getMetadata().getName()))
                .findFirst().orElseThrow().message();
    }

    @Test
    void valuesThatGitWouldTakeForOptionsAndADeepDirectoryWithARevisionAreRefusedBeforeGitRuns() {
        String failed = "MountVolume.NewMounter initialization failed for volume \"site\" : ";
        assertThat(mountFailure("u-1", gitRepo("--upload-pack=touch /tmp/pwned", null, null)))
                .isEqualTo(failed + "\"--upload-pack=touch /tmp/pwned\" is an invalid value for repository");
        assertThat(mountFailure("u-2", gitRepo("-b", null)))
                .isEqualTo(failed + "\"-b\" is an invalid value for revision");
        assertThat(mountFailure("u-3", gitRepo(null, "-q")))
                .isEqualTo(failed + "\"-q\" is an invalid value for directory");
        // v1.30.3's fix of CVE-2024-10220: a checkout only in the one directory cloned into.
        assertThat(mountFailure("u-4", gitRepo(first, "html/.git")))
                .isEqualTo(failed + "\"html/.git\" is not a valid directory, it must not contain a directory separator");
        assertThat(mountFailure("u-5", gitRepo(first, "a\\b")))
                .isEqualTo(failed + "\"a\\\\b\" is not a valid directory, it must not contain a directory separator");
        assertThat(dirs.volumesDir("u-4")).as("nothing was set up").doesNotExist();
    }

    @Test
    void aDirectoryThatCleansToOneLevelIsTakenWithARevision() throws Exception {
        Path site = mount(pod("u-1", null, gitRepo(first, "./html/")));

        assertThat(Files.readString(site.resolve("html/index.html"))).isEqualTo("v1");
    }

    @Test
    void gitsOwnFailuresAreShownAsUpstreamShowsThem() {
        Path missing = root.resolve("missing");
        assertThat(mountFailure("u-1", gitRepo(missing.toString(), null, null)))
                .startsWith("MountVolume.SetUp failed for volume \"site\" : failed to exec 'git clone -- " + missing
                        + "': fatal: repository '" + missing + "' does not exist")
                .endsWith(": exit status 128");

        assertThat(mountFailure("u-2", gitRepo("no-such-revision", null)))
                .startsWith("MountVolume.SetUp failed for volume \"site\" : failed to exec "
                        + "'git checkout no-such-revision': error: pathspec 'no-such-revision' did not match")
                .endsWith(": exit status 1");
    }

    @Test
    void withARevisionAVolumeWhoseDirectoryHoldsMoreThanTheCloneIsRefused() throws Exception {
        // What a container left there, say, of a set-up that failed after the clone.
        Files.createDirectories(dirs.volumeDir("u-1", "kubernetes.io/git-repo", "site").resolve("leftover"));

        assertThat(mountFailure("u-1", gitRepo(first, null)))
                .isEqualTo("MountVolume.SetUp failed for volume \"site\" : unexpected directory contents: [leftover site]");
    }

    @Test
    void aNodeWithoutGitSaysSoNamingTheVolumeAndTheBinary() {
        EmptyDirPlugin emptyDir = new EmptyDirPlugin(dirs, new LinuxMounts());
        ManualVolumeManager withoutGit = new ManualVolumeManager(dirs, new LinuxMounts(), new VolumePluginMgr(
                List.of(emptyDir, new GitRepoPlugin(dirs, emptyDir, "jk-no-such-git"))), PersistentVolumeClient.STANDALONE,
                events);

        assertThatThrownBy(() -> withoutGit.mountVolumes(pod("u-1", null, gitRepo(null, null))))
                .hasMessage("MountVolume.SetUp failed for volume \"site\" : failed to exec 'git clone -- " + origin
                        + "': : exec: \"jk-no-such-git\": executable file not found in $PATH (the node needs "
                        + "jk-no-such-git for gitRepo volume \"site\")");
    }

    @Test
    void afterARevisionsCheckoutTheFilesAreTheFsGroupsReadWrite() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "other groups need root");
        Path site = mount(pod("u-1", FS_GROUP, gitRepo(first, "html")));

        assertThat(stat(site)).isEqualTo(FS_GROUP + " 2777");
        assertThat(stat(site.resolve("html"))).startsWith(FS_GROUP + " 27");
        assertThat(Integer.parseInt(stat(site.resolve("html/index.html")).split(" ")[1], 8) & 0660).isEqualTo(0660);
        assertThat(stat(site.resolve("html/index.html"))).startsWith(FS_GROUP + " ");

        Path none = mount(pod("u-2", null, gitRepo(first, "html")));
        Object podsGroup = Files.getAttribute(dirs.podDir("u-2"), "unix:gid");
        assertThat(stat(none)).isEqualTo(podsGroup + " 777");
        assertThat(stat(none.resolve("html/index.html"))).endsWith(" 644").doesNotStartWith(FS_GROUP + " ");
    }

    @Test
    void aRestartedKubeletDoesNotCloneAgainAndLeavesWhatThePodChanged() throws Exception {
        Pod pod = pod("u-1", null, gitRepo(null, "html"));
        Path site = mount(pod);
        Files.writeString(site.resolve("html/index.html"), "edited by the app");
        git(origin, "commit", "-q", "--allow-empty", "-m", "third");

        ManualVolumeManager restarted = ManualVolumeManager.standalone(dirs.rootDir(), events);
        restarted.reconstruct();
        assertThat(restarted.mountVolumes(pod).get("site")).isEqualTo(site);

        assertThat(Files.readString(site.resolve("html/index.html"))).isEqualTo("edited by the app");
        assertThat(git(site.resolve("html"), "rev-parse", "HEAD").strip()).isEqualTo(second);
    }

    @Test
    void theVolumeGoesWithItsPodAsTheEmptyDirItWraps() throws Exception {
        Path site = mount(pod("u-1", null, gitRepo(first, ".")));
        Path readyDirs = dirs.podDir("u-1").resolve("plugins");
        assertThat(readyDirs.resolve("kubernetes.io~git-repo/site/ready")).isRegularFile();
        assertThat(readyDirs.resolve("kubernetes.io~empty-dir/wrapped_site/ready")).isRegularFile();

        volumes.cleanupPod("u-1");

        assertThat(site).doesNotExist();
        assertThat(readyDirs.resolve("kubernetes.io~git-repo/site")).doesNotExist();
        assertThat(readyDirs.resolve("kubernetes.io~empty-dir/wrapped_site")).doesNotExist();
        assertThat(volumes.manager().podVolumesExist("u-1")).isFalse();
    }
}
