package io.jkubelet.core.eviction;

import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.List;

import static io.jkubelet.core.eviction.EvictionFixtures.MI;
import static io.jkubelet.core.eviction.EvictionFixtures.T0;
import static io.jkubelet.core.eviction.EvictionFixtures.apiPod;
import static io.jkubelet.core.eviction.EvictionFixtures.container;
import static io.jkubelet.core.eviction.EvictionFixtures.diskStats;
import static io.jkubelet.core.eviction.EvictionFixtures.memoryStats;
import static io.jkubelet.core.eviction.EvictionFixtures.processStats;
import static io.jkubelet.core.eviction.EvictionFixtures.summary;
import static org.assertj.core.api.Assertions.assertThat;

/** The order pods go in under each pressure, as upstream ranks them. */
class PodRankingTest {
    private static final Pod BEST_EFFORT = apiPod("best-effort", "", "");
    private static final Pod BURSTABLE = apiPod("burstable", "memory=100Mi", "");
    private static final Pod GUARANTEED = apiPod("guaranteed", "cpu=100m,memory=200Mi", "cpu=100m,memory=200Mi");

    private static List<String> names(List<Pod> pods) {
        return pods.stream().map(p -> p.getMetadata().getName()).toList();
    }

    @Test
    void underMemoryPressurePodsOverTheirRequestsGoFirstTheLargestExcessFirst() {
        // BestEffort uses 50Mi over nothing; Burstable 150Mi, 50Mi over its request; Guaranteed 180Mi, under its request.
        var stats = SignalObservations.of(summary(T0, 0, memoryStats(GUARANTEED, T0, 180 * MI),
                memoryStats(BURSTABLE, T0, 150 * MI), memoryStats(BEST_EFFORT, T0, 60 * MI)));

        assertThat(names(PodRanking.memoryPressure(List.of(GUARANTEED, BURSTABLE, BEST_EFFORT), stats)))
                .containsExactly("best-effort", "burstable", "guaranteed");
    }

    @Test
    void aBurstablePodOverItsRequestGoesBeforeAGuaranteedOneThatUsesMore() {
        var stats = SignalObservations.of(summary(T0, 0, memoryStats(GUARANTEED, T0, 199 * MI),
                memoryStats(BURSTABLE, T0, 101 * MI)));

        assertThat(names(PodRanking.memoryPressure(List.of(GUARANTEED, BURSTABLE), stats)))
                .containsExactly("burstable", "guaranteed");
    }

    @Test
    void amongPodsOverTheirRequestsTheLowerPriorityGoesFirst() {
        Pod important = apiPod("important", 1000, container("app", "", ""));
        Pod ordinary = apiPod("ordinary", 0, container("app", "", ""));
        var stats = SignalObservations.of(summary(T0, 0, memoryStats(important, T0, 500 * MI),
                memoryStats(ordinary, T0, 10 * MI)));

        assertThat(names(PodRanking.memoryPressure(List.of(important, ordinary), stats)))
                .containsExactly("ordinary", "important");
    }

    @Test
    void aPodWithoutStatsGoesFirst() {
        var stats = SignalObservations.of(summary(T0, 0, memoryStats(BEST_EFFORT, T0, 500 * MI)));

        assertThat(names(PodRanking.memoryPressure(List.of(BEST_EFFORT, GUARANTEED), stats)))
                .containsExactly("guaranteed", "best-effort");
    }

    @Test
    void underPidPressureTheLowerPriorityThenTheMostProcessesGoFirst() {
        Pod few = apiPod("few", 0, container("app", "", ""));
        Pod many = apiPod("many", 0, container("app", "", ""));
        Pod high = apiPod("high", 10, container("app", "", ""));
        var stats = SignalObservations.of(summary(T0, 0, processStats(few, T0, 3), processStats(many, T0, 300),
                processStats(high, T0, 3000)));

        assertThat(names(PodRanking.pidPressure(List.of(high, few, many), stats))).containsExactly("many", "few", "high");
    }

    @Test
    void underDiskPressureWhatCountsDependsOnWhetherTheImagesHaveAFileSystemOfTheirOwn() {
        Pod writer = apiPod("writer", "", "");
        Pod logger = apiPod("logger", "", "");
        var stats = SignalObservations.of(summary(T0, 0, diskStats(writer, T0, 900 * MI, 1 * MI),
                diskStats(logger, T0, 1 * MI, 300 * MI)));

        // Separate image file system: the node's counts logs (and local volumes), the image one writable layers.
        var separate = PodRanking.forSignals(true);
        assertThat(names(separate.get(Signal.NODEFS_AVAILABLE).rank(List.of(writer, logger), stats)))
                .containsExactly("logger", "writer");
        assertThat(names(separate.get(Signal.IMAGEFS_AVAILABLE).rank(List.of(logger, writer), stats)))
                .containsExactly("writer", "logger");
        // One file system: everything counts.
        var shared = PodRanking.forSignals(false);
        assertThat(names(shared.get(Signal.NODEFS_AVAILABLE).rank(List.of(logger, writer), stats)))
                .containsExactly("writer", "logger");
        assertThat(PodRanking.diskUsage(writer, stats, EnumSet.allOf(PodRanking.FsStatsType.class), true)).isEqualTo(11);
    }

    @Test
    void underDiskPressureAPodWithinItsEphemeralStorageRequestGoesAfterOnesBeyondTheirs() {
        Pod requested = apiPod("requested", 0, container("app", "ephemeral-storage=1Gi", ""));
        Pod unrequested = apiPod("unrequested", 0, container("app", "", ""));
        var stats = SignalObservations.of(summary(T0, 0, diskStats(requested, T0, 900 * MI, 0),
                diskStats(unrequested, T0, 10 * MI, 0)));

        assertThat(names(PodRanking.forSignals(false).get(Signal.IMAGEFS_AVAILABLE).rank(List.of(requested, unrequested),
                stats))).containsExactly("unrequested", "requested");
    }
}
