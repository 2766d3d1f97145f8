package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static io.jkubelet.core.kubelet.PodWorkerState.FINISHED;
import static io.jkubelet.core.kubelet.PodWorkerState.SYNCING;
import static io.jkubelet.core.kubelet.PodWorkerState.TERMINATED;
import static io.jkubelet.core.kubelet.PodWorkerState.TERMINATING;
import static io.jkubelet.core.kubelet.SyncPodType.CREATE;
import static io.jkubelet.core.kubelet.SyncPodType.KILL;
import static io.jkubelet.core.kubelet.SyncPodType.SYNC;
import static io.jkubelet.core.kubelet.SyncPodType.UPDATE;
import static io.jkubelet.core.testing.Pods.container;
import static io.jkubelet.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The pod workers' state machine, without threads: every state, every update, every move. */
class PodSyncStatusesTest {
    private static final String UID = "uid-p";
    private static final Instant NOW = Instant.parse("2026-12-06T12:00:00Z");
    private static final Pod POD = pod("p", container("a"));

    private final PodSyncStatuses statuses = new PodSyncStatuses();

    // ---- the moves ----

    /** Upstream's moves: syncing to terminating to terminated to finished, and a finished UID wanted again. */
    private static final Map<PodWorkerState, PodWorkerState> LEGAL = Map.of(
            SYNCING, TERMINATING, TERMINATING, TERMINATED, TERMINATED, FINISHED, FINISHED, SYNCING);

