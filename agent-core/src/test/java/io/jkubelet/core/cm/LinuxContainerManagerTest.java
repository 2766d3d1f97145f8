package io.jkubelet.core.cm;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.events.EventRecorder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import static io.jkubelet.core.testing.Pods.container;
import static io.jkubelet.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The container manager on a stand-in cgroup v1 file system: {@code <root>/kubepods} limited to allocatable, the QoS
 * cgroups, pod cgroups per QoS class, reserved cgroups, orphans; as upstream's container manager writes them.
 */
class LinuxContainerManagerTest {
    private static final Map<String, Quantity> CAPACITY = Map.of("cpu", new Quantity("4"), "memory", new Quantity("10Gi"));
    private static final OptionalLong MAX_PIDS = OptionalLong.of(32768);

    @TempDir
    Path dir;
    /**
     * The manager's periodic QoS update never runs here: its first run (at once) raced the tests' own updates, each
     * writing cpu.shares, and a read between another writer's truncate and write saw "". Tests update explicitly.
     */
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
    {
        timers.execute(() -> {
            try {
                new java.util.concurrent.CountDownLatch(1).await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }
    private final List<String> events = new CopyOnWriteArrayList<>();
    private final EventRecorder recorder = (ref, type, reason, message) ->
            events.add(type + " " + reason + " " + ref.getKind() + "/" + ref.getName() + ": " + message);
    private final List<Pod> activePods = new CopyOnWriteArrayList<>();
    private FakeCgroupfs fs;

    @AfterEach
    void stopTimers() {
        timers.shutdownNow();
    }

    private static NodeConfig config(CgroupDriver driver, String root, Set<String> enforce, NodeAllocatable reserved,
                                     long podPidsLimit) {
        return new NodeConfig(true, root, driver, true, Duration.ofMillis(100), podPidsLimit, reserved, enforce,
                "/system.slice", "/kube.slice");
    }

    private LinuxContainerManager started(NodeConfig config) throws CgroupException {
        fs = new FakeCgroupfs(dir);
        fs.mkdir("/jk");
        LinuxContainerManager cm = LinuxContainerManager.create(config, fs.manager(config.cgroupDriver()), CAPACITY, MAX_PIDS);
        cm.start(() -> List.copyOf(activePods), timers, recorder, "node-a");
        return cm;
    }

    private static Pod withUid(Pod pod, String uid) {
        pod.getMetadata().setUid(uid);
        return pod;
    }

    private static Pod guaranteed() {
        return withUid(pod(container("a", "cpu=500m,memory=64Mi", "cpu=500m,memory=64Mi")), "uid-g");
    }

    private static Pod burstable(String uid, String cpu) {
        return withUid(pod(container("a", "cpu=" + cpu + ",memory=32Mi", "memory=128Mi")), uid);
    }

    private static Pod bestEffort() {
        return withUid(pod(container("a", "", "")), "uid-be");
    }

    @Test
    void theCgroupRootMustExist() {
        FakeCgroupfs fs = new FakeCgroupfs(dir);
        NodeConfig c = config(CgroupDriver.CGROUPFS, "/missing", Set.of("pods"), NodeAllocatable.NONE, -1);

        assertThatThrownBy(() -> LinuxContainerManager.create(c, fs.manager(CgroupDriver.CGROUPFS), CAPACITY, MAX_PIDS))
                .hasMessageStartingWith("invalid configuration: cgroup [\"missing\"] has some missing paths: ");
    }

    @Test
    void kubepodsIsLimitedToAllocatableWhenPodsAreEnforced() throws Exception {
        NodeAllocatable reserved = new NodeAllocatable(Map.of("cpu", "500m", "memory", "1Gi", "pid", "100"),
                Map.of("cpu", "500m", "memory", "1Gi"), Map.of("memory.available", "100Mi"));

        started(config(CgroupDriver.CGROUPFS, "/jk", Set.of("pods"), reserved, -1));

        // 4 cores - 1 reserved = 3 cores; 10Gi - 2Gi (eviction thresholds are not enforced on the cgroup).
        assertThat(fs.read("cpu", "/jk/kubepods", "cpu.shares")).isEqualTo("3072");
        assertThat(fs.read("memory", "/jk/kubepods", "memory.limit_in_bytes")).isEqualTo(Long.toString(8L << 30));
        assertThat(fs.read("pids", "/jk/kubepods", "pids.max")).isEqualTo("32668");
        assertThat(events).containsExactly(
                "Normal SuccessfulNodeAllocatableEnforcement Node/node-a: Updated Node Allocatable limit across pods");
    }

    @Test
    void withoutPodsEnforcementKubepodsGetsTheWholeMachine() throws Exception {
        NodeAllocatable reserved = new NodeAllocatable(Map.of("cpu", "1"), Map.of(), Map.of());

        started(config(CgroupDriver.CGROUPFS, "/jk", Set.of(), reserved, -1));

        assertThat(fs.read("cpu", "/jk/kubepods", "cpu.shares")).isEqualTo("4096");
        assertThat(fs.read("memory", "/jk/kubepods", "memory.limit_in_bytes")).isEqualTo(Long.toString(10L << 30));
    }

    @Test
    void aReservationAboveCapacityStopsTheStart() {
        NodeAllocatable reserved = new NodeAllocatable(Map.of("cpu", "3"), Map.of("cpu", "2"), Map.of());

        assertThatThrownBy(() -> started(config(CgroupDriver.CGROUPFS, "/jk", Set.of("pods"), reserved, -1)))
                .hasMessage("invalid Node Allocatable configuration. Resource \"cpu\" has a reservation of 5 but "
                        + "capacity of 4. Expected capacity >= reservation.");
    }

    @Test
    void theQosCgroupsStartWithTheFewestSharesForBestEffort() throws Exception {
        started(config(CgroupDriver.CGROUPFS, "/jk", Set.of("pods"), NodeAllocatable.NONE, -1));

        assertThat(fs.exists("memory", "/jk/kubepods/burstable")).isTrue();
        assertThat(fs.read("cpu", "/jk/kubepods/besteffort", "cpu.shares")).isEqualTo("2");
    }

    @Test
    void eachPodGoesBelowItsQosClassWithItsLimits() throws Exception {
        LinuxContainerManager cm = started(config(CgroupDriver.CGROUPFS, "/jk", Set.of("pods"), NodeAllocatable.NONE, 50));
        PodContainerManager pods = cm.podContainerManager();

        for (Pod p : List.of(guaranteed(), burstable("uid-b", "250m"), bestEffort())) {
            assertThat(pods.exists(p)).isFalse();
            pods.ensureExists(p);
            assertThat(pods.exists(p)).isTrue();
        }

        assertThat(pods.cgroupParent(guaranteed())).isEqualTo("/jk/kubepods/poduid-g");
        assertThat(fs.read("cpu", "/jk/kubepods/poduid-g", "cpu.shares")).isEqualTo("512");
        assertThat(fs.read("cpu", "/jk/kubepods/poduid-g", "cpu.cfs_quota_us")).isEqualTo("50000");
        assertThat(fs.read("memory", "/jk/kubepods/poduid-g", "memory.limit_in_bytes")).isEqualTo("67108864");
        assertThat(pods.cgroupParent(burstable("uid-b", "250m"))).isEqualTo("/jk/kubepods/burstable/poduid-b");
        assertThat(fs.read("cpu", "/jk/kubepods/burstable/poduid-b", "cpu.shares")).isEqualTo("256");
        assertThat(fs.read("cpu", "/jk/kubepods/burstable/poduid-b", "cpu.cfs_quota_us")).isNull();
        assertThat(fs.read("memory", "/jk/kubepods/burstable/poduid-b", "memory.limit_in_bytes")).isEqualTo("134217728");
        assertThat(fs.read("cpu", "/jk/kubepods/besteffort/poduid-be", "cpu.shares")).isEqualTo("2");
        for (String p : List.of("/jk/kubepods/poduid-g", "/jk/kubepods/burstable/poduid-b", "/jk/kubepods/besteffort/poduid-be")) {
            assertThat(fs.read("pids", p, "pids.max")).as(p).isEqualTo("50");
        }
    }

    @Test
    void theSystemdDriverNamesSlices() throws Exception {
        fs = new FakeCgroupfs(dir);
        NodeConfig c = config(CgroupDriver.SYSTEMD, "/", Set.of("pods"), NodeAllocatable.NONE, -1);
        LinuxContainerManager cm = LinuxContainerManager.create(c, fs.manager(CgroupDriver.SYSTEMD), CAPACITY, MAX_PIDS);
        cm.start(List::of, timers, recorder, "node-a");

        cm.podContainerManager().ensureExists(burstable("1234-abcd", "100m"));

        assertThat(cm.podContainerManager().cgroupParent(burstable("1234-abcd", "100m")))
                .isEqualTo("/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1234_abcd.slice");
        assertThat(fs.read("cpu", "/kubepods.slice/kubepods-besteffort.slice", "cpu.shares")).isEqualTo("2");
        assertThat(fs.read("cpu", "/kubepods.slice", "cpu.shares")).isEqualTo("4096");
        assertThat(cm.podContainerManager().allPodsFromCgroups()).containsOnlyKeys("1234-abcd");
    }

    @Test
    void burstableSharesFollowTheActivePods() throws Exception {
        LinuxContainerManager cm = started(config(CgroupDriver.CGROUPFS, "/jk", Set.of("pods"), NodeAllocatable.NONE, -1));

        activePods.addAll(List.of(burstable("b1", "250m"), burstable("b2", "500m"), guaranteed(), bestEffort()));
        cm.updateQosCgroups();
        assertThat(fs.read("cpu", "/jk/kubepods/burstable", "cpu.shares")).isEqualTo("768");

        activePods.removeIf(p -> p.getMetadata().getUid().equals("b2"));
        cm.updateQosCgroups();
        assertThat(fs.read("cpu", "/jk/kubepods/burstable", "cpu.shares")).isEqualTo("256");

        activePods.clear();
        cm.updateQosCgroups();
        assertThat(fs.read("cpu", "/jk/kubepods/burstable", "cpu.shares")).isEqualTo("2");
        assertThat(fs.read("cpu", "/jk/kubepods/besteffort", "cpu.shares")).isEqualTo("2");
    }

    @Test
    void podCgroupsAreFoundByUidAndRemoved() throws Exception {
        LinuxContainerManager cm = started(config(CgroupDriver.CGROUPFS, "/jk", Set.of("pods"), NodeAllocatable.NONE, -1));
        PodContainerManager pods = cm.podContainerManager();
        for (Pod p : List.of(guaranteed(), burstable("uid-b", "250m"), bestEffort())) {
            pods.ensureExists(p);
        }

        Map<String, CgroupName> found = pods.allPodsFromCgroups();

        assertThat(found).containsOnlyKeys("uid-g", "uid-b", "uid-be");
        pods.reduceCpuLimits(found.get("uid-b"));
        assertThat(fs.read("cpu", "/jk/kubepods/burstable/poduid-b", "cpu.shares")).isEqualTo("2");
        pods.destroy(found.get("uid-g"));
        assertThat(fs.exists("cpu", "/jk/kubepods/poduid-g")).isFalse();
        assertThat(fs.exists("cpu", "/jk/kubepods/burstable")).isTrue();
        assertThat(pods.allPodsFromCgroups()).containsOnlyKeys("uid-b", "uid-be");
    }

    @Test
    void reservedCgroupsAreLimitedWhenTheirEnforcementIsAsked() throws Exception {
        fs = new FakeCgroupfs(dir);
        fs.mkdir("/jk");
        fs.mkdir("/system.slice");
        fs.mkdir("/kube.slice");
        NodeAllocatable reserved = new NodeAllocatable(Map.of("cpu", "500m", "memory", "1Gi"),
                Map.of("cpu", "250m", "memory", "512Mi", "pid", "1000"), Map.of());
        NodeConfig c = config(CgroupDriver.CGROUPFS, "/jk", Set.of("pods", "system-reserved", "kube-reserved"), reserved, -1);
        LinuxContainerManager cm = LinuxContainerManager.create(c, fs.manager(CgroupDriver.CGROUPFS), CAPACITY, MAX_PIDS);

        cm.start(List::of, timers, recorder, "node-a");

        assertThat(fs.read("cpu", "/system.slice", "cpu.shares")).isEqualTo("512");
        assertThat(fs.read("memory", "/system.slice", "memory.limit_in_bytes")).isEqualTo(Long.toString(1L << 30));
        assertThat(fs.read("cpu", "/kube.slice", "cpu.shares")).isEqualTo("256");
        assertThat(fs.read("pids", "/kube.slice", "pids.max")).isEqualTo("1000");
        assertThat(events).contains(
                "Normal SuccessfulNodeAllocatableEnforcement Node/node-a: Updated limits on system reserved cgroup /system.slice",
                "Normal SuccessfulNodeAllocatableEnforcement Node/node-a: Updated limits on kube reserved cgroup /kube.slice");
    }

    @Test
    void aMissingReservedCgroupFailsTheStartWithAnEvent() {
        NodeAllocatable reserved = new NodeAllocatable(Map.of("cpu", "500m"), Map.of(), Map.of());

        assertThatThrownBy(() -> started(config(CgroupDriver.CGROUPFS, "/jk", Set.of("pods", "system-reserved"), reserved, -1)))
                .hasMessageStartingWith("Failed to enforce System Reserved Cgroup Limits on \"/system.slice\": "
                        + "cgroup [\"system.slice\"] has some missing paths: ");
        assertThat(new ArrayList<>(events)).anyMatch(e -> e.startsWith("Warning FailedNodeAllocatableEnforcement Node/node-a: "
                + "Failed to enforce System Reserved Cgroup Limits"));
    }

    @Test
    void withoutCgroupsPerQosNothingIsCreatedAndPodsHaveNoParent() throws Exception {
        fs = new FakeCgroupfs(dir);
        NodeConfig c = new NodeConfig(false, "", CgroupDriver.CGROUPFS, true, Duration.ofMillis(100), -1,
                NodeAllocatable.NONE, Set.of(), "", "");
        LinuxContainerManager cm = LinuxContainerManager.create(c, fs.manager(CgroupDriver.CGROUPFS), CAPACITY, MAX_PIDS);

        cm.start(List::of, timers, recorder, "node-a");
        cm.podContainerManager().ensureExists(guaranteed());

        assertThat(cm.podContainerManager().cgroupParent(guaranteed())).isEmpty();
        assertThat(fs.exists("cpu", "/kubepods")).isFalse();
        assertThat(cm.podContainerManager().allPodsFromCgroups()).isEmpty();
    }
}
