package io.jkubelet.core.nodeshutdown;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.admission.PodAdmitResult;
import io.jkubelet.core.events.EventRecorder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static io.jkubelet.core.nodeshutdown.ShutdownGracePeriodsTest.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The manager's state machine against a fake logind, fake pods and a timer that never waits; the ranges are those of
 * shutdownGracePeriod 30s with shutdownGracePeriodCriticalPods 10s.
 */
class NodeShutdownManagerTest {
    /** Runs every task at once on the caller's thread: events and kills happen in the order they are handed over. */
    static final class DirectExecutor extends AbstractExecutorService {
        @Override public void execute(Runnable r) { r.run(); }
        @Override public void shutdown() {}
        @Override public List<Runnable> shutdownNow() { return List.of(); }
        @Override public boolean isShutdown() { return false; }
        @Override public boolean isTerminated() { return false; }
        @Override public boolean awaitTermination(long t, TimeUnit u) { return true; }
    }

    /** Logind as the manager sees it: the delay, a drop-in that raises it (or not), locks, the signal handler. */
    static final class FakeLogind implements Inhibitor {
        Duration delay = Duration.ofSeconds(5);
        boolean reloadRaisesDelay = true;
        Duration overriddenTo;
        int reloads;
        final List<String> locks = new ArrayList<>();
        final List<String> released = new ArrayList<>();
        Consumer<Boolean> signals;
        Runnable ended;
        boolean closed;

        @Override public Duration currentInhibitDelay() { return delay; }

        @Override public InhibitLock inhibitShutdown() {
            String fd = "fd" + (locks.size() + 1);
            locks.add(fd);
            return () -> released.add(fd);
        }

        @Override public void overrideInhibitDelay(Duration max) { overriddenTo = max; }

        @Override public void reloadLogindConf() {
            reloads++;
            if (reloadRaisesDelay) {
                delay = overriddenTo;
            }
        }

        @Override public void monitorShutdown(Consumer<Boolean> events, Runnable ended) {
            signals = events;
            this.ended = ended;
        }

        @Override public void close() { closed = true; }
    }

    final FakeLogind logind = new FakeLogind();
    final List<Pod> active = new ArrayList<>();
    /** Each kill as "name grace", in the order they happened. */
    final List<String> kills = new CopyOnWriteArrayList<>();
    final Map<String, PodStatus> statuses = new ConcurrentHashMap<>();
    final List<Duration> budgets = new ArrayList<>();
    final List<Duration> sleeps = new ArrayList<>();
    final List<String> events = new CopyOnWriteArrayList<>();
    int nodeStatusSyncs;
    @TempDir Path root;
    /** The last shutdown's gauges, as "start" and "end" seconds since the epoch. */
    final Map<String, Double> gauges = new ConcurrentHashMap<>();
    final io.jkubelet.core.testing.FakeClock clock = new io.jkubelet.core.testing.FakeClock(Instant.parse("2026-12-05T04:00:00.5Z"));
    final List<ShutdownGracePeriod> periods = ShutdownGracePeriods.of(Duration.ofSeconds(30), Duration.ofSeconds(10), null, true);

    NodeShutdownManager manager(List<ShutdownGracePeriod> periods) {
        NodeShutdownManager.Pods pods = new NodeShutdownManager.Pods() {
            @Override public List<Pod> active() { return List.copyOf(active); }

            @Override public void kill(Pod pod, long grace, Consumer<PodStatus> statusFn) {
                PodStatus status = new PodStatus();
                status.setPhase("Running");
                statusFn.accept(status);
                statuses.put(pod.getMetadata().getName(), status);
                kills.add(pod.getMetadata().getName() + " " + grace);
                clock.advance(Duration.ofSeconds(1));
            }
        };
        EventRecorder recorder = (ref, type, reason, message) -> events.add(ref.getKind() + " " + type + " " + reason + ": " + message);
        return new NodeShutdownManager(periods, pods, recorder, "node-a", () -> nodeStatusSyncs++, new DirectExecutor(),
                new DirectExecutor(), (all, budget) -> {
                    budgets.add(budget);
                    return all.isDone();
                }, sleeps::add, new GracefulShutdownRecord(root.resolve("graceful_node_shutdown_state"), clock,
                        new GracefulShutdownRecord.Gauges() {
                            @Override public void startTime(double s) { gauges.put("start", s); }

                            @Override public void endTime(double s) { gauges.put("end", s); }
                        }));
    }

    @Test
    void aShortLogindDelayIsRaisedThroughTheDropInAndAReloadThenTheLockIsTaken() throws Exception {
        NodeShutdownManager m = manager(periods);
        m.start(() -> logind);
        assertThat(logind.overriddenTo).isEqualTo(Duration.ofSeconds(30));
        assertThat(logind.reloads).isEqualTo(1);
        assertThat(logind.locks).containsExactly("fd1");
        assertThat(logind.released).isEmpty();
        assertThat(logind.signals).isNotNull();
    }

