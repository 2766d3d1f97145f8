package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.config.PodOperation;
import io.jkubelet.core.config.PodUpdate;
import io.jkubelet.core.config.SourcesReady;
import io.jkubelet.core.pleg.PodLifecycleEvent;
import io.jkubelet.core.probe.ProbeResult;
import io.jkubelet.core.prober.ProbeType;
import io.jkubelet.core.prober.ProbeUpdate;
import io.jkubelet.core.testing.FakeClock;
import io.jkubelet.core.util.DaemonThreads;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;

import static io.jkubelet.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The sync loop's iterations driven one event at a time, against a handler that records what it is told. */
class SyncLoopTest {
    private final FakeClock clock = new FakeClock();
    private final Pod web = pod("web", new ContainerBuilder().withName("c").withImage("busybox").build());
    private final Map<String, Pod> podManager = Map.of(web.getMetadata().getUid(), web);
    private final List<String> due = new ArrayList<>();
    private final RecordingHandler handler = new RecordingHandler();
    private final SyncLoopInbox inbox = new SyncLoopInbox();
    private final ScheduledExecutorService ticker = DaemonThreads.scheduler("test-ticks");
    /** Sources the pod config has registered and seen: "api" and "file". */
    private final SourcesReady sourcesReady = new SourcesReady(handled -> handled.containsAll(Set.of("api", "file")));
    private final SyncLoop loop = new SyncLoop(inbox, handler, uid -> Optional.ofNullable(podManager.get(uid)),
            () -> {
                List<String> taken = List.copyOf(due);
                due.clear();
                return taken;
            }, sourcesReady, clock, ticker);

    @AfterEach
    void stop() {
        loop.close();
        ticker.shutdownNow();
    }

    static final class RecordingHandler implements SyncHandler {
        final List<String> calls = new CopyOnWriteArrayList<>();

        private void record(String what, List<Pod> pods) {
            calls.add(what + pods.stream().map(p -> p.getMetadata().getName()).toList());
        }

        @Override public void handlePodAdditions(List<Pod> pods) { record("add", pods); }
        @Override public void handlePodUpdates(List<Pod> pods) { record("update", pods); }
        @Override public void handlePodRemoves(List<Pod> pods) { record("remove", pods); }
        @Override public void handlePodDeletes(List<Pod> pods) { record("delete", pods); }
        @Override public void handlePodReconcile(List<Pod> pods) { record("reconcile", pods); }
        @Override public void handlePodSyncs(List<Pod> pods) { record("sync", pods); }
        @Override public void handlePodCleanups() { calls.add("cleanup"); }
    }

    private static SyncLoopEvent config(PodOperation op, String source, Pod... pods) {
        return new SyncLoopEvent.PodConfigUpdate(new PodUpdate(List.of(pods), op, source));
    }

    @Test
    void eachConfigOperationReachesItsHandler() {
        loop.iteration(config(PodOperation.ADD, "file", web));
        loop.iteration(config(PodOperation.UPDATE, "file", web));
        loop.iteration(config(PodOperation.DELETE, "api", web));
        loop.iteration(config(PodOperation.RECONCILE, "api", web));
        loop.iteration(config(PodOperation.REMOVE, "file", web));
        loop.iteration(config(PodOperation.SET, "file", web)); // never emitted by the pod config: refused
        assertThat(handler.calls).containsExactly("add[web]", "update[web]", "delete[web]", "reconcile[web]", "remove[web]");
    }

    @Test
    void housekeepingWaitsUntilEverySourceHasBeenHandledOnce() {
        // A restarted agent: the file source is in, the apiserver's pods are still on their way. A cleanup now
        // would find the apiserver's running pods unwanted and kill them.
        loop.iteration(config(PodOperation.ADD, "file"));
        loop.iteration(SyncLoopEvent.HOUSEKEEPING_TICK);
        assertThat(handler.calls).containsExactly("add[]");
        loop.iteration(config(PodOperation.ADD, "api", web));
        loop.iteration(SyncLoopEvent.HOUSEKEEPING_TICK);
        assertThat(handler.calls).containsExactly("add[]", "add[web]", "cleanup");
    }

