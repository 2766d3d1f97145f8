package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.cluster.ClusterSide;
import io.jkubelet.core.config.ConfigAnnotations;
import io.jkubelet.core.config.PodOperation;
import io.jkubelet.core.config.PodUpdate;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.eviction.EvictionConfig;
import io.jkubelet.core.eviction.ThresholdParser;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The eviction manager in the assembled core, on the fake runtime: the node's real memory is always below the hard
 * threshold this node gets (1Ei), so it is under memory pressure from its first stats round.
 */
class KubeletEvictionTest {
    @TempDir Path root;
    private final FakeClock clock = new FakeClock();
    private FakeRuntime runtime;
    private LoggingEventRecorder events;
    private Kubelet kubelet;

    @BeforeEach
    void setUp() {
        runtime = new FakeRuntime(clock);
        runtime.addImage("busybox:1.36");
        runtime.addImage("jkubelet/pause:3.9");
        events = new LoggingEventRecorder(clock);
        EvictionConfig underPressure = new EvictionConfig(ThresholdParser.parseThresholdConfig(List.of(),
                Map.of("memory.available", "1Ei"), Map.of(), Map.of(), Map.of()), Duration.ofMinutes(5), 0);
        kubelet = new Kubelet(TestSettings.under(root, underPressure),
                new KubeletDeps(runtime, runtime, events, clock, ClusterSide.standalone()));
        kubelet.start();
    }

    @AfterEach
    void stop() {
        kubelet.close();
    }

    /** A pod as the apiserver source gives it (not static, so it can be evicted), with one sleeping container. */
    private static Pod apiPod(String name, String memoryRequest) {
        Container c = new ContainerBuilder().withName("app").withImage("busybox:1.36").withImagePullPolicy("IfNotPresent")
                .withCommand("sleep", "3600").build();
        if (memoryRequest != null) {
            c = new ContainerBuilder(c).withNewResources()
                    .addToRequests("memory", new io.fabric8.kubernetes.api.model.Quantity(memoryRequest)).endResources()
                    .build();
        }
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").withUid("uid-" + name)
                .addToAnnotations(ConfigAnnotations.CONFIG_SOURCE, "api").endMetadata()
                .withNewSpec().withContainers(c).withTerminationGracePeriodSeconds(30L).endSpec().build();
    }

    private Optional<PodStatus> status(String name) {
        return kubelet.pods().stream().filter(p -> p.getMetadata().getName().equals(name)).findFirst()
                .map(Pod::getStatus);
    }

    private long running() {
        return runtime.listContainers(new ContainerFilter(null, ContainerState.CONTAINER_RUNNING, null, null)).size();
    }

    @Test
    void underMemoryPressureABestEffortPodIsRefusedAndARunningPodIsEvicted() {
        await().atMost(Duration.ofSeconds(10)).until(() -> kubelet.nodePressure().memoryPressure());

        kubelet.deliver(new PodUpdate(List.of(apiPod("best-effort", null)), PodOperation.ADD, "test"));
        await().atMost(Duration.ofSeconds(10)).until(() -> status("best-effort").map(s -> "Failed".equals(s.getPhase()))
                .orElse(false));
        assertThat(status("best-effort").orElseThrow().getReason()).isEqualTo("Evicted");
        assertThat(status("best-effort").orElseThrow().getMessage())
                .isEqualTo("Pod was rejected: The node had condition: [MemoryPressure]. ");

        // A Burstable pod is admitted under memory pressure, then evicted on the next round's fresh stats.
        kubelet.deliver(new PodUpdate(List.of(apiPod("burstable", "10Mi")), PodOperation.ADD, "test"));
        await().atMost(Duration.ofSeconds(10)).until(() -> running() == 1);
        clock.advance(Duration.ofSeconds(10));
        await().atMost(Duration.ofSeconds(30)).until(() -> status("burstable").map(s -> "Failed".equals(s.getPhase()))
                .orElse(false) && running() == 0);
        PodStatus evicted = status("burstable").orElseThrow();
        assertThat(evicted.getReason()).isEqualTo("Evicted");
        assertThat(evicted.getMessage()).startsWith("The node was low on resource: memory. Threshold quantity: 1Ei, available: ");
        assertThat(evicted.getConditions()).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("DisruptionTarget");
            assertThat(c.getReason()).isEqualTo("TerminationByKubelet");
        });
        assertThat(events.events()).anyMatch(e -> e.reason().equals("EvictionThresholdMet")
                && e.message().equals("Attempting to reclaim memory"));
        assertThat(events.events()).anyMatch(e -> e.reason().equals("Evicted") && e.message().equals(evicted.getMessage()));
    }
}
