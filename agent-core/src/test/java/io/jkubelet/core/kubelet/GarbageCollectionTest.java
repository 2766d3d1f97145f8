package io.jkubelet.core.kubelet;

import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.images.ImageGCManager;
import io.jkubelet.core.images.ImageGCPolicy;
import io.jkubelet.core.runtime.FilesystemUsage;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** How GC failures reach the node's events: every container GC failure, image GC failures from the second in a row. */
class GarbageCollectionTest {
    private final FakeClock clock = new FakeClock();
    private final FakeRuntime runtime = new FakeRuntime(clock);
    private final LoggingEventRecorder events = new LoggingEventRecorder(clock);

    private GarbageCollection gc(GarbageCollection.ContainerPass containers) {
        ImageGCManager images = new ImageGCManager(runtime, runtime, "pause:3.9", ImageGCPolicy.DEFAULT, events,
                "node-a", clock, ImageGCManager.Observer.NOOP);
        return new GarbageCollection(containers, images, GcSettings.DEFAULT, events, "node-a", clock);
    }

    private long count(String reason) {
        return events.events().stream().filter(e -> e.reason().equals(reason)).count();
    }

    @Test
    void aFailedContainerPassIsAContainerGcFailedEventOnTheNode() {
        GarbageCollection gc = gc(() -> {
            throw new IllegalStateException("Cannot connect to the Docker daemon");
        });

        gc.collectContainers();

        assertThat(events.events()).singleElement().satisfies(e -> {
            assertThat(e.reason()).isEqualTo("ContainerGCFailed");
            assertThat(e.type()).isEqualTo("Warning");
            assertThat(e.message()).isEqualTo("Cannot connect to the Docker daemon");
            assertThat(e.involvedObject().getKind()).isEqualTo("Node");
        });
    }

    @Test
    void imageGcFailingOnceIsOnlyLoggedAndFailingAgainIsAnImageGcFailedEvent() {
        GarbageCollection gc = gc(() -> {});
        runtime.setImageFsInfo(new FilesystemUsage("/fake", 0, 0, 0, -1, -1, -1));

        gc.collectImages();
        assertThat(count("ImageGCFailed")).isZero();
        gc.collectImages();
        assertThat(count("ImageGCFailed")).isOne();
        assertThat(events.events()).filteredOn(e -> e.reason().equals("ImageGCFailed")).singleElement()
                .satisfies(e -> assertThat(e.message()).isEqualTo("invalid capacity 0 on image filesystem"));

        // A pass that works ends the run of failures: the next failure is again only logged.
        runtime.setImageFsInfo(new FilesystemUsage("/fake", 1000, 900, 100, -1, -1, -1));
        gc.collectImages();
        runtime.setImageFsInfo(new FilesystemUsage("/fake", 0, 0, 0, -1, -1, -1));
        gc.collectImages();
        assertThat(count("ImageGCFailed")).isOne();
    }
}