    @Test
    void plegEventsSyncTheirPodExceptForRemovalsAndUnknownPods() {
        String uid = web.getMetadata().getUid();
        loop.iteration(new SyncLoopEvent.PlegEvent(new PodLifecycleEvent(uid, PodLifecycleEvent.Type.CONTAINER_REMOVED, "c1")));
        loop.iteration(new SyncLoopEvent.PlegEvent(new PodLifecycleEvent("uid-gone", PodLifecycleEvent.Type.CONTAINER_DIED, "c2")));
        assertThat(handler.calls).isEmpty();
        loop.iteration(new SyncLoopEvent.PlegEvent(new PodLifecycleEvent(uid, PodLifecycleEvent.Type.CONTAINER_DIED, "c1")));
        assertThat(handler.calls).containsExactly("sync[web]");
    }

    @Test
    void probeChangesSyncThePodButALivenessSuccessDoesNot() {
        String uid = web.getMetadata().getUid();
        loop.iteration(new SyncLoopEvent.ProbeEvent(new ProbeUpdate(uid, "c1", "c", ProbeType.LIVENESS, ProbeResult.SUCCESS)));
        assertThat(handler.calls).isEmpty();
        loop.iteration(new SyncLoopEvent.ProbeEvent(new ProbeUpdate(uid, "c1", "c", ProbeType.LIVENESS, ProbeResult.FAILURE)));
        loop.iteration(new SyncLoopEvent.ProbeEvent(new ProbeUpdate(uid, "c1", "c", ProbeType.READINESS, ProbeResult.SUCCESS)));
        loop.iteration(new SyncLoopEvent.ProbeEvent(new ProbeUpdate(uid, "c1", "c", ProbeType.STARTUP, ProbeResult.FAILURE)));
        assertThat(handler.calls).containsExactly("sync[web]", "sync[web]", "sync[web]");
    }

    @Test
    void theSyncTickSyncsThePodsWhoseWorkersAreDue() {
        loop.iteration(SyncLoopEvent.SYNC_TICK);
        assertThat(handler.calls).isEmpty();
        due.add(web.getMetadata().getUid());
        due.add("uid-forgotten");
        loop.iteration(SyncLoopEvent.SYNC_TICK);
        assertThat(handler.calls).containsExactly("sync[web]");
        assertThat(due).isEmpty();
    }

    @Test
    void theLastIterationIsReadOnTheInjectedClock() {
        clock.advance(Duration.ofMinutes(7));
        assertThat(loop.secondsSinceLastIteration()).isEqualTo(420);
        loop.iteration(SyncLoopEvent.SYNC_TICK);
        assertThat(loop.secondsSinceLastIteration()).isZero();
    }

    @Test
    void theRunningLoopTakesEventsInArrivalOrder() throws Exception {
        loop.start();
        inbox.podConfigOutput().put(new PodUpdate(List.of(web), PodOperation.ADD, "file"));
        inbox.post(new SyncLoopEvent.PlegEvent(new PodLifecycleEvent(web.getMetadata().getUid(),
                PodLifecycleEvent.Type.CONTAINER_STARTED, "c1")));
        inbox.podConfigOutput().put(new PodUpdate(List.of(web), PodOperation.REMOVE, "file"));
        await().atMost(Duration.ofSeconds(10)).until(() -> handler.calls.size() >= 3);
        assertThat(handler.calls.subList(0, 3)).containsExactly("add[web]", "sync[web]", "remove[web]");
    }

    @Test
    void aSourceRunningAheadOfTheLoopWaitsOnceFiftyUpdatesAreQueued() throws Exception {
        for (int i = 0; i < 50; i++) {
            inbox.podConfigOutput().put(new PodUpdate(List.of(), PodOperation.RECONCILE, "file"));
        }
        Thread source = Thread.ofPlatform().start(() -> {
            try {
                inbox.podConfigOutput().put(new PodUpdate(List.of(web), PodOperation.ADD, "file"));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> source.getState() == Thread.State.WAITING);
        assertThat(inbox.poll(Duration.ZERO)).isInstanceOf(SyncLoopEvent.PodConfigUpdate.class);
        source.join(10_000);
        assertThat(source.isAlive()).isFalse();
    }
}