    @Test
    void aLongEnoughDelayIsLeftAlone() throws Exception {
        logind.delay = Duration.ofSeconds(30);
        manager(periods).start(() -> logind);
        assertThat(logind.overriddenTo).isNull();
        assertThat(logind.reloads).isZero();
        assertThat(logind.locks).containsExactly("fd1");
    }

    @Test
    void aDelayLogindKeepsTooShortFailsTheStartWithUpstreamsMessageAndTakesNoLock() {
        logind.reloadRaisesDelay = false;
        assertThatThrownBy(() -> manager(periods).start(() -> logind)).isInstanceOf(IOException.class)
                .hasMessage("node shutdown manager was unable to update logind InhibitDelayMaxSec to 30s (ShutdownGracePeriod),"
                        + " current value of InhibitDelayMaxSec (5s) is less than requested ShutdownGracePeriod");
        assertThat(logind.locks).isEmpty();
        assertThat(logind.closed).isTrue();
    }

    @Test
    void noSystemBusFailsTheStartWithTheConnectionsError() {
        assertThatThrownBy(() -> manager(periods).start(() -> {
            throw new IOException("Failed to connect to bus: No such file or directory");
        })).hasMessage("Failed to connect to bus: No such file or directory");
    }

    @Test
    void aShutdownKillsRegularPodsBeforeCriticalOnesEachWithinItsGroupsBudgetThenReleasesTheLock() throws Exception {
        Pod critical = pod("critical", 2_000_001_000);
        Pod regular = pod("regular", 0);
        Pod quick = pod("quick", null);
        quick.getSpec().setTerminationGracePeriodSeconds(3L);
        Pod slow = pod("slow", 100);
        slow.getSpec().setTerminationGracePeriodSeconds(300L);
        active.addAll(List.of(critical, regular, quick, slow));
        NodeShutdownManager m = manager(periods);
        m.start(() -> logind);
        assertThat(m.admit(pod("new", 0))).isEqualTo(PodAdmitResult.ADMIT);

        logind.signals.accept(true);

        // Regular pods first, with 20 s (or their own grace period when shorter), then the critical one with 10 s.
        assertThat(kills.subList(0, 3)).containsExactlyInAnyOrder("regular 20", "quick 3", "slow 20");
        assertThat(kills.get(3)).isEqualTo("critical 10");
        assertThat(budgets).containsExactly(Duration.ofSeconds(20), Duration.ofSeconds(10));
        PodStatus status = statuses.get("regular");
        assertThat(status.getPhase()).isEqualTo("Failed");
        assertThat(status.getReason()).isEqualTo("Terminated");
        assertThat(status.getMessage()).isEqualTo("Pod was terminated in response to imminent node shutdown.");
        PodCondition disruption = status.getConditions().getFirst();
        assertThat(List.of(disruption.getType(), disruption.getStatus(), disruption.getReason(), disruption.getMessage()))
                .containsExactly("DisruptionTarget", "True", "TerminationByKubelet",
                        "Pod was terminated in response to imminent node shutdown.");
        assertThat(logind.released).containsExactly("fd1");
        assertThat(events).containsExactly("Node Normal NodeShutdown: Shutdown manager detected shutdown event");
        // The node says so, and takes no new pods.
        assertThat(m.shutdownStatus()).contains("node is shutting down");
        assertThat(m.admit(pod("new", 0))).isEqualTo(
                PodAdmitResult.reject("NodeShutdown", "Pod was rejected as the node is shutting down."));
    }

    @Test
    void theShutdownsStartAndEndAreKeptInUpstreamsStateFileAndShownAfterTheNextStart() throws Exception {
        active.add(pod("regular", 0));
        NodeShutdownManager m = manager(periods);
        m.start(() -> logind);
        assertThat(gauges).isEmpty();
        logind.signals.accept(true);
        // Go's time.Time in JSON: RFC 3339 with the fraction's trailing zeros dropped.
        assertThat(Files.readString(root.resolve("graceful_node_shutdown_state")))
                .isEqualTo("{\"startTime\":\"2026-12-05T04:00:00.5Z\",\"endTime\":\"2026-12-05T04:00:01.5Z\"}");
        assertThat(gauges).containsEntry("start", 1796443200.5).containsEntry("end", 1796443201.5);

        // After the reboot, a new kubelet reports the last shutdown from the file.
        gauges.clear();
        FakeLogind next = new FakeLogind();
        manager(periods).start(() -> next);
        assertThat(gauges).containsEntry("start", 1796443200.5).containsEntry("end", 1796443201.5);
    }

