package io.jkubelet.core.stats;

import io.jkubelet.core.stats.summary.NodeStats;
import io.jkubelet.core.stats.summary.Summary;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** When rounds run, what a failed one leaves, and who is told. The scheduler records what it is asked to run. */
class StatsRoundsTest {
    private final List<List<Object>> scheduled = new ArrayList<>();
    private final ScheduledExecutorService scheduler = (ScheduledExecutorService) Proxy.newProxyInstance(
            getClass().getClassLoader(), new Class<?>[] {ScheduledExecutorService.class}, (p, m, args) -> {
                if (m.getName().equals("scheduleWithFixedDelay")) {
                    scheduled.add(List.of(args));
                    return null;
                }
                if (m.getName().equals("shutdownNow")) {
                    return List.of();
                }
                throw new UnsupportedOperationException(m.getName());
            });
    private final AtomicInteger rounds = new AtomicInteger();
    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
    private final Supplier<StatsSnapshot> round = () -> {
        if (failure.get() != null) {
            throw failure.get();
        }
        int n = rounds.incrementAndGet();
        return new StatsSnapshot(Instant.ofEpochSecond(n), new Summary(
                new NodeStats("node-" + n, null, null, null, null, null, null, null, null), List.of()), List.of(), null);
    };

    @Test
    void startSchedulesOneRoundAtOnceAndThenEveryPeriodOnlyOnce() {
        StatsRounds r = new StatsRounds(scheduler, Duration.ofSeconds(10), round);
        r.start();
        r.start();

        assertThat(scheduled).singleElement().satisfies(call ->
                assertThat(call.subList(1, 4)).containsExactly(0L, 10_000L, TimeUnit.MILLISECONDS));
        ((Runnable) scheduled.get(0).get(0)).run();
        assertThat(r.latest()).get().extracting(s -> s.summary().node().nodeName()).isEqualTo("node-1");
    }

    @Test
    void listenersAreToldAfterEachPeriodicRoundThatSucceededOnly() {
        StatsRounds r = new StatsRounds(scheduler, Duration.ofSeconds(10), round);
        List<String> told = new ArrayList<>();
        r.onRound(() -> told.add(r.latest().orElseThrow().summary().node().nodeName()));

        r.runRound();
        failure.set(new IllegalStateException("the runtime is gone"));
        r.runRound();
        failure.set(null);
        r.collect();

        assertThat(told).as("not after the failed round, nor after one asked for").containsExactly("node-1");
    }

    @Test
    void aFailedRoundKeepsThePreviousDataWithWhyAndTheNextGoodRoundClearsIt() {
        StatsRounds r = new StatsRounds(scheduler, Duration.ofSeconds(10), round);
        failure.set(new IllegalStateException());
        r.runRound();
        assertThat(r.latest()).as("nothing to keep before the first round").isEmpty();

        failure.set(null);
        r.runRound();
        failure.set(new IllegalStateException());
        r.runRound();
        StatsSnapshot kept = r.latest().orElseThrow();
        assertThat(kept.summary().node().nodeName()).isEqualTo("node-1");
        assertThat(kept.error()).as("a failure without a message is named by its type")
                .isEqualTo("java.lang.IllegalStateException");

        failure.set(null);
        r.runRound();
        assertThat(r.latest().orElseThrow().error()).isNull();
    }

    @Test
    void thePeriodMustBePositive() {
        assertThatThrownBy(() -> new StatsRounds(scheduler, Duration.ofSeconds(-1), round))
                .hasMessage("stats period must be positive, got PT-1S");
    }
}
