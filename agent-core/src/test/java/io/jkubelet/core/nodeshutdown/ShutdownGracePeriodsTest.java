package io.jkubelet.core.nodeshutdown;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jkubelet.core.apis.config.KubeletConfigFile;
import io.jkubelet.core.apis.config.ShutdownGracePeriodByPodPriority;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How shutdownGracePeriod and shutdownGracePeriodCriticalPods, or shutdownGracePeriodByPodPriority, split the node's
 * shutdown among its pods.
 */
class ShutdownGracePeriodsTest {

    static Pod pod(String name, Integer priority) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").withUid(name).endMetadata()
                .withNewSpec().withPriority(priority).endSpec().build();
    }

    private static List<String> names(PodShutdownGroup g) {
        return g.pods().stream().map(p -> p.getMetadata().getName()).toList();
    }

    @Test
    void shutdownGracePeriodAndCriticalPodsSplitIntoRegularAndCriticalRanges() {
        List<ShutdownGracePeriod> periods = ShutdownGracePeriods.of(Duration.ofSeconds(30), Duration.ofSeconds(10), null, true);
        assertThat(periods).containsExactly(new ShutdownGracePeriod(0, 20), new ShutdownGracePeriod(2_000_000_000, 10));
        assertThat(ShutdownGracePeriods.periodRequested(periods)).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void noGracePeriodMeansNoRangesAndAnImmediateShutdown() {
        assertThat(ShutdownGracePeriods.of(Duration.ZERO, Duration.ZERO, List.of(), true)).isEmpty();
    }

    @Test
    void byPodPriorityIsSortedLowestFirstAndSumsToTheRequestedPeriod(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("kubelet.yaml"), """
                apiVersion: kubelet.config.k8s.io/v1beta1
                kind: KubeletConfiguration
                shutdownGracePeriodByPodPriority:
                - {priority: 100000, shutdownGracePeriodSeconds: 20}
                - {priority: 0, shutdownGracePeriodSeconds: 60}
                - {priority: 10000, shutdownGracePeriodSeconds: 10}
                """);
        List<ShutdownGracePeriodByPodPriority> byPriority = KubeletConfigFile.load(file).shutdownGracePeriodByPodPriority();
        List<ShutdownGracePeriod> periods = ShutdownGracePeriods.of(Duration.ZERO, Duration.ZERO, byPriority, true);
        assertThat(periods).extracting(ShutdownGracePeriod::priority).containsExactly(0, 10000, 100000);
        assertThat(ShutdownGracePeriods.periodRequested(periods)).isEqualTo(Duration.ofSeconds(90));
        // Without the GracefulNodeShutdownBasedOnPodPriority gate only shutdownGracePeriod counts (none here).
        assertThat(ShutdownGracePeriods.of(Duration.ZERO, Duration.ZERO, byPriority, false)).isEmpty();
    }

    @Test
    void podsGoToTheHighestRangeAtOrBelowTheirPriority() {
        List<ShutdownGracePeriod> periods = List.of(new ShutdownGracePeriod(1, 10), new ShutdownGracePeriod(2, 20),
                new ShutdownGracePeriod(5, 30));
        List<PodShutdownGroup> groups = ShutdownGracePeriods.groupByPriority(periods, List.of(
                pod("none", null), pod("zero", 0), pod("one", 1), pod("two", 2), pod("three", 3), pod("five", 5),
                pod("huge", 1_000_000)));
        assertThat(groups).hasSize(3);
        // Below the lowest range: the lowest; a boundary: that range; between two: the lower; above all: the highest.
        assertThat(names(groups.get(0))).containsExactly("none", "zero", "one");
        assertThat(names(groups.get(1))).containsExactly("two", "three");
        assertThat(names(groups.get(2))).containsExactly("five", "huge");
        assertThat(groups.get(2).period().shutdownGracePeriodSeconds()).isEqualTo(30);
    }
}
