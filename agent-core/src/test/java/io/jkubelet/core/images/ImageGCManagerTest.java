package io.jkubelet.core.images;

import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.runtime.FilesystemUsage;
import io.jkubelet.core.runtime.testing.RuntimePods;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Image GC's arithmetic and order against the fake runtime, on an image file system of 1000 bytes, with the clock
 * moved by hand: ages, least-recently-used order, bytes to free, what is never removed.
 */
class ImageGCManagerTest {
    private static final String PAUSE = "pause:3.9";
    private final FakeClock clock = new FakeClock();
    private final FakeRuntime runtime = new FakeRuntime(clock);
    private final LoggingEventRecorder events = new LoggingEventRecorder(clock);
    private final List<String> collected = new ArrayList<>();
    private final Instant began = clock.instant();
    private final RuntimePods pods = new RuntimePods(runtime, "node-a", PAUSE);
    private int podCount;

    @BeforeEach
    void emptyFileSystemOf1000Bytes() {
        runtime.setImageFsInfo(new FilesystemUsage("/fake", 1000, 1000, 0, 100, 100, 0));
        runtime.addImage(PAUSE, 10);
    }

    private ImageGCManager manager(ImageGCPolicy policy) {
        return new ImageGCManager(runtime, runtime, PAUSE, policy, events, "node-a", clock, collected::add);
    }

    private static ImageGCPolicy policy(int high, int low) {
        return new ImageGCPolicy(high, low, Duration.ofMinutes(2), Duration.ZERO);
    }

    /** A container made from the image (created, never started: any container holds its image). */
    private String use(String image) {
        return pods.sandbox("p" + podCount++).create("c", image);
    }

    private List<String> removedImages() {
        return runtime.calls().stream().filter("removeImage"::equals).toList();
    }

    private boolean present(String reference) {
        return runtime.imageStatus(reference).isPresent();
    }

    @Test
    void bytesToFreeBringUsageDownToTheLowThreshold() {
        assertThat(ImageGCManager.bytesToFree(1000, 150, 80)).isEqualTo(50);
        // Go's integer arithmetic: 1001 * 20 / 100 = 200.
        assertThat(ImageGCManager.bytesToFree(1001, 150, 80)).isEqualTo(50);
        assertThat(ImageGCManager.bytesToFree(100L << 30, 10L << 30, 85)).isEqualTo((15L << 30) - (10L << 30));
    }

    @Test
    void belowTheHighThresholdNothingIsRemoved() throws Exception {
        runtime.addImage("a:1", 830); // with pause: 84 %
        ImageGCManager gc = manager(policy(85, 80));
        gc.garbageCollect(began);
        clock.advance(Duration.ofMinutes(10));

        gc.garbageCollect(began);

        assertThat(removedImages()).isEmpty();
        assertThat(present("a:1")).isTrue();
    }

    @Test
    void overTheHighThresholdTheLeastRecentlyUsedGoFirstUntilTheLowThresholdIsReached() throws Exception {
        runtime.addImage("used-long-ago:1", 200);
        runtime.addImage("used-lately:1", 200);
        runtime.addImage("never-used:1", 200);
        runtime.addImage("in-use:1", 250);
        ImageGCManager gc = manager(policy(90, 80)); // 86 %: nothing to do yet
        String old = use("used-long-ago:1");
        gc.garbageCollect(began);
        runtime.removeContainer(old);
        clock.advance(Duration.ofMinutes(3));
        String lately = use("used-lately:1");
        gc.garbageCollect(began);
        runtime.removeContainer(lately);
        use("in-use:1");
        clock.advance(Duration.ofMinutes(3));
        runtime.addImage("big-new:1", 100); // 96 %: free 200 - 40 = 160 bytes

        gc.garbageCollect(began);

        // never-used (200) already frees enough; then the oldest use would have come next.
        assertThat(present("never-used:1")).isFalse();
        assertThat(present("used-long-ago:1")).isTrue();
        assertThat(collected).containsExactly(ImageGCManager.REASON_SPACE);

        runtime.addImage("bigger-new:1", 200); // 96 % again: free 160
        clock.advance(Duration.ofMinutes(3));
        gc.garbageCollect(began);
        assertThat(present("used-long-ago:1")).isFalse();
        assertThat(present("used-lately:1")).isTrue();
        assertThat(present("in-use:1")).isTrue();
        assertThat(present(PAUSE)).isTrue();
    }

