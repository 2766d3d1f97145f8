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
        volatile boolean blockTermination;
        volatile PodWorkers.SyncOutcome outcome = PodWorkers.SyncOutcome.OK;

        @Override
        public PodWorkers.SyncOutcome syncPod(PodWorkers.UpdateType type, Pod pod, RuntimePodStatus status) {
            calls.add("sync:" + type + ":" + pod.getSpec().getContainers().get(0).getName());
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
    private final PodWorkers workers = new PodWorkers(handler, NO_RUNTIME, clock, Duration.ofMinutes(1),
            Duration.ofSeconds(10), Executors.newVirtualThreadPerTaskExecutor());

    @Test
    void aFailedSyncBacksOffJitteredAndRuntimeSyncsWaitForItButChangesOfThePodDoNot() {
        handler.outcome = PodWorkers.SyncOutcome.FAILED;
        Pod pod = pod("p", container("a"));
        workers.updatePod(PodWorkers.UpdateType.CREATE, pod, null);
        await().atMost(Duration.ofSeconds(5)).until(() -> handler.calls.size() == 1);

        // What the PLEG, a probe or a tick asks in the back-off is not a retry.
        workers.updatePod(PodWorkers.UpdateType.SYNC, pod, null);
        clock.advance(Duration.ofSeconds(9));
        assertThat(workers.takeDue()).isEmpty();
        workers.updatePod(PodWorkers.UpdateType.SYNC, pod, null);
        assertThat(handler.calls).containsExactly("sync:CREATE:a");

        // A changed pod is synced at once; it failed again, so the back-off starts over.
        workers.updatePod(PodWorkers.UpdateType.UPDATE, pod("p", container("b")), null);
        await().atMost(Duration.ofSeconds(5)).until(() -> handler.calls.size() == 2);
        clock.advance(Duration.ofSeconds(9));
        assertThat(workers.takeDue()).isEmpty();

        // 10 s with up to 50 % jitter: due by 15 s, and then the SYNC it brings runs.
        clock.advance(Duration.ofSeconds(6));
        assertThat(workers.takeDue()).containsExactly("uid-p");
        handler.outcome = PodWorkers.SyncOutcome.OK;
        workers.updatePod(PodWorkers.UpdateType.SYNC, pod("p", container("b")), null);
        await().atMost(Duration.ofSeconds(5)).until(() -> handler.calls.size() == 3);
        assertThat(handler.calls).endsWith("sync:SYNC:b");

        // Once a sync went well, runtime syncs go through at once again.
        workers.updatePod(PodWorkers.UpdateType.SYNC, pod("p", container("b")), null);
        await().atMost(Duration.ofSeconds(5)).until(() -> handler.calls.size() == 4);
    }

    @Test
    void killRunsTerminationThenTheWorkerFinishes() {
        Pod pod = pod("p", container("a"));
        workers.updatePod(PodWorkers.UpdateType.CREATE, pod, null);
        workers.updatePod(PodWorkers.UpdateType.KILL, pod, 5L);
        await().atMost(Duration.ofSeconds(5)).until(() -> workers.isTerminated("uid-p"));
        assertThat(handler.calls).endsWith("terminating:5", "terminated");
        // Later updates of a finished pod do nothing.
        workers.updatePod(PodWorkers.UpdateType.UPDATE, pod, null);
        assertThat(workers.isTerminated("uid-p")).isTrue();
    }

    @Test
    void aKillWithAStatusChangeAppliesItAsTerminationBeginsAndTellsWhenTheContainersAreStopped() throws Exception {
        handler.blockTermination = true;
        Pod pod = pod("p", container("a"));
        workers.updatePod(PodWorkers.UpdateType.CREATE, pod, null);
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
        await().atMost(Duration.ofSeconds(5)).until(() -> workers.isTerminated("uid-p"));
        assertThat(workers.killPod(pod, 1L, s -> { })).isDone();
    }

    @Test
    void aPodWantedAgainWhileTerminatingStartsAfreshOnceTerminated() throws Exception {
        handler.blockTermination = true;
        Pod pod = pod("p", container("a"));
        workers.updatePod(PodWorkers.UpdateType.KILL, pod, 1L);
        assertThat(handler.terminating.await(5, TimeUnit.SECONDS)).isTrue();
        Pod again = pod("p", container("b"));
        workers.updatePod(PodWorkers.UpdateType.CREATE, again, null);
        assertThat(handler.calls).containsExactly("terminating:1");
        handler.releaseTermination.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> handler.calls.contains("sync:CREATE:b"));
        assertThat(handler.calls).containsExactly("terminating:1", "terminated", "sync:CREATE:b");
        assertThat(workers.isTerminated("uid-p")).isFalse();
    }

    @Test
    void aFinishedPodWantedAgainStartsAfresh() {
        Pod pod = pod("p", container("a"));
        workers.updatePod(PodWorkers.UpdateType.KILL, pod, null);
        await().atMost(Duration.ofSeconds(5)).until(() -> workers.isTerminated("uid-p"));
        workers.updatePod(PodWorkers.UpdateType.CREATE, pod("p", container("c")), null);
        await().atMost(Duration.ofSeconds(5)).until(() -> handler.calls.contains("sync:CREATE:c"));
        assertThat(workers.isTerminated("uid-p")).isFalse();
    }

    @Test
    void aKillIsNeverLostToLaterUpdates() throws Exception {
        handler.blockTermination = true;
        Pod pod = pod("p", container("a"));
        workers.updatePod(PodWorkers.UpdateType.CREATE, pod, null);
        workers.updatePod(PodWorkers.UpdateType.KILL, pod, null);
        workers.updatePod(PodWorkers.UpdateType.UPDATE, pod, null);
        workers.updatePod(PodWorkers.UpdateType.SYNC, pod, null);
        assertThat(handler.terminating.await(5, TimeUnit.SECONDS)).isTrue();
        handler.releaseTermination.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> workers.isTerminated("uid-p"));
        assertThat(handler.calls).doesNotContain("sync:UPDATE:a", "sync:SYNC:a");
    }
}
