package io.jkubelet.core.pleg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jkubelet.core.container.PodCache;
import io.jkubelet.core.runtime.ContainerConfig;
import io.jkubelet.core.runtime.ContainerMetadata;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.LinuxContainerResources;
import io.jkubelet.core.runtime.LinuxContainerSecurityContext;
import io.jkubelet.core.runtime.NamespaceOptions;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PodSandboxMetadata;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.testing.FakeClock;
import io.jkubelet.core.util.DaemonThreads;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The PLEG driven by the runtime's events, with the periodic relist an hour away. */
class GenericPlegEventsTest {
    private static final Map<String, String> LABELS = Map.of(Labels.NODE_NAME, "node-a", Labels.POD_UID, "uid-1");

    private final FakeClock clock = new FakeClock();
    private final FakeRuntime runtime = new FakeRuntime(clock);
    private final List<PodLifecycleEvent> events = new CopyOnWriteArrayList<>();
    private final GenericPleg pleg = new GenericPleg(runtime, "node-a", events::add, clock, Duration.ofHours(1),
            new PodCache(), DaemonThreads.scheduler("pleg"));

    {
        runtime.addImage("pause:3.9");
        runtime.addImage("busybox:1.0");
    }

    @AfterEach
    void stop() {
        pleg.close();
    }

    @Test
    void aDeathAnnouncedBeforeTheRuntimeListsItIsSeenBySecondRelist() {
        java.util.concurrent.atomic.AtomicInteger relists = new java.util.concurrent.atomic.AtomicInteger();
        pleg.observeRelists((took, since, ready, byState) -> relists.incrementAndGet());
        pleg.start();
        PodSandboxConfig sandbox = new PodSandboxConfig(new PodSandboxMetadata("web", "uid-1", "default", 0), "web",
                "/var/log/pods/x", null, List.of(), LABELS, Map.of(), "", NamespaceOptions.POD_DEFAULT, 0, "pause:3.9",
                false, Map.of());
        String sandboxId = runtime.runPodSandbox(sandbox);
        String id = runtime.createContainer(sandboxId, new ContainerConfig(new ContainerMetadata("app", 0), "busybox:1.0",
                List.of("sleep", "1000"), List.of(), "", List.of(), List.of(), LABELS, Map.of(), "app/0.log", false, false,
                false, new LinuxContainerResources(0, 0, 0, 0, 0), new LinuxContainerSecurityContext(null, null, List.of(),
                false, false, List.of(), List.of(), NamespaceOptions.POD_DEFAULT, false)), sandbox);
        runtime.startContainer(id);
        await().atMost(Duration.ofSeconds(10)).until(() -> events.contains(
                new PodLifecycleEvent("uid-1", PodLifecycleEvent.Type.CONTAINER_STARTED, id)));

        // The death is announced while the list still shows the container running, and the relist it triggers
        // finds it running; it exits just after, with no event of its own.
        await().pollDelay(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(10)).until(() -> true);
        int before = relists.get();
        runtime.exitContainerEventFirst(id, 3,
                () -> await().atMost(Duration.ofSeconds(10)).until(() -> relists.get() > before));

        await().atMost(Duration.ofSeconds(10)).until(() -> events.contains(
                new PodLifecycleEvent("uid-1", PodLifecycleEvent.Type.CONTAINER_DIED, id)));
    }

    @Test
    void eventsInQuickSuccessionAreRelistedAtMostOncePerSpacing() throws InterruptedException {
        java.util.concurrent.atomic.AtomicInteger relists = new java.util.concurrent.atomic.AtomicInteger();
        pleg.observeRelists((took, since, ready, byState) -> relists.incrementAndGet());
        pleg.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> relists.get() >= 1);

        // A burst of pod starts: two runtime events every 5 ms for about a second.
        int before = relists.get();
        long t0 = System.nanoTime();
        for (int i = 0; i < 200; i++) {
            runtime.runPodSandbox(new PodSandboxConfig(new PodSandboxMetadata("web-" + i, "uid-" + i, "default", 0),
                    "web-" + i, "/var/log/pods/x", null, List.of(), Map.of(Labels.NODE_NAME, "node-a"), Map.of(), "",
                    NamespaceOptions.POD_DEFAULT, 0, "pause:3.9", false, Map.of()));
            Thread.sleep(5);
        }
        long windowMillis = (System.nanoTime() - t0) / 1_000_000;
        int during = relists.get() - before;

        // One relist per spacing (the scheduler never runs one early), one already queued, and the follow-up a
        // second after the first event; relisting for every event made about one per event.
        long allowed = windowMillis / GenericPleg.MIN_RELIST_SPACING.toMillis() + 3;
        assertThat(during).as("relists in %d ms of events", windowMillis).isLessThanOrEqualTo((int) allowed);
        await().atMost(Duration.ofSeconds(10)).until(() -> pleg.runningPods().size() == 200);
    }
}
