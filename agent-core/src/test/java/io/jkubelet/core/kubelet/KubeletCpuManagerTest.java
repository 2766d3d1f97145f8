package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.apis.config.CpuSet;
import io.jkubelet.core.cm.cpumanager.CpuManager;
import io.jkubelet.core.cm.cpumanager.CpuTopology;
import io.jkubelet.core.config.PodOperation;
import io.jkubelet.core.config.PodSources;
import io.jkubelet.core.config.PodUpdate;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The CPU manager's static policy through the whole kubelet on a described 2-CPU machine with CPU 0 reserved: a
 * Guaranteed container is created on CPU 1, a BestEffort one on CPU 0 (and the pod-resources API tells CPU 1 as the
 * Guaranteed one's), and once the Guaranteed pod is gone the
 * reconcile loop moves the BestEffort container to 0-1 through the runtime's UpdateContainerResources.
 */
class KubeletCpuManagerTest {
    @TempDir Path root;
    private final FakeClock clock = new FakeClock();
    private final FakeRuntime runtime = new FakeRuntime(clock);
    private final List<Pod> sourcePods = new ArrayList<>();
    private Kubelet kubelet;

    @AfterEach
    void stop() {
        if (kubelet != null) {
            kubelet.close();
        }
    }

    private static Pod pod(String name, Map<String, Quantity> limits) {
        Container c = new ContainerBuilder().withName("app").withImage("busybox:1.36").withImagePullPolicy("IfNotPresent")
                .withCommand("sleep", "3600").withNewResources().withRequests(limits).withLimits(limits).endResources().build();
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").withUid("uid-" + name)
                .endMetadata().withNewSpec().withContainers(c).endSpec().build();
    }

    private void send(List<Pod> pods) {
        kubelet.sourceChannel(PodSources.FILE).send(new PodUpdate(List.copyOf(pods), PodOperation.SET, PodSources.FILE));
    }

    private Optional<io.jkubelet.core.runtime.Container> running(String podUid) {
        return runtime.listContainers(new ContainerFilter(null, ContainerState.CONTAINER_RUNNING, null, null)).stream()
                .filter(c -> podUid.equals(c.labels().get(Labels.POD_UID))).findFirst();
    }

    @Test
    void aGuaranteedContainerRunsOnItsOwnCpuAndTheSharedPoolGrowsBackWhenItGoes() {
        runtime.addImage("busybox:1.36");
        runtime.addImage("jkubelet/pause:3.9");
        CpuTopology twoCpus = CpuTopology.of(Map.of(0, new CpuTopology.CpuInfo(0, 0, 0), 1, new CpuTopology.CpuInfo(0, 0, 1)));
        CpuManager cpus = CpuManager.newStatic(twoCpus, BigDecimal.ONE, CpuSet.parse("0"), Map.of(), root,
                Duration.ofMillis(50), io.jkubelet.core.cm.topologymanager.TopologyAffinityStore.NONE);
        kubelet = new Kubelet(TestSettings.under(root), KubeletDeps.builder(runtime, runtime,
                new LoggingEventRecorder(clock), clock).cpuManager(cpus).build());
        kubelet.start();

        Pod guaranteed = pod("guaranteed", Map.of("cpu", new Quantity("1"), "memory", new Quantity("64Mi")));
        Pod bestEffort = pod("besteffort", Map.of());
        sourcePods.add(guaranteed);
        send(sourcePods);
        await().atMost(Duration.ofSeconds(10)).until(() -> running("uid-guaranteed").isPresent());
        sourcePods.add(bestEffort);
        send(sourcePods);
        await().atMost(Duration.ofSeconds(10)).until(() -> running("uid-besteffort").isPresent());

        String g = running("uid-guaranteed").orElseThrow().id();
        String b = running("uid-besteffort").orElseThrow().id();
        assertThat(runtime.containerConfig(g).resources().cpusetCpus()).isEqualTo("1");
        assertThat(runtime.containerConfig(b).resources().cpusetCpus()).isEqualTo("0");
        // The pod-resources API tells the exclusive CPU only, and CPU 1 as the one that may be exclusive.
        assertThat(kubelet.views().podResources().list()).extracting(p -> p.name() + " " + p.containers().get(0).cpuIds())
                .containsExactlyInAnyOrder("guaranteed [1]", "besteffort []");
        assertThat(kubelet.views().podResources().allocatable().cpuIds()).containsExactly(1L);

        sourcePods.remove(guaranteed);
        send(sourcePods);
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            var update = runtime.updatedResources().get(b);
            return update != null && update.cpusetCpus().equals("0-1");
        });
        assertThat(cpus.exclusiveCpus("uid-guaranteed", "app").isEmpty()).isTrue();
    }
}
