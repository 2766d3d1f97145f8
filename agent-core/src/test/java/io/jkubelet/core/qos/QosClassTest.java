package io.jkubelet.core.qos;

import static io.jkubelet.core.testing.Pods.container;
import static io.jkubelet.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class QosClassTest {

    static List<Arguments> pods() {
        return List.of(
                Arguments.of("no resources", pod(container("a", "", "")), QosClass.BEST_EFFORT),
                Arguments.of("only non-compute resources",
                        pod(container("a", "ephemeral-storage=1Gi", "ephemeral-storage=2Gi")), QosClass.BEST_EFFORT),
                Arguments.of("zero requests count as none", pod(container("a", "cpu=0,memory=0", "")),
                        QosClass.BEST_EFFORT),
                Arguments.of("requests equal limits",
                        pod(container("a", "cpu=100m,memory=64Mi", "cpu=100m,memory=64Mi")), QosClass.GUARANTEED),
                Arguments.of("equal in different units",
                        pod(container("a", "cpu=1,memory=1Gi", "cpu=1000m,memory=1073741824")), QosClass.GUARANTEED),
                Arguments.of("every container guaranteed", pod(
                        container("a", "cpu=1,memory=1Gi", "cpu=1,memory=1Gi"),
                        container("b", "cpu=2,memory=2Gi", "cpu=2,memory=2Gi")), QosClass.GUARANTEED),
                Arguments.of("limits without requests (not defaulted by an apiserver)",
                        pod(container("a", "", "cpu=1,memory=1Gi")), QosClass.BURSTABLE),
                Arguments.of("request below limit",
                        pod(container("a", "cpu=100m,memory=64Mi", "cpu=200m,memory=64Mi")), QosClass.BURSTABLE),
                Arguments.of("only a memory limit", pod(container("a", "memory=64Mi", "memory=64Mi")),
                        QosClass.BURSTABLE),
                Arguments.of("only a cpu request", pod(container("a", "cpu=100m", "")), QosClass.BURSTABLE),
                Arguments.of("one guaranteed, one best-effort container", pod(
                        container("a", "cpu=1,memory=1Gi", "cpu=1,memory=1Gi"),
                        container("b", "", "")), QosClass.BURSTABLE),
                Arguments.of("sums are compared across containers (v1.30 rule)", pod(
                        container("a", "cpu=1,memory=1Gi", "cpu=2,memory=1Gi"),
                        container("b", "cpu=2,memory=1Gi", "cpu=1,memory=1Gi")), QosClass.GUARANTEED),
                Arguments.of("init containers count", pod(
                        List.of(container("a", "cpu=1,memory=1Gi", "cpu=1,memory=1Gi")),
                        List.of(container("init", "cpu=100m", ""))), QosClass.BURSTABLE),
                Arguments.of("a best-effort pod with a guaranteed-looking init container", pod(
                        List.of(container("a", "", "")),
                        List.of(container("init", "cpu=1,memory=1Gi", "cpu=1,memory=1Gi"))), QosClass.BURSTABLE));
    }

    @ParameterizedTest(name = "{0}: {2}")
    @MethodSource("pods")
    void computesTheClassAsUpstream(String name, Pod pod, QosClass expected) {
        assertThat(QosClass.of(pod)).isEqualTo(expected);
        assertThat(QosClass.compute(pod)).isEqualTo(expected);
    }

    @Test
    void aRecordedClassWinsOverTheSpec() {
        Pod pod = pod(container("a", "", ""));
        pod.setStatus(new PodStatusBuilder().withQosClass("Guaranteed").build());

        assertThat(QosClass.of(pod)).isEqualTo(QosClass.GUARANTEED);
        assertThat(QosClass.compute(pod)).isEqualTo(QosClass.BEST_EFFORT);
    }

    @Test
    void apiValuesRoundTrip() {
        for (QosClass qos : QosClass.values()) {
            assertThat(QosClass.fromValue(qos.value())).isSameAs(qos);
        }
        assertThat(QosClass.BEST_EFFORT.value()).isEqualTo("BestEffort");
    }
}
