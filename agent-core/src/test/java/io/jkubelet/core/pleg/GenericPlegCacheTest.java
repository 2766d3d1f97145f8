package io.jkubelet.core.pleg;

import io.jkubelet.core.container.PodCache;
import io.jkubelet.core.container.RuntimePodStatus;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.NamespaceOptions;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PodSandboxMetadata;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The PLEG as the writer of the pod cache: one reading per change, written before the change's event is sent. */
class GenericPlegCacheTest {
    private final FakeClock clock = new FakeClock();
    private final FakeRuntime runtime = new FakeRuntime(clock);
    private final AtomicInteger readings = new AtomicInteger();
    private volatile RuntimeException readFailure;
    private final CountDownLatch relistAsked = new CountDownLatch(1);
    private final PodCache cache = new PodCache(relistAsked::countDown);
    /** For each event: what the cache held for the pod when the event was sent. */
    private final List<Optional<RuntimePodStatus>> seenAtEvents = new CopyOnWriteArrayList<>();
    private final GenericPleg pleg = new GenericPleg(runtime, "node-a", e -> seenAtEvents.add(cache.get(e.podUid())),
            clock, Duration.ofMinutes(1), cache, (uid, name, namespace) -> {
                if (readFailure != null) {
                    RuntimeException f = readFailure;
                    readFailure = null;
                    throw f;
                }
                // Each reading is told apart by its "IP".
                return new RuntimePodStatus(uid, name, namespace, List.of("reading-" + readings.incrementAndGet()),
                        List.of(), List.of());
            });

    {
        runtime.addImage("pause:3.9");
    }

    @AfterEach
    void stop() {
        pleg.close();
    }

    private String runSandbox(String uid) {
        return runtime.runPodSandbox(new PodSandboxConfig(new PodSandboxMetadata("web", uid, "default", 0), "web",
                "/var/log/pods/x", null, List.of(), Map.of(Labels.NODE_NAME, "node-a", Labels.POD_UID, uid), Map.of(), "",
                NamespaceOptions.POD_DEFAULT, 0, "pause:3.9", false, Map.of()));
    }

    @Test
    void aPodIsReadOncePerChangeAndTheReadingIsCachedBeforeItsEventIsSent() {
        String sandbox = runSandbox("uid-1");
        pleg.relist();
        assertThat(readings).hasValue(1);
        assertThat(cache.get("uid-1").orElseThrow().ips()).containsExactly("reading-1");
        assertThat(seenAtEvents).singleElement().satisfies(s -> assertThat(s.orElseThrow().ips()).containsExactly("reading-1"));

        pleg.relist();
        assertThat(readings).as("nothing changed: not read again").hasValue(1);

        runtime.stopPodSandbox(sandbox);
        pleg.relist();
        assertThat(readings).hasValue(2);
        assertThat(seenAtEvents).hasSize(2);
        assertThat(seenAtEvents.get(1).orElseThrow().ips()).containsExactly("reading-2");
    }

    @Test
    void aPodGoneFromTheRuntimeLeavesTheCache() {
        String sandbox = runSandbox("uid-1");
        pleg.relist();
        runtime.stopPodSandbox(sandbox);
        runtime.removePodSandbox(sandbox);
        pleg.relist();
        assertThat(cache.get("uid-1")).isEmpty();
    }

    @Test
    void aFailedReadingIsTriedAgainAtTheNextRelist() {
        runSandbox("uid-1");
        readFailure = new IllegalStateException("runtime busy");
        pleg.relist();
        assertThat(cache.get("uid-1")).isEmpty();
        pleg.relist();
        assertThat(cache.get("uid-1").orElseThrow().ips()).containsExactly("reading-1");
    }

    @Test
    void aWorkerWaitsForAReadingBegunAfterItsLastSyncAndAsksForIt() throws Exception {
        runSandbox("uid-1");
        pleg.relist();
        long lastSync = cache.mark();
        assertThat(cache.getNewerThan("uid-1", "web", "default", lastSync - 1, Duration.ofSeconds(10)).orElseThrow().ips())
                .as("read after an older mark: at once").containsExactly("reading-1");

        CompletableFuture<Optional<RuntimePodStatus>> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return cache.getNewerThan("uid-1", "web", "default", lastSync, Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(relistAsked.await(10, TimeUnit.SECONDS)).as("the worker asks for a relist").isTrue();
        assertThat(waiting).isNotDone();
        pleg.relist(); // nothing changed: the pod's reading stands, now known current
        assertThat(waiting.get(10, TimeUnit.SECONDS).orElseThrow().ips()).containsExactly("reading-1");
        assertThat(readings).hasValue(1);
    }

    @Test
    void aPodTheRuntimeDoesNotHaveIsEmptyOnceARelistHasLookedForIt() throws Exception {
        pleg.relist();
        RuntimePodStatus none = cache.getNewerThan("uid-new", "new", "default", 0, Duration.ofSeconds(10)).orElseThrow();
        assertThat(none.containers()).isEmpty();
        assertThat(none.sandboxes()).isEmpty();
    }
}
