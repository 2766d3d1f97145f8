package io.jkubelet.core.qos;

import static io.jkubelet.core.testing.Pods.container;
import static io.jkubelet.core.testing.Pods.pod;
import static io.jkubelet.core.testing.Pods.sidecar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class OomScorePolicyTest {

    private static final long GI = 1L << 30;
    private static final long CAPACITY = 10 * GI;

    static List<Arguments> scores() {
        Container guaranteed = container("g", "cpu=1,memory=1Gi", "cpu=1,memory=1Gi");
        Container bestEffort = container("b", "", "");
        Container tenPercent = container("t", "memory=1Gi", "");
        Container cpuOnly = container("c", "cpu=100m", "");
        Container nearlyAll = container("n", "memory=9.98Gi", "");
        Container all = container("a", "memory=10Gi", "");
        Container oneByte = container("o", "memory=10737419", "");
        return List.of(
                Arguments.of("Guaranteed", pod(guaranteed), guaranteed, -997),
                Arguments.of("BestEffort", pod(bestEffort), bestEffort, 1000),
                Arguments.of("Burstable asking 10% of memory", pod(tenPercent), tenPercent, 900),
                Arguments.of("Burstable asking no memory is kept below BestEffort", pod(cpuOnly), cpuOnly, 999),
                Arguments.of("Burstable asking nearly all memory is kept above Guaranteed", pod(nearlyAll),
                        nearlyAll, 3),
                Arguments.of("Burstable asking all memory", pod(all), all, 3),
                Arguments.of("integer division truncates like Go", pod(oneByte), oneByte, 999),
                Arguments.of("node-critical static BestEffort pod", nodeCritical(pod(bestEffort), true, null),
                        bestEffort, -997),
                Arguments.of("node-critical class on an API pod without critical priority",
                        nodeCritical(pod(bestEffort), false, null), bestEffort, 1000),
                Arguments.of("node-critical class and system-critical priority",
                        nodeCritical(pod(bestEffort), false, 2_000_001_000), bestEffort, -997),
                Arguments.of("static pod of another class is not node-critical",
                        staticPod(pod(bestEffort)), bestEffort, 1000));
    }

    @ParameterizedTest(name = "{0}: {3}")
    @MethodSource("scores")
    void scoresFollowUpstreamPolicy(String name, Pod pod, Container container, int expected) {
        assertThat(OomScorePolicy.containerOomScoreAdjust(pod, container, CAPACITY)).isEqualTo(expected);
    }

    @Test
    void aSidecarIsNeverScoredAboveTheSmallestRegularContainer() {
        Container regularSmall = container("small", "memory=2Gi", "");
        Container regularLarge = container("large", "memory=5Gi", "");
        Container sidecar = sidecar("proxy", "memory=100Mi", "");
        Container plainInit = container("init", "memory=100Mi", "");
        Pod pod = pod(List.of(regularSmall, regularLarge), List.of(sidecar, plainInit));

        // 1000 - 1000*2Gi/10Gi = 800 rather than the sidecar's own 991.
        assertThat(OomScorePolicy.containerOomScoreAdjust(pod, sidecar, CAPACITY)).isEqualTo(800);
        assertThat(OomScorePolicy.containerOomScoreAdjust(pod, plainInit, CAPACITY)).isEqualTo(991);
        assertThat(OomScorePolicy.containerOomScoreAdjust(pod, regularLarge, CAPACITY)).isEqualTo(500);
    }

    @Test
    void aSidecarAskingMoreThanTheRegularContainersKeepsItsOwnScore() {
        Container regular = container("app", "memory=1Gi", "");
        Container sidecar = sidecar("proxy", "memory=3Gi", "");
        Pod pod = pod(List.of(regular), List.of(sidecar));

        assertThat(OomScorePolicy.containerOomScoreAdjust(pod, sidecar, CAPACITY)).isEqualTo(700);
    }

    @Test
    void theOrderOfScoresProtectsTheKubeletThenSandboxesThenGuaranteedPods() {
        assertThat(OomScorePolicy.KUBELET_OOM_SCORE_ADJ).isEqualTo(-999);
        assertThat(OomScorePolicy.POD_INFRA_OOM_SCORE_ADJ).isEqualTo(-998);
        assertThat(OomScorePolicy.GUARANTEED_OOM_SCORE_ADJ).isEqualTo(-997);
        assertThat(OomScorePolicy.BEST_EFFORT_OOM_SCORE_ADJ).isEqualTo(1000);
    }

    @Test
    void aNodeWithoutMemoryCapacityIsRefused() {
        Container c = container("c", "memory=1Gi", "");
        assertThatThrownBy(() -> OomScorePolicy.containerOomScoreAdjust(pod(c), c, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("memoryCapacity must be positive, got 0");
    }

    private static Pod nodeCritical(Pod pod, boolean fromFile, Integer priority) {
        pod.getSpec().setPriorityClassName(CriticalPods.SYSTEM_NODE_CRITICAL);
        pod.getSpec().setPriority(priority);
        if (fromFile) {
            staticPod(pod);
        } else {
            pod.getMetadata().setAnnotations(Map.of(io.jkubelet.core.config.ConfigAnnotations.CONFIG_SOURCE, "api"));
        }
        return pod;
    }

    private static Pod staticPod(Pod pod) {
        pod.getMetadata().setAnnotations(Map.of(io.jkubelet.core.config.ConfigAnnotations.CONFIG_SOURCE, "file"));
        return pod;
    }
}
