package io.jkubelet.core.pleg;

import io.jkubelet.core.container.PodCache;
import io.jkubelet.core.container.RuntimePodStatus;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.NamespaceOptions;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PodSandboxMetadata;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.testing.FakeClock;
import io.jkubelet.core.util.DaemonThreads;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The PLEG as the keeper of the pod cache: each relist marks the pods that changed, before it sends their events. */
class GenericPlegCacheTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final FakeClock clock = new FakeClock();
    private final FakeRuntime runtime = new FakeRuntime(clock);
    private final CountDownLatch relistAsked = new CountDownLatch(1);
    private final PodCache cache = new PodCache();
    /** For each event: what a worker woken by it would have been told. */
    private final List<PodCache.Lookup> seenAtEvents = new CopyOnWriteArrayList<>();
    private final GenericPleg pleg = new GenericPleg(runtime, "node-a", e -> seenAtEvents.add(lookup(e.podUid(), 0)),
            clock, Duration.ofMinutes(1), cache, DaemonThreads.scheduler("pleg"));

    {
        runtime.addImage("pause:3.9");
    }

    @AfterEach
    void stop() {
        pleg.close();
    }

    private PodCache.Lookup lookup(String uid, long mark) {
        try {
            return cache.getNewerThan(uid, "web", "default", mark, WAIT, relistAsked::countDown);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private String runSandbox(String uid) {
        return runtime.runPodSandbox(new PodSandboxConfig(new PodSandboxMetadata("web", uid, "default", 0), "web",
                "/var/log/pods/x", null, List.of(), Map.of(Labels.NODE_NAME, "node-a", Labels.POD_UID, uid), Map.of(), "",
                NamespaceOptions.POD_DEFAULT, 0, "pause:3.9", false, Map.of()));
    }

    private static RuntimePodStatus reading(String uid, String ip) {
        return new RuntimePodStatus(uid, "web", "default", List.of(ip), List.of(), List.of());
    }

    @Test
    void aPodThatChangedMustBeReadAndAReadingStaysCurrentUntilTheNextChange() {
        String sandbox = runSandbox("uid-1");
        pleg.relist();
        assertThat(seenAtEvents).as("the event's worker reads the runtime").singleElement()
                .isInstanceOf(PodCache.Lookup.Changed.class);

        cache.set(reading("uid-1", "10.0.0.2"), cache.readMark());
        pleg.relist();
        long lastSync = cache.mark() - 1; // a worker whose last sync ended before this second relist began
        assertThat(lookup("uid-1", lastSync)).as("nothing changed: the reading is current")
                .isEqualTo(new PodCache.Lookup.Current(reading("uid-1", "10.0.0.2")));

        runtime.stopPodSandbox(sandbox);
        pleg.relist();
        assertThat(lookup("uid-1", lastSync)).isInstanceOf(PodCache.Lookup.Changed.class);
        assertThat(seenAtEvents).hasSize(2).last().isInstanceOf(PodCache.Lookup.Changed.class);
        assertThat(cache.get("uid-1")).as("views still see the last reading").contains(reading("uid-1", "10.0.0.2"));
    }

    @Test
    void aReadingBegunBeforeTheRelistThatSawAChangeIsNotCurrent() {
        runSandbox("uid-1");
        long readAfter = cache.readMark();
        pleg.relist(); // sees the new sandbox: its listing may be later than the reading
        cache.set(reading("uid-1", "stale"), readAfter);
        assertThat(lookup("uid-1", readAfter)).isInstanceOf(PodCache.Lookup.Changed.class);
    }

    @Test
    void aPodGoneFromTheRuntimeLeavesTheCacheAndReadsAsEmpty() {
        String sandbox = runSandbox("uid-1");
        pleg.relist();
        cache.set(reading("uid-1", "10.0.0.2"), cache.readMark());
        runtime.stopPodSandbox(sandbox);
        runtime.removePodSandbox(sandbox);
        pleg.relist();
        assertThat(cache.get("uid-1")).isEmpty();
        PodCache.Lookup none = lookup("uid-1", 0);
        assertThat(none).isInstanceOfSatisfying(PodCache.Lookup.Current.class,
                c -> assertThat(c.status().sandboxes()).isEmpty());
    }

    @Test
    void aWorkerWaitsForARelistBegunAfterItsLastSyncAndAsksForIt() throws Exception {
        runSandbox("uid-1");
        pleg.relist();
        cache.set(reading("uid-1", "10.0.0.2"), cache.readMark());
        long lastSync = cache.mark();

        CompletableFuture<PodCache.Lookup> waiting = CompletableFuture.supplyAsync(() -> lookup("uid-1", lastSync));
        assertThat(relistAsked.await(10, TimeUnit.SECONDS)).as("the worker asks for a relist").isTrue();
        assertThat(waiting).isNotDone();
        pleg.relist(); // nothing changed since the reading
        assertThat(waiting.get(10, TimeUnit.SECONDS)).isEqualTo(new PodCache.Lookup.Current(reading("uid-1", "10.0.0.2")));
    }

    @Test
    void aPodTheRuntimeHasNeverHadIsEmptyOnceARelistHasLooked() {
        pleg.relist();
        assertThat(lookup("uid-new", 0)).isInstanceOfSatisfying(PodCache.Lookup.Current.class,
                c -> assertThat(c.status().containers()).isEmpty());
    }
}
