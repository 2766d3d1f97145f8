package io.jkubelet.core.kuberuntime;

import io.jkubelet.core.container.GCPolicy;
import io.jkubelet.core.kuberuntime.Evictables.GcContainer;
import io.jkubelet.core.kuberuntime.Evictables.GcSandbox;
import io.jkubelet.core.runtime.ContainerState;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Container GC's decisions under each policy, on lists as the runtime gives them: no runtime, no clock. */
class EvictablesTest {
    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    private static final Predicate<String> NO_POD_GOES = uid -> false;

    /** A container of pod {@code uid} created {@code minutesAgo} before now. */
    private static GcContainer dead(String id, String uid, String name, int minutesAgo) {
        return new GcContainer(id, uid, name, NOW.minus(Duration.ofMinutes(minutesAgo)), 0, ContainerState.CONTAINER_EXITED);
    }

    private static GcContainer running(String id, String uid, String name, int minutesAgo) {
        return new GcContainer(id, uid, name, NOW.minus(Duration.ofMinutes(minutesAgo)), 0, ContainerState.CONTAINER_RUNNING);
    }

    private static List<String> remove(List<GcContainer> all, GCPolicy policy, boolean sourcesReady, Predicate<String> podGoes) {
        return Evictables.containers(all, policy, NOW, sourcesReady, podGoes).stream().map(GcContainer::id).toList();
    }

    @Test
    void theDefaultPolicyKeepsTheNewestDeadInstanceOfEachContainerBesideTheRunningOne() {
        List<GcContainer> all = List.of(running("a4", "p", "a", 1), dead("a3", "p", "a", 2), dead("a2", "p", "a", 3),
                dead("a1", "p", "a", 4), dead("b2", "p", "b", 5), dead("b1", "p", "b", 6), running("c1", "q", "c", 7));

        assertThat(remove(all, GCPolicy.DEFAULT, true, NO_POD_GOES)).as("oldest first").containsExactly("a1", "a2", "b1");
    }

    @Test
    void deadContainersYoungerThanTheMinimumAgeStay() {
        List<GcContainer> all = List.of(dead("a3", "p", "a", 1), dead("a2", "p", "a", 5), dead("a1", "p", "a", 9));
        GCPolicy policy = new GCPolicy(Duration.ofMinutes(5), 0, -1);

        // a3 is too young to be evictable, so a2 is the unit's newest evictable one; zero per container lets it go,
        // but a3 is the newest instance: the container's last state.
        assertThat(remove(all, policy, true, NO_POD_GOES)).containsExactly("a1", "a2");
        assertThat(remove(all, new GCPolicy(Duration.ofMinutes(10), 0, -1), true, NO_POD_GOES)).isEmpty();
    }

    @Test
    void noLimitPerContainerKeepsEverythingOfPodsThatStay() {
        List<GcContainer> all = List.of(dead("a3", "p", "a", 1), dead("a2", "p", "a", 2), dead("a1", "p", "a", 3));

        assertThat(remove(all, new GCPolicy(Duration.ZERO, -1, -1), true, NO_POD_GOES)).isEmpty();
    }

    @Test
    void theNewestInstanceOfAContainerIsNeverRemovedWhileItsPodStays() {
        // restartPolicy: Never: the container's only instance is dead, and it is what the pod's status shows.
        List<GcContainer> all = List.of(dead("a1", "p", "a", 3), running("b1", "p", "b", 3));

        assertThat(remove(all, new GCPolicy(Duration.ZERO, 0, 0), true, NO_POD_GOES)).isEmpty();
    }

    @Test
    void theNodeLimitFirstLeavesAnEqualShareToEachContainerThenTheNewestAcrossTheNode() {
        List<GcContainer> all = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            all.add(dead("a" + i, "p", "a", 10 + i));  // a0 newest
            all.add(dead("b" + i, "q", "b", 20 + i));  // b0 newest
            all.add(dead("c" + i, "r", "c", 30 + i));  // c0 newest
        }
        GCPolicy policy = new GCPolicy(Duration.ZERO, -1, 7);

        // 12 dead, 7 allowed: 7 / 3 units = 2 each, which leaves 6: nothing more goes.
        assertThat(remove(all, policy, true, NO_POD_GOES))
                .containsExactly("a3", "a2", "b3", "b2", "c3", "c2");

