package io.jkubelet.core.eviction;

import io.jkubelet.core.stats.SystemContainers;
import io.jkubelet.core.stats.summary.ContainerStats;
import io.jkubelet.core.stats.summary.MemoryStats;
import io.jkubelet.core.stats.summary.NodeStats;
import io.jkubelet.core.stats.summary.Summary;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.jkubelet.core.eviction.EvictionFixtures.GI;
import static io.jkubelet.core.eviction.EvictionFixtures.MI;
import static io.jkubelet.core.eviction.EvictionFixtures.T0;
import static io.jkubelet.core.eviction.EvictionFixtures.apiPod;
import static io.jkubelet.core.eviction.EvictionFixtures.memoryStats;
import static io.jkubelet.core.eviction.EvictionFixtures.summary;
import static org.assertj.core.api.Assertions.assertThat;

/** The signals of a stats summary, as upstream's {@code makeSignalObservations} derives them. */
class SignalObservationsTest {

    @Test
    void eachSignalIsWhatIsAvailableOfItsCapacityWhenItWasMeasured() {
        var pod = apiPod("a", "", "");
        SignalObservations o = SignalObservations.of(summary(T0, 3 * GI, 20 * GI, 30 * GI, memoryStats(pod, T0, 10 * MI)));

        // memory.available: capacity is what is available plus the working set.
        assertThat(o.get(Signal.MEMORY_AVAILABLE)).contains(new Observation(3 * GI, 8 * GI, T0));
        assertThat(o.get(Signal.NODEFS_AVAILABLE)).contains(new Observation(20 * GI, 100 * GI, T0));
        assertThat(o.get(Signal.NODEFS_INODES_FREE)).contains(new Observation(900_000, 1_000_000, T0));
        assertThat(o.get(Signal.IMAGEFS_AVAILABLE)).contains(new Observation(30 * GI, 100 * GI, T0));
        assertThat(o.get(Signal.IMAGEFS_INODES_FREE)).contains(new Observation(900_000, 1_000_000, T0));
        // pid.available: pid_max less the processes running.
        assertThat(o.get(Signal.PID_AVAILABLE)).contains(new Observation(4_194_304 - 1000, 4_194_304, T0));
        assertThat(o.get(Signal.ALLOCATABLE_MEMORY_AVAILABLE)).as("no pods system container").isEmpty();
        assertThat(o.podStats("uid-a")).isPresent();
        assertThat(o.podStats("uid-b")).isEmpty();
    }

    @Test
    void allocatableMemoryIsThePodsCgroupsLimitLessItsWorkingSet() {
        Summary s = summary(T0, 3 * GI);
        NodeStats n = s.node();
        var pods = new ContainerStats(SystemContainers.PODS, null, null,
                new MemoryStats(T0, 600 * MI, 500 * MI, 424 * MI, null, null, null), null, null);
        Summary withPods = new Summary(new NodeStats(n.nodeName(), List.of(pods), n.startTime(), n.cpu(), n.memory(),
                n.network(), n.fs(), n.runtime(), n.rlimit()), List.of());

        assertThat(SignalObservations.of(withPods).get(Signal.ALLOCATABLE_MEMORY_AVAILABLE))
                .contains(new Observation(600 * MI, 1024 * MI, T0));
    }

    @Test
    void aSignalWithoutNumbersIsNotObserved() {
        Summary s = summary(T0, 3 * GI);
        NodeStats n = s.node();
        Summary bare = new Summary(new NodeStats(n.nodeName(), List.of(), n.startTime(), null,
                new MemoryStats(T0, null, 1L, 1L, null, null, null), null, null, null, null), List.of());

        assertThat(SignalObservations.of(bare).signals()).isEmpty();
    }
}
