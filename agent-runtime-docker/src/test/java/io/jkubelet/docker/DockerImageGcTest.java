package io.jkubelet.docker;

import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.images.ImageGCManager;
import io.jkubelet.core.images.ImageGCPolicy;
import io.jkubelet.core.runtime.FilesystemUsage;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.testing.ImagesWithPrefix;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Image GC on the real engine and its real image file system. The thresholds are placed just below what the file
 * system uses now, so that a pass must free space without a byte being written. The engine is shared: image GC
 * sees only the images this test made (a view of the adapter's images filtered by repository), so only they can
 * be removed; every other call goes to the adapter unchanged.
 */
class DockerImageGcTest extends DockerPodsTestBase {
    private final String repository = "jkubelet-gc-test-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<String> made = new ArrayList<>();
    private final FakeClock clock = new FakeClock();
    private final LoggingEventRecorder events = new LoggingEventRecorder(clock);
    private final ImagesWithPrefix view = new ImagesWithPrefix(runtime, repository + "/");

    @AfterEach
    void removeImages() {
        pods.removeAll(); // first: the containers that hold the images
        for (String id : made) {
            runtime.removeImage(id);
        }
    }

    private String image(String name) {
        String id = DockerTestSupport.createUniqueImage(docker, repository + "/" + name + ":1");
        made.add(id);
        return id;
    }

    /** A container made from the image, created and never started: it holds the image as a running one would. */
    private void useImage(String name) {
        PodSandboxConfig sandbox = pods.sandbox("user-of-" + name, c -> c);
        String sandboxId = runtime.runPodSandbox(sandbox);
        runtime.createContainer(sandboxId, pods.container("c", List.of("true"), sandbox,
                c -> new io.jkubelet.core.runtime.ContainerConfig(c.metadata(), repository + "/" + name + ":1",
                        c.command(), c.args(), c.workingDir(), c.envs(), c.mounts(), c.labels(), c.annotations(),
                        c.logPath(), c.stdin(), c.stdinOnce(), c.tty(), c.resources(), c.securityContext())), sandbox);
    }

    /** High threshold one point below what the image file system uses now: a pass must free space. */
    private static ImageGCPolicy justBelowCurrentUsage(Duration minAge) {
        FilesystemUsage fs = runtime.imageFsInfo();
        int usage = 100 - (int) (fs.availableBytes() * 100 / fs.capacityBytes());
        int high = Math.max(1, usage - 1);
        return new ImageGCPolicy(high, high - 1, minAge, Duration.ZERO);
    }

    @Test
    void overTheHighThresholdUnusedImagesGoLeastRecentlyUsedFirstAndUsedOnesStay() throws Exception {
        String inUse = image("in-use");
        String usedBefore = image("used-before");
        String neverUsed = image("never-used");
        ImageGCManager gc = new ImageGCManager(view, runtime, DockerTestSupport.PAUSE,
                justBelowCurrentUsage(Duration.ofMinutes(2)), events, "gc-node", clock, ImageGCManager.Observer.NOOP);

        // First sight: every image is younger than the minimum age, so nothing can go and the target is missed.
        useImage("used-before");
        assertThatThrownBy(() -> gc.garbageCollect(clock.instant())).isInstanceOf(ImageGCManager.ImageGCException.class);
        assertThat(view.removed).isEmpty();
        assertThat(events.events()).anyMatch(e -> e.reason().equals("FreeDiskSpaceFailed") && e.type().equals("Warning"));

        // used-before was last used at the first pass; in-use is used from now on.
        pods.removeAll();
        useImage("in-use");
        clock.advance(Duration.ofMinutes(3));
        // The test's images are far smaller than the 1 % between the thresholds: all unused ones go, and the
        // target is still missed.
        assertThatThrownBy(() -> gc.garbageCollect(clock.instant().minus(Duration.ofMinutes(3))))
                .isInstanceOf(ImageGCManager.ImageGCException.class)
                .hasMessageStartingWith("Failed to garbage collect required amount of images. Attempted to free ");

        assertThat(view.removed).containsExactly(neverUsed, usedBefore);
        assertThat(runtime.imageStatus(neverUsed)).isEmpty();
        assertThat(runtime.imageStatus(usedBefore)).isEmpty();
        assertThat(runtime.imageStatus(inUse)).isPresent();
        assertThat(runtime.imageStatus(DockerTestSupport.PAUSE)).isPresent();
        assertThat(runtime.imageStatus(DockerTestSupport.BUSYBOX)).isPresent();
    }

    @Test
    void anImageThatAnotherImageIsBuiltOnIsNotRemovedAndKeepsItsName() {
        String parent = image("parent");
        String container = docker.createContainerCmd(repository + "/parent:1").withCmd("true").exec().getId();
        String child;
        try {
            child = docker.commitCmd(container).withRepository(repository + "/child").withTag("1").exec();
        } finally {
            docker.removeContainerCmd(container).withForce(true).exec();
        }
        made.add(0, child);
        // A second name, so that the adapter must take names off one by one (what Docker would do to a parent).
        docker.tagImageCmd(parent, repository + "/parent-alias", "1").exec();

        assertThatThrownBy(() -> runtime.removeImage(parent)).hasMessageContaining("image has dependent child images");

        assertThat(runtime.imageStatus(parent).orElseThrow().repoTags())
                .contains(repository + "/parent:1", repository + "/parent-alias:1");
    }
}