    @Test
    void shutdownGracePeriodByPodPriorityStopsEachRangeInTurnFromTheLowest() throws Exception {
        List<ShutdownGracePeriod> byPriority = List.of(new ShutdownGracePeriod(0, 20), new ShutdownGracePeriod(10000, 10),
                new ShutdownGracePeriod(100000, 5));
        active.addAll(List.of(pod("important", 100000), pod("batch", 0), pod("web", 20000), pod("best-effort", -5)));
        NodeShutdownManager m = manager(byPriority);
        m.start(() -> logind);
        // 35 s in all: logind's 5 s are raised first.
        assertThat(logind.overriddenTo).isEqualTo(Duration.ofSeconds(35));

        logind.signals.accept(true);

        assertThat(kills.subList(0, 2)).containsExactlyInAnyOrder("batch 20", "best-effort 20");
        assertThat(kills.subList(2, 4)).containsExactly("web 10", "important 5");
        assertThat(budgets).containsExactly(Duration.ofSeconds(20), Duration.ofSeconds(10), Duration.ofSeconds(5));
        assertThat(logind.released).containsExactly("fd1");
    }

    @Test
    void aGroupWithoutPodsIsNotWaitedFor() throws Exception {
        active.add(pod("regular", 0));
        NodeShutdownManager m = manager(periods);
        m.start(() -> logind);
        logind.signals.accept(true);
        assertThat(budgets).containsExactly(Duration.ofSeconds(20));
    }

    @Test
    void aPodThatAlreadySucceededKeepsItsPhase() {
        PodStatus status = new PodStatus();
        status.setPhase("Succeeded");
        NodeShutdownManager.terminated(status);
        assertThat(status.getPhase()).isEqualTo("Succeeded");
        assertThat(status.getReason()).isEqualTo("Terminated");
    }

    @Test
    void aCancelledShutdownTakesTheLockAgainAndAdmitsPodsAgain() throws Exception {
        NodeShutdownManager m = manager(periods);
        m.start(() -> logind);
        logind.signals.accept(true);
        assertThat(logind.released).containsExactly("fd1");

        logind.signals.accept(false);

        assertThat(logind.locks).containsExactly("fd1", "fd2");
        assertThat(logind.released).containsExactly("fd1");
        assertThat(m.shutdownStatus()).isEmpty();
        assertThat(m.admit(pod("new", 0))).isEqualTo(PodAdmitResult.ADMIT);
        assertThat(events).endsWith("Node Normal NodeShutdown: Shutdown manager detected shutdown cancellation");
    }

    @Test
    void aCancellationWithoutAShutdownReplacesTheLockItHeld() throws Exception {
        manager(periods).start(() -> logind);
        logind.signals.accept(false);
        assertThat(logind.locks).containsExactly("fd1", "fd2");
        assertThat(logind.released).containsExactly("fd1");
    }

    @Test
    void stoppingTheKubeletReleasesTheLockAndClosesTheConnection() throws Exception {
        NodeShutdownManager m = manager(periods);
        m.start(() -> logind);
        m.stop();
        assertThat(logind.released).containsExactly("fd1");
        assertThat(logind.closed).isTrue();
    }

    @Test
    void aConnectionThatEndsIsMadeAgainEverySecondUntilItWorksAndTakesTheLockAgain() throws Exception {
        FakeLogind first = logind;
        FakeLogind second = new FakeLogind();
        second.delay = Duration.ofSeconds(30);
        List<Object> connections = new ArrayList<>(List.of(first, new IOException("no bus yet"), second));
        NodeShutdownManager m = manager(periods);
        m.start(() -> {
            Object next = connections.removeFirst();
            if (next instanceof IOException e) {
                throw e;
            }
            return (Inhibitor) next;
        });

        first.ended.run();

        // One failed try, then the second connection: its own lock, the first connection closed and its lock released.
        assertThat(sleeps).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(1));
        assertThat(connections).isEmpty();
        assertThat(first.closed).isTrue();
        assertThat(first.released).containsExactly("fd1");
        active.add(pod("regular", 0));
        assertThat(second.locks).containsExactly("fd1");
        second.signals.accept(true);
        assertThat(kills).containsExactly("regular 20");
        assertThat(second.released).containsExactly("fd1");
    }

    @Test
    void theRealTimerGivesUpOnAGroupAfterItsBudget() throws Exception {
        assertThat(NodeShutdownManager.GroupTimer.REAL.await(new CompletableFuture<>(), Duration.ZERO)).isFalse();
        assertThat(NodeShutdownManager.GroupTimer.REAL.await(CompletableFuture.completedFuture(null), Duration.ZERO)).isTrue();
    }
}