        // 4 allowed: 1 each (4 / 3), then nothing more: 3 <= 4.
        assertThat(remove(all, new GCPolicy(Duration.ZERO, -1, 4), true, NO_POD_GOES)).hasSize(9)
                .doesNotContain("a0", "b0", "c0");
    }

    @Test
    void theNodeLimitBelowOnePerContainerRemovesOldestAcrossTheNodeButNotTheLatestInstances() {
        List<GcContainer> all = List.of(dead("a1", "p", "a", 1), dead("a0", "p", "a", 2),
                running("b2", "q", "b", 1), dead("b1", "q", "b", 3), dead("c1", "r", "c", 5));
        GCPolicy policy = new GCPolicy(Duration.ZERO, -1, 1);

        // One per unit (a1, b1, c1) leaves 3 > 1: the oldest go, except a1 and c1, their containers' last state.
        assertThat(remove(all, policy, true, NO_POD_GOES)).containsExactly("a0", "b1");
    }

    @Test
    void everythingOfAPodThatMayGoGoesOnceEverySourceHasReported() {
        List<GcContainer> all = List.of(dead("a2", "gone", "a", 1), dead("a1", "gone", "a", 2), dead("k1", "stays", "k", 2));
        Predicate<String> gone = "gone"::equals;

        assertThat(remove(all, GCPolicy.DEFAULT, true, gone)).containsExactly("a1", "a2");
        // Before that, a pod of a late source would look gone: only the policy applies.
        assertThat(remove(all, GCPolicy.DEFAULT, false, gone)).containsExactly("a1");
    }

    @Test
    void aPodsDeadSandboxesGoButTheNewestAndThoseWithContainers() {
        List<GcSandbox> sandboxes = List.of(
                new GcSandbox("s4", "p", NOW.minusSeconds(10), 0, false),
                new GcSandbox("s3", "p", NOW.minusSeconds(20), 0, false),
                new GcSandbox("s2", "p", NOW.minusSeconds(30), 0, false),
                new GcSandbox("s1", "p", NOW.minusSeconds(40), 0, false),
                new GcSandbox("r2", "q", NOW.minusSeconds(10), 0, true),
                new GcSandbox("r1", "q", NOW.minusSeconds(20), 0, false));

        assertThat(Evictables.sandboxes(sandboxes, Set.of("s2"), NO_POD_GOES)).containsExactly("s1", "s3", "r1");
    }

    @Test
    void allInactiveSandboxesOfAPodThatMayGoGoButAReadyOneStays() {
        List<GcSandbox> sandboxes = List.of(new GcSandbox("s2", "p", NOW.minusSeconds(10), 0, false),
                new GcSandbox("s1", "p", NOW.minusSeconds(20), 0, false),
                new GcSandbox("t2", "gone", NOW.minusSeconds(10), 0, true),
                new GcSandbox("t1", "gone", NOW.minusSeconds(20), 0, false));

        assertThat(Evictables.sandboxes(sandboxes, Set.of(), uid -> true)).containsExactly("s1", "s2", "t1");
    }

    @Test
    void instancesListedAsCreatedInTheSameSecondAreOrderedByAttempt() {
        // Docker lists creation times in whole seconds: a sandbox retried at once, or a container that died at once.
        Instant second = NOW.minusSeconds(5);
        List<GcContainer> all = List.of(new GcContainer("z", "p", "a", second, 0, ContainerState.CONTAINER_EXITED),
                new GcContainer("y", "p", "a", second, 2, ContainerState.CONTAINER_EXITED),
                new GcContainer("x", "p", "a", second, 1, ContainerState.CONTAINER_EXITED));
        List<GcSandbox> sandboxes = List.of(new GcSandbox("s2", "p", second, 2, true),
                new GcSandbox("s0", "p", second, 0, false), new GcSandbox("s1", "p", second, 1, false));

        assertThat(remove(all, GCPolicy.DEFAULT, true, NO_POD_GOES)).containsExactly("z", "x");
        assertThat(Evictables.sandboxes(sandboxes, Set.of(), NO_POD_GOES)).containsExactly("s0", "s1");
    }

    @Test
    void aNegativeMinimumAgeIsRefusedAsUpstreamDoes() {
        assertThatThrownBy(() -> new GCPolicy(Duration.ofSeconds(-1), 1, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid minimum garbage collection age: -1s");
    }
}