    static Stream<Arguments> everyPairOfStates() {
        return Arrays.stream(PodWorkerState.values())
                .flatMap(from -> Arrays.stream(PodWorkerState.values()).map(to -> Arguments.of(from, to)));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("everyPairOfStates")
    void aWorkerMakesOnlyTheMovesUpstreamsPodWorkersMake(PodWorkerState from, PodWorkerState to) {
        PodSyncStatus s = new PodSyncStatus(UID);
        walkTo(s, from);
        if (LEGAL.get(from) == to) {
            s.moveTo(to);
            assertThat(s.state()).isEqualTo(to);
        } else {
            assertThatThrownBy(() -> s.moveTo(to)).isInstanceOf(IllegalStateException.class)
                    .hasMessage("pod worker of uid-p cannot move from " + from + " to " + to);
            assertThat(s.state()).isEqualTo(from);
        }
    }

    private static void walkTo(PodSyncStatus s, PodWorkerState target) {
        while (s.state() != target) {
            s.moveTo(LEGAL.get(s.state()));
        }
    }

    @ParameterizedTest
    @EnumSource(PodWorkerState.class)
    void whatOtherPartsReadOfEachState(PodWorkerState state) {
        reach(state);
        assertThat(statuses.state(UID)).contains(state);
        assertThat(statuses.couldHaveRunningContainers(UID)).isEqualTo(state == SYNCING || state == TERMINATING);
        assertThat(statuses.isTerminationRequested(UID)).isEqualTo(state != SYNCING);
        assertThat(statuses.isTerminated(UID)).isEqualTo(state == FINISHED);
    }

    @Test
    void aPodNoWorkerHasCannotHaveRunningContainersAndCountsAsTerminated() {
        assertThat(statuses.couldHaveRunningContainers(UID)).isFalse();
        assertThat(statuses.isTerminated(UID)).isTrue();
        assertThat(statuses.isTerminationRequested(UID)).isFalse();
        assertThat(statuses.isKnown(UID)).isFalse();
    }

    // ---- every update in every situation ----

    /** Where a worker can be when an update comes. */
    enum Situation {
        SYNCING_IDLE, SYNCING_BUSY, TERMINATING_BUSY, TERMINATING_FAILED, TERMINATED_FAILED, FINISHED_IDLE
    }

    /**
     * @param after the state the update leaves
     * @param start whether the caller must start a worker thread
     * @param work the work the worker takes next: its stage and update type, or null for none
     */
    record Row(Situation situation, SyncPodType type, PodWorkerState after, boolean start, PodWorkerState stage,
               SyncPodType workType) {}

    static Stream<Row> updates() {
        return Stream.of(
                new Row(Situation.SYNCING_IDLE, CREATE, SYNCING, true, SYNCING, CREATE),
                new Row(Situation.SYNCING_IDLE, UPDATE, SYNCING, true, SYNCING, UPDATE),
                new Row(Situation.SYNCING_IDLE, SYNC, SYNCING, true, SYNCING, SYNC),
                new Row(Situation.SYNCING_IDLE, KILL, TERMINATING, true, TERMINATING, KILL),
                // A worker busy syncing takes what came after the sync under way ends; a kill goes first.
                new Row(Situation.SYNCING_BUSY, CREATE, SYNCING, false, SYNCING, CREATE),
                new Row(Situation.SYNCING_BUSY, UPDATE, SYNCING, false, SYNCING, UPDATE),
                new Row(Situation.SYNCING_BUSY, SYNC, SYNCING, false, SYNCING, SYNC),
                new Row(Situation.SYNCING_BUSY, KILL, TERMINATING, false, TERMINATING, KILL),
                // A pod being torn down is not synced again: once its containers are stopped, the terminated stage
                // comes next whatever came meanwhile (wanted again, it restarts after that: see below).
                new Row(Situation.TERMINATING_BUSY, CREATE, TERMINATING, false, TERMINATED, SYNC),
                new Row(Situation.TERMINATING_BUSY, UPDATE, TERMINATING, false, TERMINATED, SYNC),
                new Row(Situation.TERMINATING_BUSY, SYNC, TERMINATING, false, TERMINATED, SYNC),
                new Row(Situation.TERMINATING_BUSY, KILL, TERMINATING, false, TERMINATED, KILL),
                // A stage that failed is tried again on a change or a kill at once, on a SYNC once its back-off ends.
                new Row(Situation.TERMINATING_FAILED, CREATE, TERMINATING, false, null, null),
                new Row(Situation.TERMINATING_FAILED, UPDATE, TERMINATING, true, TERMINATING, UPDATE),
                new Row(Situation.TERMINATING_FAILED, SYNC, TERMINATING, false, null, null),
                new Row(Situation.TERMINATING_FAILED, KILL, TERMINATING, true, TERMINATING, KILL),
                new Row(Situation.TERMINATED_FAILED, CREATE, TERMINATED, false, null, null),
                new Row(Situation.TERMINATED_FAILED, UPDATE, TERMINATED, true, TERMINATED, UPDATE),
                new Row(Situation.TERMINATED_FAILED, SYNC, TERMINATED, false, null, null),
                new Row(Situation.TERMINATED_FAILED, KILL, TERMINATED, true, TERMINATED, KILL),
                // Finished: only the pod wanted again (a static pod's manifest back) does anything.
                new Row(Situation.FINISHED_IDLE, CREATE, SYNCING, true, SYNCING, CREATE),
                new Row(Situation.FINISHED_IDLE, UPDATE, FINISHED, false, null, null),
                new Row(Situation.FINISHED_IDLE, SYNC, FINISHED, false, null, null),
                new Row(Situation.FINISHED_IDLE, KILL, FINISHED, false, null, null));
    }

    @ParameterizedTest
    @MethodSource("updates")
    void eachUpdateInEachSituation(Row row) {
        boolean busy = arrange(row.situation());
        assertThat(update(row.type())).as("start a worker").isEqualTo(row.start());
        assertThat(statuses.state(UID)).contains(row.after());
        if (busy) {
            finishStage(row.situation());
        }
        Optional<PodSyncStatuses.PodWork> work = statuses.next(UID, NOW);
        if (row.stage() == null) {
            assertThat(work).isEmpty();
        } else {
            assertThat(work).get().extracting(PodSyncStatuses.PodWork::stage, PodSyncStatuses.PodWork::type)
                    .containsExactly(row.stage(), row.workType());
        }
    }

    /** Puts the worker in the situation; returns whether its worker is busy with a stage then. */
    private boolean arrange(Situation situation) {
        switch (situation) {
            case SYNCING_IDLE -> {
                reach(SYNCING);
                return false;
            }
            case SYNCING_BUSY -> {
                update(CREATE);
                statuses.next(UID, NOW).orElseThrow();
                return true;
            }
            case TERMINATING_BUSY -> {
                update(KILL);
                statuses.next(UID, NOW).orElseThrow();
                return true;
            }
            case TERMINATING_FAILED -> {
                update(KILL);
                statuses.next(UID, NOW).orElseThrow();
                failStage();
                return false;
            }
            case TERMINATED_FAILED -> {
                update(KILL);
                statuses.next(UID, NOW).orElseThrow();
                statuses.containersStopped(UID);
                assertThat(statuses.next(UID, NOW)).get().extracting(PodSyncStatuses.PodWork::stage).isEqualTo(TERMINATED);
                failStage();
                return false;
            }
            case FINISHED_IDLE -> {
                reach(FINISHED);
                return false;
            }
        }
        throw new AssertionError(situation);
    }

    /** The stage under way failed: the worker backs off and, with nothing pending, stops. */
    private void failStage() {
        statuses.backOff(UID, NOW.plus(Duration.ofSeconds(10)));
        assertThat(statuses.next(UID, NOW)).isEmpty();
    }

    /** The stage under way ended well, as the worker reports it before it looks for more work. */
    private void finishStage(Situation situation) {
        if (situation == Situation.TERMINATING_BUSY) {
            statuses.containersStopped(UID);
        }
    }

    /** The worker taken from nothing to {@code state}: busy stopping the containers when terminating, else idle. */
    private void reach(PodWorkerState state) {
        if (state == TERMINATING) {
            update(KILL);
            statuses.next(UID, NOW).orElseThrow();
            return;
        }
        update(CREATE);
        statuses.next(UID, NOW).orElseThrow();
        if (state != SYNCING) {
            statuses.becameTerminal(UID);
            statuses.next(UID, NOW).orElseThrow();
            statuses.containersStopped(UID);
            statuses.next(UID, NOW).orElseThrow();
            if (state == FINISHED) {
                statuses.resourcesReleased(UID);
            }
        }
        assertThat(statuses.next(UID, NOW)).isEmpty(); // idle: nothing pending
    }

    private boolean update(SyncPodType type) {
        return statuses.update(type, POD, null, null, null, NOW);
    }

    // ---- sequences ----

    @Test
    void aSyncThatFindsThePodTerminalBeginsItsTerminationAtOnce() {
        update(CREATE);
        statuses.next(UID, NOW).orElseThrow();
        statuses.becameTerminal(UID);
        assertThat(statuses.next(UID, NOW)).get().extracting(PodSyncStatuses.PodWork::stage).isEqualTo(TERMINATING);
    }

    @Test
    void aPodFoundTerminalAfterAKillCameStaysTerminatingWithTheKillsOptions() {
        update(CREATE);
        statuses.next(UID, NOW).orElseThrow();
        statuses.update(KILL, POD, 7L, null, null, NOW);
        statuses.becameTerminal(UID);
        assertThat(statuses.next(UID, NOW)).get().extracting(PodSyncStatuses.PodWork::stage,
                PodSyncStatuses.PodWork::type, PodSyncStatuses.PodWork::gracePeriodOverride)
                .containsExactly(TERMINATING, KILL, 7L);
    }

    @Test
    void killsGatherTheShortestGracePeriodEveryStatusChangeInOrderAndEveryWaiter() {
        CompletableFuture<Void> first = new CompletableFuture<>();
        CompletableFuture<Void> second = new CompletableFuture<>();
        StringBuilder applied = new StringBuilder();
        Consumer<io.fabric8.kubernetes.api.model.PodStatus> evicted = s -> applied.append("evicted;");
        Consumer<io.fabric8.kubernetes.api.model.PodStatus> shutdown = s -> applied.append("shutdown;");
        statuses.update(KILL, POD, 30L, evicted, first, NOW);
        statuses.update(KILL, POD, 5L, shutdown, second, NOW);
        statuses.update(KILL, POD, 10L, null, null, NOW);
        PodSyncStatuses.PodWork work = statuses.next(UID, NOW).orElseThrow();
        assertThat(work.gracePeriodOverride()).isEqualTo(5L);
        work.podStatusFn().accept(new io.fabric8.kubernetes.api.model.PodStatus());
        assertThat(applied).hasToString("evicted;shutdown;");

        assertThat(statuses.containersStopped(UID)).containsExactly(first, second);
        // A kill asked once the containers are stopped is done at once.
        CompletableFuture<Void> late = new CompletableFuture<>();
        statuses.update(KILL, POD, null, null, late, NOW);
        assertThat(late).isDone();
    }

    @Test
    void aPodWantedAgainWhileTornDownSyncsAfreshOnceItsResourcesAreReleased() {
        update(KILL);
        statuses.next(UID, NOW).orElseThrow();
        assertThat(update(CREATE)).isFalse();
        statuses.containersStopped(UID);
        statuses.next(UID, NOW).orElseThrow();
        statuses.resourcesReleased(UID);
        assertThat(statuses.state(UID)).contains(SYNCING);
        PodSyncStatuses.PodWork work = statuses.next(UID, NOW).orElseThrow();
        assertThat(work.stage()).isEqualTo(SYNCING);
        assertThat(work.type()).isEqualTo(CREATE);
        assertThat(work.gracePeriodOverride()).as("nothing of the kill is left").isNull();
    }

    @Test
    void aKillTakesBackTheWishToRestart() {
        update(KILL);
        statuses.next(UID, NOW).orElseThrow();
        update(CREATE);
        update(KILL);
        statuses.containersStopped(UID);
        statuses.next(UID, NOW).orElseThrow();
        statuses.resourcesReleased(UID);
        assertThat(statuses.state(UID)).contains(FINISHED);
    }

    @Test
    void aSyncWaitsForTheBackOffOfAFailedSyncButAChangeOrAKillDoesNot() {
        update(CREATE);
        statuses.next(UID, NOW).orElseThrow();
        statuses.backOff(UID, NOW.plus(Duration.ofSeconds(10)));
        // A SYNC that came in while the failing sync ran is dropped.
        update(SYNC);
        assertThat(statuses.next(UID, NOW)).isEmpty();
        assertThat(update(SYNC)).isFalse();
        assertThat(update(SYNC)).isFalse();
        Instant later = NOW.plus(Duration.ofSeconds(10));
        assertThat(statuses.update(SYNC, POD, null, null, null, later)).isTrue();
        statuses.next(UID, later).orElseThrow();
        statuses.backOff(UID, NOW.plus(Duration.ofSeconds(10)));
        assertThat(statuses.next(UID, NOW)).isEmpty();
        assertThat(update(UPDATE)).isTrue();
        statuses.next(UID, NOW).orElseThrow();
        statuses.backOff(UID, NOW.plus(Duration.ofSeconds(10)));
        assertThat(statuses.next(UID, NOW)).isEmpty();
        assertThat(update(KILL)).isTrue();
    }

    @Test
    void theBackOffOfAFailedSyncDoesNotHoldBackTheTerminatedStage() {
        update(CREATE);
        statuses.next(UID, NOW).orElseThrow();
        update(KILL);
        statuses.backOff(UID, NOW.plus(Duration.ofSeconds(10)));
        statuses.next(UID, NOW).orElseThrow(); // terminating: a kill is no SYNC
        statuses.containersStopped(UID);
        assertThat(statuses.next(UID, NOW)).get().extracting(PodSyncStatuses.PodWork::stage).isEqualTo(TERMINATED);
    }

    @Test
    void onlyAFinishedWorkerIsForgotten() {
        update(CREATE);
        assertThat(statuses.forget(UID)).isFalse();
        reachFinishedFromSyncing();
        assertThat(statuses.forget(UID)).isTrue();
        assertThat(statuses.isKnown(UID)).isFalse();
    }

    private void reachFinishedFromSyncing() {
        statuses.next(UID, NOW).orElseThrow();
        statuses.becameTerminal(UID);
        statuses.next(UID, NOW).orElseThrow();
        statuses.containersStopped(UID);
        statuses.next(UID, NOW).orElseThrow();
        statuses.resourcesReleased(UID);
    }

    @Test
    void theTornDownPodIsGivenOnlyForAWorkerTerminatingOrTerminated() {
        update(CREATE);
        assertThat(statuses.tornDownPod(UID)).isEmpty();
        statuses.next(UID, NOW).orElseThrow();
        update(KILL);
        assertThat(statuses.tornDownPod(UID)).contains(POD);
        statuses.next(UID, NOW).orElseThrow();
        statuses.containersStopped(UID);
        assertThat(statuses.tornDownPod(UID)).contains(POD);
        statuses.next(UID, NOW).orElseThrow();
        statuses.resourcesReleased(UID);
        assertThat(statuses.tornDownPod(UID)).isEmpty();
    }
}
