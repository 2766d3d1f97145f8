package io.jkubelet.core.images;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jkubelet.core.credentialprovider.PodKeyring;
import io.jkubelet.core.runtime.FilesystemUsage;
import io.jkubelet.core.runtime.Image;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.RegistryAuth;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** registryPullQPS/registryBurst, serializeImagePulls and maxParallelImagePulls as the image manager applies them. */
class ImagePullLimitsTest {
    private final FakeClock clock = new FakeClock();
    private final List<String> events = new ArrayList<>();

    private ImageManager manager(ImageService images, ImagePullLimits limits) {
        return new ImageManager(images, (ref, type, reason, message) -> events.add(reason + " " + message), clock, limits,
                PodKeyring.NONE);
    }

    private static Pod pod(String image) {
        Container c = new ContainerBuilder().withName("c").withImage(image).withImagePullPolicy("Always").build();
        return new PodBuilder().withNewMetadata().withName("p").withNamespace("default").withUid("u").endMetadata()
                .withNewSpec().withContainers(c).endSpec().build();
    }

    private static String ensure(ImageManager manager, String image) throws ImageManager.ImageException {
        Pod pod = pod(image);
        return manager.ensureImageExists(pod, pod.getSpec().getContainers().get(0), null);
    }

    @Test
    void pullsBeyondTheBurstFailWithUpstreamsMessageUntilTheBucketRefills() throws Exception {
        FakeRuntime runtime = new FakeRuntime(clock);
        for (int i = 0; i < 5; i++) {
            runtime.makePullable("reg.io/app:" + i);
        }
        ImageManager manager = manager(runtime, new ImagePullLimits(true, null, 1, 2));

        ensure(manager, "reg.io/app:0");
        ensure(manager, "reg.io/app:1");
        assertThatThrownBy(() -> ensure(manager, "reg.io/app:2"))
                .isInstanceOfSatisfying(ImageManager.ImageException.class, e -> assertThat(e.reason()).isEqualTo("ErrImagePull"))
                .hasMessage("Failed to pull image \"reg.io/app:2\": pull QPS exceeded");
        assertThat(events).contains("Failed Failed to pull image \"reg.io/app:2\": pull QPS exceeded");
        // The refused pull never reached the runtime, and the image backs off as after any failed pull.
        assertThat(runtime.pullAuths()).hasSize(2);
        assertThatThrownBy(() -> ensure(manager, "reg.io/app:2")).hasMessage("Back-off pulling image \"reg.io/app:2\"");

        clock.advance(Duration.ofSeconds(1));
        ensure(manager, "reg.io/app:3");
        assertThatThrownBy(() -> ensure(manager, "reg.io/app:4")).hasMessageEndingWith("pull QPS exceeded");
    }

    @Test
    void registryPullQpsZeroDoesNotThrottle() throws Exception {
        FakeRuntime runtime = new FakeRuntime(clock);
        ImageManager manager = manager(runtime, new ImagePullLimits(true, null, 0, 10));
        for (int i = 0; i < 50; i++) {
            runtime.makePullable("reg.io/app:" + i);
            ensure(manager, "reg.io/app:" + i);
        }
        assertThat(runtime.pullAuths()).hasSize(50);
    }

    @Test
    void serializedPullsRunOneAtATime() throws Exception {
        assertThat(mostAtOnce(new ImagePullLimits(true, null, 0, 0), 4)).isEqualTo(1);
    }

    @Test
    void maxParallelImagePullsBoundsParallelPulls() throws Exception {
        assertThat(mostAtOnce(new ImagePullLimits(false, 2, 0, 0), 5)).isEqualTo(2);
    }

    @Test
    void parallelPullsWithoutAMaximumAllRunAtOnce() throws Exception {
        assertThat(mostAtOnce(new ImagePullLimits(false, null, 0, 0), 4)).isEqualTo(4);
    }

    @Test
    void limitsThatCannotWorkAreRefused() {
        assertThatThrownBy(() -> new ImagePullLimits(false, 0, 5, 10)).hasMessageContaining("maxParallelImagePulls");
        assertThatThrownBy(() -> new ImagePullLimits(true, null, 5, 0)).hasMessageContaining("registryBurst 0");
    }

    /** Starts {@code pulls} pulls of different images at once and tells how many the runtime saw at the same time. */
    private int mostAtOnce(ImagePullLimits limits, int pulls) throws Exception {
        BlockingPulls images = new BlockingPulls();
        ImageManager manager = manager(images, limits);
        ExecutorService threads = Executors.newFixedThreadPool(pulls);
        try {
            List<Future<String>> done = new ArrayList<>();
            for (int i = 0; i < pulls; i++) {
                String image = "reg.io/app:" + i;
                done.add(threads.submit(() -> ensure(manager, image)));
            }
            int expected = limits.serialize() ? 1 : limits.maxParallel() == null ? pulls : limits.maxParallel();
            await().atMost(Duration.ofSeconds(10)).until(() -> images.running.get() == expected);
            // Had the limit let more through, they would have arrived by now.
            Thread.sleep(200);
            images.release.countDown();
            for (Future<String> f : done) {
                assertThat(f.get(10, TimeUnit.SECONDS)).startsWith("sha256:");
            }
            return images.most.get();
        } finally {
            threads.shutdownNow();
        }
    }

    /** Pulls that wait until released, counting how many run at once. */
    private static final class BlockingPulls implements ImageService {
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger most = new AtomicInteger();

        @Override
        public String pullImage(String image, RegistryAuth auth) {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                running.decrementAndGet();
            }
            return "sha256:" + image.hashCode();
        }

        @Override
        public List<Image> listImages() {
            return List.of();
        }

        @Override
        public Optional<Image> imageStatus(String image) {
            return Optional.empty();
        }

        @Override
        public void removeImage(String image) {
        }

        @Override
        public FilesystemUsage imageFsInfo() {
            return null;
        }
    }
}