    @Test
    void imagesFirstSeenLessThanTheMinimumAgeAgoStayAndTheMissedTargetIsAnEvent() throws Exception {
        runtime.addImage("a:1", 900); // 91 %
        ImageGCManager gc = manager(policy(85, 80));

        assertThatThrownBy(() -> gc.garbageCollect(began)).isInstanceOf(ImageGCManager.ImageGCException.class)
                .hasMessage("Failed to garbage collect required amount of images. Attempted to free 110 bytes, "
                        + "but only found 0 bytes eligible to free.");
        assertThat(events.events()).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo("Warning");
            assertThat(e.reason()).isEqualTo("FreeDiskSpaceFailed");
            assertThat(e.involvedObject().getKind()).isEqualTo("Node");
            assertThat(e.involvedObject().getName()).isEqualTo("node-a");
        });

        clock.advance(Duration.ofSeconds(119));
        assertThatThrownBy(() -> gc.garbageCollect(began)).isInstanceOf(ImageGCManager.ImageGCException.class);
        clock.advance(Duration.ofSeconds(1));
        gc.garbageCollect(began);
        assertThat(present("a:1")).isFalse();
    }

    @Test
    void anImageAStoppedContainerWasMadeFromAndTheSandboxImageAreNeverRemoved() throws Exception {
        runtime.addImage("a:1", 900);
        String c = use("a:1");
        runtime.startContainer(c);
        runtime.exitContainer(c, 0, null);
        ImageGCManager gc = manager(new ImageGCPolicy(50, 0, Duration.ZERO, Duration.ZERO));

        assertThatThrownBy(() -> gc.garbageCollect(began)).isInstanceOf(ImageGCManager.ImageGCException.class);

        assertThat(removedImages()).isEmpty();
        assertThat(present("a:1")).isTrue();
        assertThat(present(PAUSE)).isTrue();
    }

    @Test
    void theRuntimesOwnSandboxImageIsNeverRemovedThoughTheKubeletNamesAnother() throws Exception {
        // containerd runs every sandbox from its sandbox_image, whatever --pod-infra-container-image says.
        runtime.addImage("registry.k8s.io/pause:3.9", 900);
        runtime.addImage("a:1", 900);
        runtime.setPinnedImages(java.util.List.of("registry.k8s.io/pause:3.9"));
        ImageGCManager gc = manager(new ImageGCPolicy(50, 0, Duration.ZERO, Duration.ZERO));

        assertThatThrownBy(() -> gc.garbageCollect(began)).isInstanceOf(ImageGCManager.ImageGCException.class);

        assertThat(present("a:1")).isFalse();
        assertThat(present("registry.k8s.io/pause:3.9")).isTrue();
        assertThat(present(PAUSE)).isTrue();
    }

    @Test
    void anImageThatCannotBeRemovedDoesNotStopTheOthersAndFailsThePass() throws Exception {
        runtime.addImage("a:1", 450);
        runtime.addImage("b:1", 450);
        ImageGCManager gc = manager(new ImageGCPolicy(50, 0, Duration.ZERO, Duration.ZERO));
        runtime.injectError("removeImage", new IllegalStateException("device or resource busy"));

        // 91 % used: 910 bytes to free; the first removal fails, the second frees 450.
        assertThatThrownBy(() -> gc.garbageCollect(began)).isInstanceOf(ImageGCManager.ImageGCException.class)
                .hasMessageStartingWith("wanted to free 910 bytes, but freed 450 bytes space with errors in image deletion:")
                .hasMessageContaining("device or resource busy");
        assertThat(removedImages()).hasSize(2);
        assertThat(present("a:1") ^ present("b:1")).isTrue();
    }

    @Test
    void aZeroCapacityIsAnInvalidDiskCapacityEvent() {
        runtime.setImageFsInfo(new FilesystemUsage("/fake", 0, 0, 0, -1, -1, -1));
        ImageGCManager gc = manager(policy(85, 80));

        assertThatThrownBy(() -> gc.garbageCollect(began)).hasMessage("invalid capacity 0 on image filesystem");
        assertThat(events.events()).extracting(e -> e.reason()).containsExactly("InvalidDiskCapacity");
    }

    @Test
    void imagesUnusedForLongerThanTheMaximumAgeGoWhateverTheUsageOnceGcHasRunThatLong() throws Exception {
        runtime.addImage("used:1", 10);
        runtime.addImage("never-used:1", 10);
        runtime.addImage("kept-in-use:1", 10);
        ImageGCManager gc = manager(new ImageGCPolicy(85, 80, Duration.ofMinutes(2), Duration.ofMinutes(30)));
        String c = use("used:1");
        use("kept-in-use:1");
        gc.garbageCollect(began);
        runtime.removeContainer(c);

        // 31 min unused, but GC has not watched them for longer than the maximum age: they stay.
        clock.advance(Duration.ofMinutes(30));
        gc.garbageCollect(began);
        assertThat(present("used:1")).isTrue();

        clock.advance(Duration.ofMinutes(1));
        gc.garbageCollect(began);
        assertThat(present("used:1")).isFalse();
        assertThat(present("never-used:1")).as("aged from its first sight").isFalse();
        assertThat(present("kept-in-use:1")).isTrue();
        assertThat(present(PAUSE)).isTrue();
        assertThat(collected).containsExactly(ImageGCManager.REASON_AGE, ImageGCManager.REASON_AGE);
    }

    @Test
    void deleteUnusedImagesRemovesEveryUnusedImageOldEnoughWhateverTheUsage() throws Exception {
        runtime.addImage("a:1", 10);
        runtime.addImage("b:1", 20);
        use("b:1");
        ImageGCManager gc = manager(policy(85, 80));
        gc.garbageCollect(began);
        clock.advance(Duration.ofMinutes(2));
        runtime.addImage("young:1", 30);

        assertThat(gc.deleteUnusedImages()).isEqualTo(10);

        assertThat(present("a:1")).isFalse();
        assertThat(present("b:1")).isTrue();
        assertThat(present("young:1")).isTrue();
    }

    @Test
    void aPolicyUpstreamRefusesIsRefusedWithItsMessage() {
        assertThatThrownBy(() -> new ImageGCPolicy(101, 80, Duration.ZERO, Duration.ZERO))
                .hasMessage("invalid HighThresholdPercent 101, must be in range [0-100]");
        assertThatThrownBy(() -> new ImageGCPolicy(85, -1, Duration.ZERO, Duration.ZERO))
                .hasMessage("invalid LowThresholdPercent -1, must be in range [0-100]");
        assertThatThrownBy(() -> new ImageGCPolicy(80, 85, Duration.ZERO, Duration.ZERO))
                .hasMessage("LowThresholdPercent 85 can not be higher than HighThresholdPercent 80");
        assertThat(new ImageGCPolicy(100, 80, Duration.ZERO, Duration.ZERO).periodic()).isFalse();
        assertThat(new ImageGCPolicy(100, 80, Duration.ZERO, Duration.ofHours(1)).periodic()).isTrue();
        assertThat(ImageGCPolicy.DEFAULT.periodic()).isTrue();
    }
}
