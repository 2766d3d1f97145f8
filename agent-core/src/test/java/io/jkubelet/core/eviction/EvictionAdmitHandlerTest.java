package io.jkubelet.core.eviction;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jkubelet.core.admission.PodAdmitResult;
import io.jkubelet.core.nodestatus.NodeConditions;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.jkubelet.core.eviction.EvictionFixtures.apiPod;
import static org.assertj.core.api.Assertions.assertThat;

/** Admission under pressure: BestEffort pods refused under memory pressure, all but critical ones under other pressure. */
class EvictionAdmitHandlerTest {
    private static final Pod BEST_EFFORT = apiPod("best-effort", "", "");
    private static final Pod BURSTABLE = apiPod("burstable", "memory=100Mi", "");
    private static final Pod CRITICAL = new PodBuilder(BEST_EFFORT).editSpec().withPriority(2_000_000_000).endSpec().build();
    private static final Pod TOLERATING = new PodBuilder(BEST_EFFORT).editSpec().addNewToleration()
            .withKey("node.kubernetes.io/memory-pressure").withOperator("Exists").withEffect("NoSchedule").endToleration()
            .endSpec().build();

    private static PodAdmitResult admit(Pod pod, String... conditions) {
        return new EvictionAdmitHandler(() -> List.of(conditions)).admit(pod);
    }

    @Test
    void withoutPressureEveryPodIsAdmitted() {
        assertThat(admit(BEST_EFFORT)).isEqualTo(PodAdmitResult.ADMIT);
    }

    @Test
    void underMemoryPressureOnlyBestEffortPodsAreRefusedUnlessTheyTolerateIt() {
        assertThat(admit(BEST_EFFORT, NodeConditions.MEMORY_PRESSURE))
                .isEqualTo(PodAdmitResult.reject("Evicted", "The node had condition: [MemoryPressure]. "));
        assertThat(admit(BURSTABLE, NodeConditions.MEMORY_PRESSURE).admit()).isTrue();
        assertThat(admit(TOLERATING, NodeConditions.MEMORY_PRESSURE).admit()).isTrue();
        assertThat(admit(CRITICAL, NodeConditions.MEMORY_PRESSURE).admit()).isTrue();
    }

    @Test
    void underAnyOtherPressureOnlyCriticalPodsAreAdmitted() {
        assertThat(admit(BURSTABLE, NodeConditions.DISK_PRESSURE))
                .isEqualTo(PodAdmitResult.reject("Evicted", "The node had condition: [DiskPressure]. "));
        assertThat(admit(TOLERATING, NodeConditions.MEMORY_PRESSURE, NodeConditions.PID_PRESSURE))
                .isEqualTo(PodAdmitResult.reject("Evicted", "The node had condition: [MemoryPressure PIDPressure]. "));
        assertThat(admit(CRITICAL, NodeConditions.DISK_PRESSURE).admit()).isTrue();
    }
}
