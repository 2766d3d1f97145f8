package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.cm.CgroupDriver;
import io.jkubelet.core.cm.FakeCgroupfs;
import io.jkubelet.core.cm.LinuxContainerManager;
import io.jkubelet.core.cm.NodeAllocatable;
import io.jkubelet.core.cm.NodeConfig;
import io.jkubelet.core.config.PodOperation;
import io.jkubelet.core.config.PodUpdate;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.PodSandbox;
import io.jkubelet.core.runtime.PodSandboxFilter;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.time.Duration;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

import static io.jkubelet.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The kubelet with a container manager on a stand-in cgroup v1 file system and the fake runtime: a pod's cgroup is
 * made before its sandbox, which the runtime is told to put inside it; the QoS shares follow the pods; a removed
 * pod's cgroup goes, and so does one that no pod owns.
 */
class KubeletCgroupsTest {
    @TempDir
    Path root;
    private final FakeClock clock = new FakeClock();
    private FakeRuntime runtime;
    private FakeCgroupfs cgroupfs;
    private Kubelet kubelet;

    @BeforeEach
    void setUp() throws Exception {
        runtime = new FakeRuntime(clock);
        runtime.addImage("busybox:1.36");
        runtime.addImage("jkubelet/pause:3.9");
        cgroupfs = new FakeCgroupfs(root.resolve("cgroup"));
        cgroupfs.mkdir("/jk");
        NodeConfig config = new NodeConfig(true, "/jk", CgroupDriver.CGROUPFS, true, Duration.ofMillis(100), 64,
                NodeAllocatable.NONE, Set.of("pods"), "", "");
        var cm = LinuxContainerManager.create(config, cgroupfs.manager(CgroupDriver.CGROUPFS),
                Map.of("cpu", new Quantity("2"), "memory", new Quantity("4Gi")), OptionalLong.of(32768));
        kubelet = new Kubelet(TestSettings.under(root),
                KubeletDeps.builder(runtime, runtime, new LoggingEventRecorder(clock), clock).containerManager(cm).build());
        kubelet.start();
    }

    @AfterEach
    void stop() {
        kubelet.close();
    }

    private static Container burstable(String name) {
        return new ContainerBuilder().withName(name).withImage("busybox:1.36").withImagePullPolicy("IfNotPresent")
                .withCommand("sleep", "3600").withNewResources().addToRequests("cpu", new Quantity("300m"))
                .addToLimits("memory", new Quantity("100Mi")).endResources().build();
    }

    private List<io.jkubelet.core.runtime.Container> running() {
        return runtime.listContainers(new ContainerFilter(null, ContainerState.CONTAINER_RUNNING, null, null));
    }

    @Test
    void aPodRunsInsideItsOwnCgroupWhichGoesWithIt() {
        Pod pod = pod("web", burstable("a"));

        kubelet.deliver(new PodUpdate(List.of(pod), PodOperation.ADD, "test"));

        await().atMost(Duration.ofSeconds(10)).until(() -> running().size() == 1);
        PodSandbox sandbox = runtime.listPodSandbox(PodSandboxFilter.ALL).getFirst();
        assertThat(runtime.sandboxConfig(sandbox.id()).cgroupParent()).isEqualTo("/jk/kubepods/burstable/poduid-web");
        assertThat(cgroupfs.read("cpu", "/jk/kubepods/burstable/poduid-web", "cpu.shares")).isEqualTo("307");
        assertThat(cgroupfs.read("memory", "/jk/kubepods/burstable/poduid-web", "memory.limit_in_bytes"))
                .isEqualTo(Long.toString(100L << 20));
        assertThat(cgroupfs.read("pids", "/jk/kubepods/burstable/poduid-web", "pids.max")).isEqualTo("64");
        assertThat(cgroupfs.read("cpu", "/jk/kubepods/burstable", "cpu.shares")).isEqualTo("307");

        kubelet.deliver(new PodUpdate(List.of(pod), PodOperation.REMOVE, "test"));

        await().atMost(Duration.ofSeconds(15)).until(() -> !cgroupfs.exists("cpu", "/jk/kubepods/burstable/poduid-web"));
        assertThat(runtime.listContainers(new ContainerFilter(null, ContainerState.CONTAINER_RUNNING, null, null))).isEmpty();
        assertThat(cgroupfs.read("cpu", "/jk/kubepods/burstable", "cpu.shares")).isEqualTo("2");
    }

    @Test
    void aPodCgroupNoPodOwnsIsRemoved() {
        cgroupfs.mkdir("/jk/kubepods/besteffort/podleft-over");
        cgroupfs.mkdir("/jk/kubepods/podleft-over-2");

        kubelet.deliver(new PodUpdate(List.of(pod("other", burstable("a"))), PodOperation.ADD, "test"));

        await().atMost(Duration.ofSeconds(15)).until(() -> !cgroupfs.exists("memory", "/jk/kubepods/besteffort/podleft-over")
                && !cgroupfs.exists("memory", "/jk/kubepods/podleft-over-2"));
        await().atMost(Duration.ofSeconds(10)).until(() -> running().size() == 1);
        assertThat(cgroupfs.exists("memory", "/jk/kubepods/burstable/poduid-other")).isTrue();
    }
}
