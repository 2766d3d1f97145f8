package io.jkubelet.core.eviction;

import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.jkubelet.core.eviction.EvictionFixtures.GI;
import static io.jkubelet.core.eviction.EvictionFixtures.MI;
import static io.jkubelet.core.eviction.EvictionFixtures.T0;
import static io.jkubelet.core.eviction.EvictionFixtures.apiPod;
import static io.jkubelet.core.eviction.EvictionFixtures.container;
import static io.jkubelet.core.eviction.EvictionFixtures.diskStats;
import static io.jkubelet.core.eviction.EvictionFixtures.memoryStats;
import static io.jkubelet.core.eviction.EvictionFixtures.summary;
import static io.jkubelet.core.eviction.EvictionFixtures.thresholds;
import static org.assertj.core.api.Assertions.assertThat;

/** The evicted pod's message names the resource, the threshold, what was available and who used more than asked. */
class EvictionMessageTest {

    @Test
    void memoryPressureNamesTheThresholdAndEachContainerOverItsRequest() {
        Pod pod = apiPod("web", 0, container("app", "", ""), container("sidecar", "memory=64Mi", ""),
                container("quiet", "memory=64Mi", ""));
        var observations = SignalObservations.of(summary(T0, 50 * MI,
                memoryStats(pod, T0, 200 * MI, 100 * MI, 10 * MI)));

        String message = EvictionMessage.of(Signal.Resource.MEMORY, pod, observations,
                thresholds(Map.of("memory.available", "100Mi")));

        assertThat(message).isEqualTo("The node was low on resource: memory. Threshold quantity: 100Mi, available: 50Mi. "
                + "Container app was using 200Mi, request is 0, has larger consumption of memory. "
                + "Container sidecar was using 100Mi, request is 64Mi, has larger consumption of memory. ");
    }

    @Test
    void aPercentageThresholdPrintsWhatItIsOfCapacityAndDiskUsageIsLayerAndLogs() {
        Pod pod = apiPod("writer", "", "");
        var observations = SignalObservations.of(summary(T0, 4 * GI, 50 * GI, 5 * GI,
                diskStats(pod, T0, 300 * MI, 12 * MI)));

        String message = EvictionMessage.of(Signal.Resource.EPHEMERAL_STORAGE, pod, observations,
                thresholds(Map.of("imagefs.available", "15%")));

        assertThat(message).isEqualTo("The node was low on resource: ephemeral-storage. Threshold quantity: "
                + Quantities.binary((long) (100 * GI * (double) 0.15f)) + ", available: 5Gi. "
                + "Container app was using 312Mi, request is 0, has larger consumption of ephemeral-storage. ");
    }

    @Test
    void withoutStatsOfThePodOnlyTheNodeIsNamed() {
        String message = EvictionMessage.of(Signal.Resource.PIDS, apiPod("a", "", ""),
                SignalObservations.of(summary(T0, GI)), thresholds(Map.of("pid.available", "4194000")));

        assertThat(message).isEqualTo("The node was low on resource: pids. Threshold quantity: 4194k, available: 4193304. ");
        assertThat(EvictionMessage.of(Signal.Resource.MEMORY, apiPod("a", "", ""), SignalObservations.of(summary(T0, GI)),
                List.of())).isEqualTo("The node was low on resource: memory. ");
    }
}
