package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.container.RuntimePodStatus;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import static io.jkubelet.core.testing.Pods.container;
import static io.jkubelet.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class PodWorkersTest {
    /** Records calls; termination waits for the test to let it go. */
    static final class Handler implements PodSyncer {
        final List<String> calls = new CopyOnWriteArrayList<>();
        final CountDownLatch terminating = new CountDownLatch(1);
        final CountDownLatch releaseTermination = new CountDownLatch(1);
        final CountDownLatch syncing = new CountDownLatch(1);
        final CountDownLatch releaseSync = new CountDownLatch(1);
        volatile boolean blockTermination;
        volatile boolean blockSync;
        /** How many terminations fail before one goes through. */
        final AtomicInteger failingTerminations = new AtomicInteger();
        volatile SyncOutcome outcome = SyncOutcome.OK;

        @Override
        public SyncOutcome syncPod(SyncPodType type, Pod pod, RuntimePodStatus status) throws InterruptedException {
            calls.add("sync:" + type + ":" + pod.getSpec().getContainers().get(0).getName());
            syncing.countDown();
            if (blockSync) {
                releaseSync.await(10, TimeUnit.SECONDS);
            }
            return outcome;
        }

        @Override
        public void syncTerminatingPod(Pod pod, RuntimePodStatus status, Long grace,
                                       Consumer<PodStatus> podStatusFn) throws InterruptedException {
            calls.add("terminating:" + grace);
            if (podStatusFn != null) {
                PodStatus s = new PodStatus();
                podStatusFn.accept(s);
                calls.add("status:" + s.getPhase() + ":" + s.getReason());
            }
            terminating.countDown();
            if (blockTermination) {
                releaseTermination.await(10, TimeUnit.SECONDS);
            }
            if (failingTerminations.getAndDecrement() > 0) {
                throw new IllegalStateException("the runtime did not answer");
            }
        }

        @Override
        public void syncTerminatedPod(Pod pod, RuntimePodStatus status) {
            calls.add("terminated");
        }
    }

    private final Handler handler = new Handler();
    /** No runtime: every pod has nothing on it. */
    private static final PodStatusSource NO_RUNTIME = new PodStatusSource() {
        @Override
        public long mark() {
            return 0;
        }

        @Override
        public RuntimePodStatus newerThan(Pod pod, long mark) {
            var m = pod.getMetadata();
            return RuntimePodStatus.empty(m.getUid(), m.getName(), m.getNamespace());
        }
    };

    private final FakeClock clock = new FakeClock();
    private final PodSyncStatuses states = new PodSyncStatuses();
    private final PodWorkers workers = new PodWorkers(states, handler, NO_RUNTIME, clock, Duration.ofMinutes(1),
            Duration.ofSeconds(10), Executors.newVirtualThreadPerTaskExecutor());

    @Test
    void aFailedSyncBacksOffJitteredAndRuntimeSyncsWaitForItButChangesOfThePodDoNot() {
        handler.outcome = SyncOutcome.FAILED;
        Pod pod = pod("p", container("a"));
        workers.updatePod(SyncPodType.CREATE, pod, null);
        await().atMost(Duration.ofSeconds(5)).until(() -> handler.calls.size() == 1);

        // What the PLEG, a probe or a tick asks in the back-off is not a retry.
        workers.updatePod(SyncPodType.SYNC, pod, null);
        clock.advance(Duration.ofSeconds(9));
        assertThat(workers.takeDue()).isEmpty();
        workers.updatePod(SyncPodType.SYNC, pod, null);
        assertThat(handler.calls).containsExactly("sync:CREATE:a");

        // A changed pod is synced at once; it failed again, so the back-off starts over.
        workers.updatePod(SyncPodType.UPDATE, pod("p", container("b")), null);
        await().atMost(Duration.ofSeconds(5)).until(() -> handler.calls.size() == 2);
        clock.advance(Duration.ofSeconds(9));
        assertThat(workers.takeDue()).isEmpty();

        // 10 s with up to 50 % jitter: due by 15 s, and then the SYNC it brings runs.
        clock.advance(Duration.ofSeconds(6));
        assertThat(workers.takeDue()).containsExactly("uid-p");
        handler.outcome = SyncOutcome.OK;
        workers.updatePod(SyncPodType.SYNC, pod("p", container("b")), null);
        await().atMost(Duration.ofSeconds(5)).until(() -> handler.calls.size() == 3);
        assertThat(handler.calls).endsWith("sync:SYNC:b");

        // Once a sync went well, runtime syncs go through at once again.
        workers.updatePod(SyncPodType.SYNC, pod("p", container("b")), null);
        await().atMost(Duration.ofSeconds(5)).until(() -> handler.calls.size() == 4);
    }

    @Test
    void aSyncThatWentWellIsDueAgainAfterTheResyncIntervalWithUpToHalfOfItMore() {
        PodWorkers inline = new PodWorkers(states, handler, NO_RUNTIME, clock, Duration.ofMinutes(1),
                Duration.ofSeconds(10), Runnable::run);
        inline.updatePod(SyncPodType.CREATE, pod("p", container("a")), null);
        clock.advance(Duration.ofSeconds(59));
        assertThat(inline.takeDue()).isEmpty();
        clock.advance(Duration.ofSeconds(31));
        assertThat(inline.takeDue()).containsExactly("uid-p");
    }

    @Test
    void killRunsTerminationThenTheWorkerFinishes() {
        Pod pod = pod("p", container("a"));
        workers.updatePod(SyncPodType.CREATE, pod, null);
        workers.updatePod(SyncPodType.KILL, pod, 5L);
        await().atMost(Duration.ofSeconds(5)).until(() -> states.isTerminated("uid-p"));
        assertThat(handler.calls).endsWith("terminating:5", "terminated");
        // Later updates of a finished pod do nothing.
        workers.updatePod(SyncPodType.UPDATE, pod, null);
        assertThat(states.isTerminated("uid-p")).isTrue();
    }

    @Test
    void aKillWithAStatusChangeAppliesItAsTerminationBeginsAndTellsWhenTheContainersAreStopped() throws Exception {
        handler.blockTermination = true;
        Pod pod = pod("p", container("a"));
        workers.updatePod(SyncPodType.CREATE, pod, null);
        var stopped = workers.killPod(pod, 1L, s -> {
            s.setPhase("Failed");
            s.setReason("Evicted");
        });
        assertThat(handler.terminating.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(stopped).isNotDone();

        handler.releaseTermination.countDown();
        stopped.get(5, TimeUnit.SECONDS);
        assertThat(handler.calls).containsSubsequence("terminating:1", "status:Failed:Evicted");
        // A kill asked of a pod already stopped is done at once.
        await().atMost(Duration.ofSeconds(5)).until(() -> states.isTerminated("uid-p"));
        assertThat(workers.killPod(pod, 1L, s -> { })).isDone();
    }

    @Test
    void aPodWantedAgainWhileTerminatingStartsAfreshOnceTerminated() throws Exception {
        handler.blockTermination = true;
        Pod pod = pod("p", container("a"));
        workers.updatePod(SyncPodType.KILL, pod, 1L);
        assertThat(handler.terminating.await(5, TimeUnit.SECONDS)).isTrue();
        Pod again = pod("p", container("b"));
        workers.updatePod(SyncPodType.CREATE, again, null);
        assertThat(handler.calls).containsExactly("terminating:1");
        handler.releaseTermination.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> handler.calls.contains("sync:CREATE:b"));
        assertThat(handler.calls).containsExactly("terminating:1", "terminated", "sync:CREATE:b");
        assertThat(states.isTerminated("uid-p")).isFalse();
    }

    @Test
    void aFinishedPodWantedAgainStartsAfresh() {
        Pod pod = pod("p", container("a"));
        workers.updatePod(SyncPodType.KILL, pod, null);
        await().atMost(Duration.ofSeconds(5)).until(() -> states.isTerminated("uid-p"));
        workers.updatePod(SyncPodType.CREATE, pod("p", container("c")), null);
        await().atMost(Duration.ofSeconds(5)).until(() -> handler.calls.contains("sync:CREATE:c"));
        assertThat(states.isTerminated("uid-p")).isFalse();
    }

    @Test
    void aKillRequestedWhileASyncRunsIsCarriedOutAfterItAndNeverReplacedByALaterUpdate() throws Exception {
        handler.blockSync = true;
        Pod pod = pod("p", container("a"));
        workers.updatePod(SyncPodType.CREATE, pod, null);
        assertThat(handler.syncing.await(5, TimeUnit.SECONDS)).isTrue();

        // While the sync runs: a kill, then a change of the pod and a runtime event.
        workers.updatePod(SyncPodType.KILL, pod, 3L);
        workers.updatePod(SyncPodType.UPDATE, pod("p", container("b")), null);
        workers.updatePod(SyncPodType.SYNC, pod("p", container("b")), null);
        assertThat(states.couldHaveRunningContainers("uid-p")).isTrue();
        handler.releaseSync.countDown();

        await().atMost(Duration.ofSeconds(5)).until(() -> states.isTerminated("uid-p"));
        assertThat(handler.calls).containsExactly("sync:CREATE:a", "terminating:3", "terminated");
        assertThat(states.couldHaveRunningContainers("uid-p")).isFalse();
    }

    @Test
    void aFailedTerminationIsTriedAgainOnceItsBackOffEndsThoughNoSourceHasThePodAnyMore() {
        // Each stage runs on the caller's thread: when an update returns, its stage and back-off are done.
        PodWorkers inline = new PodWorkers(states, handler, NO_RUNTIME, clock, Duration.ofMinutes(1),
                Duration.ofSeconds(10), Runnable::run);
        handler.failingTerminations.set(1);
        inline.updatePod(SyncPodType.KILL, pod("p", container("a")), 1L);
        assertThat(handler.calls).containsExactly("terminating:1");
        assertThat(states.state("uid-p")).contains(PodWorkerState.TERMINATING);
        assertThat(states.couldHaveRunningContainers("uid-p")).isTrue();
        clock.advance(Duration.ofSeconds(9));
        assertThat(inline.takeDue()).isEmpty();
        assertThat(handler.calls).hasSize(1);

        // 10 s with up to 50 % jitter: by 15 s the worker tries again on the pod it holds; the loop has nothing to do.
        clock.advance(Duration.ofSeconds(6));
        assertThat(inline.takeDue()).isEmpty();
        assertThat(handler.calls).containsExactly("terminating:1", "terminating:1", "terminated");
        assertThat(states.isTerminated("uid-p")).isTrue();
    }
}
