package io.jkubelet.core.apis.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Upstream's SetFromMap rules over the gates a v1.30 kubelet knows, and jkubelet's rule for what it does not do. */
class FeatureGatesTest {

    @Test
    void anUnknownGateIsRefusedInUpstreamsWords() {
        assertThatThrownBy(() -> FeatureGates.check(Map.of("NoSuchGate", true)))
                .hasMessage("unrecognized feature gate: NoSuchGate");
        assertThatThrownBy(() -> FeatureGates.check(Map.of("KubeletCrashLoopBackOffMax", true)))
                .as("a gate of a later release").hasMessage("unrecognized feature gate: KubeletCrashLoopBackOffMax");
    }

    @Test
    void aLockedGateTakesOnlyItsDefaultAndWarnsAsAGaGate() {
        assertThatThrownBy(() -> FeatureGates.check(Map.of("CPUManager", false)))
                .hasMessage("cannot set feature gate CPUManager to false, feature is locked to true");
        assertThatThrownBy(() -> FeatureGates.check(Map.of("PodHostIPs", false)))
                .hasMessage("cannot set feature gate PodHostIPs to false, feature is locked to true");
        assertThat(FeatureGates.check(Map.of("CPUManager", true)))
                .containsExactly("Setting GA feature gate CPUManager=true. It will be removed in a future release.");
    }

    @Test
    void aGateJkubeletDoesNotImplementTakesOnlyItsDefault() {
        assertThatThrownBy(() -> FeatureGates.check(Map.of("MemoryQoS", true)))
                .hasMessage("cannot set feature gate MemoryQoS to true: jkubelet does not implement it "
                        + "(memory.min/memory.high on cgroup v2); only its default, false, is accepted");
        assertThatThrownBy(() -> FeatureGates.check(Map.of("PodReadyToStartContainersCondition", false)))
                .hasMessageStartingWith("cannot set feature gate PodReadyToStartContainersCondition to false: "
                        + "jkubelet does not implement it");
        assertThatThrownBy(() -> FeatureGates.check(Map.of("AllAlpha", true)))
                .hasMessageStartingWith("cannot set feature gate AllAlpha to true: jkubelet does not implement it");
        assertThat(FeatureGates.check(Map.of("MemoryQoS", false, "PodReadyToStartContainersCondition", true))).isEmpty();
    }

    @Test
    void animplementedGateTakesEitherValue() {
        for (Map.Entry<String, FeatureGateSpec> gate : FeatureGates.known().entrySet()) {
            if (gate.getValue().support() == FeatureGateSpec.Support.IMPLEMENTED) {
                assertThat(FeatureGates.check(Map.of(gate.getKey(), true))).as(gate.getKey()).isEmpty();
                assertThat(FeatureGates.check(Map.of(gate.getKey(), false))).as(gate.getKey()).isEmpty();
                assertThat(FeatureGates.of(Map.of(gate.getKey(), !gate.getValue().defaultValue())).enabled(gate.getKey()))
                        .isEqualTo(!gate.getValue().defaultValue());
            }
        }
    }

    @Test
    void aControlPlaneGateIsAcceptedAsUpstreamsKubeletAcceptsItWithItsWarnings() {
        assertThat(FeatureGates.check(Map.of("JobManagedBy", true, "JobPodFailurePolicy", false))).isEmpty();
        assertThat(FeatureGates.check(Map.of("KMSv1", true)))
                .containsExactly("Setting deprecated feature gate KMSv1=true. It will be removed in a future release.");
    }

    @Test
    void theFirstBadGateInNameOrderIsReported() {
        assertThatThrownBy(() -> FeatureGates.check(Map.of("Zzz", true, "Aaa", true, "SidecarContainers", false)))
                .hasMessage("unrecognized feature gate: Aaa");
    }

    @Test
    void unsetGatesHaveTheirV130Defaults() {
        FeatureGates gates = FeatureGates.of(Map.of(FeatureGates.SIDECAR_CONTAINERS, false));
        assertThat(gates.enabled(FeatureGates.SIDECAR_CONTAINERS)).isFalse();
        assertThat(gates.enabled(FeatureGates.IMAGE_MAXIMUM_GC_AGE)).isTrue();
        assertThat(gates.enabled(FeatureGates.NODE_SWAP)).isTrue();
        assertThat(gates.enabled(FeatureGates.CUSTOM_CPU_CFS_QUOTA_PERIOD)).isFalse();
        assertThat(gates.enabled("NoSuchGate")).isFalse();
    }
}
