package io.jkubelet.core.cm.devicemanager;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.admission.PodAdmitResult;
import io.jkubelet.core.admission.testing.AdmittedPods;
import io.jkubelet.core.apis.config.CpuSet;
import io.jkubelet.core.cm.cpumanager.CpuManager;
import io.jkubelet.core.cm.cpumanager.CpuTopology;
import io.jkubelet.core.cm.topologymanager.BitMask;
import io.jkubelet.core.cm.topologymanager.NumaInfo;
import io.jkubelet.core.cm.topologymanager.TopologyHint;
import io.jkubelet.core.cm.topologymanager.TopologyManager;
import io.jkubelet.core.testing.FakeClock;
import io.jkubelet.core.testing.Pods;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.jkubelet.core.cm.devicemanager.DeviceManagerTest.RESOURCE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The device manager as a hint provider, with the CPU manager beside it, on a described machine of 2 NUMA nodes (12
 * CPUs, even ones on node 0, odd on node 1, CPU 0 reserved) whose plugin reports one device on each node, as upstream's
 * {@code topology_hints_test.go} and its topology manager tests have it.
 */
class DeviceTopologyHintsTest {
    @TempDir Path dir;
    final AdmittedPods admittedPods = new AdmittedPods();
    final List<Pod> active = admittedPods.list();

    private static TopologyHint hint(boolean preferred, int... nodes) {
        return new TopologyHint(BitMask.of(nodes), preferred);
    }

    private static CpuTopology dualSocket() {
        Map<Integer, CpuTopology.CpuInfo> cpus = new TreeMap<>();
        for (int cpu = 0; cpu < 12; cpu++) {
            cpus.put(cpu, new CpuTopology.CpuInfo(cpu % 2, cpu % 2, cpu % 6));
        }
        return CpuTopology.of(cpus);
    }

    /** The kubelet's assembly in small: the device manager first, then the CPU manager. */
    private record Node(TopologyManager topology, DeviceManager devices, CpuManager cpus) {}

    private Node node(String policy) throws Exception {
        TopologyManager topology = TopologyManager.create(NumaInfo.of(0, 1), policy, "container", Map.of());
        DeviceManager devices = new DeviceManager(new FakeDevicePluginServer(dir), new FakeClock(), List.of(0, 1),
                topology);
        devices.start(() -> List.copyOf(active), () -> true, (uid, name) -> false);
        FakeDevicePlugin plugin = new FakeDevicePlugin(RESOURCE);
        devices.pluginConnected(RESOURCE, plugin);
        devices.pluginListAndWatchReceiver(RESOURCE, List.of(new Device("Dev-0", Device.HEALTHY, List.of(0L)),
                new Device("Dev-1", Device.HEALTHY, List.of(1L))));
        CpuManager cpus = CpuManager.newStatic(dualSocket(), BigDecimal.ONE, CpuSet.parse("0"), Map.of(), dir,
                Duration.ofSeconds(10), topology);
        cpus.start();
        topology.addHintProvider(devices);
        topology.addHintProvider(cpus);
        return new Node(topology, devices, cpus);
    }

    private static Pod asking(String name, int devices, int cpus) {
        String r = "cpu=" + cpus + ",memory=1Gi," + RESOURCE + "=" + devices;
        return Pods.pod(name, Pods.container("app", r, r));
    }

    private PodAdmitResult admit(Node n, Pod pod) {
        return admittedPods.admit(n.topology(), pod);
    }

    @Test
    void eachNodeWithAFreeDeviceIsAHintAndADeviceWithoutNodeMeansNoPreference() throws Exception {
        Node n = node("single-numa-node");
        Pod one = asking("one", 1, 1);
        assertThat(n.devices().getTopologyHints(one, one.getSpec().getContainers().getFirst()))
                .isEqualTo(Map.of(RESOURCE, List.of(hint(true, 0), hint(true, 1), hint(false, 0, 1))));
        Pod two = asking("two", 2, 1);
        assertThat(n.devices().getTopologyHints(two, two.getSpec().getContainers().getFirst()))
                .isEqualTo(Map.of(RESOURCE, List.of(hint(true, 0, 1))));
        assertThat(n.devices().getPodTopologyHints(two)).isEqualTo(Map.of(RESOURCE, List.of(hint(true, 0, 1))));
        Pod three = asking("three", 3, 1);
        assertThat(n.devices().getTopologyHints(three, three.getSpec().getContainers().getFirst()))
                .isEqualTo(Map.of(RESOURCE, List.of()));

        n.devices().pluginListAndWatchReceiver(RESOURCE, List.of(new Device("Dev-0", Device.HEALTHY)));
        Map<String, List<TopologyHint>> noTopology = n.devices().getTopologyHints(one,
                one.getSpec().getContainers().getFirst());
        assertThat(noTopology).containsOnlyKeys(RESOURCE).containsEntry(RESOURCE, null);
    }

    @Test
    void devicesAndCpusOfAPodComeFromTheOneNodeThatHoldsBoth() throws Exception {
        Node n = node("single-numa-node");
        // Six CPUs fit only node 1 (CPU 0 of node 0 is reserved): its device goes with them, not Dev-0.
        assertThat(admit(n, asking("six", 1, 6)).admit()).isTrue();
        assertThat(n.topology().getAffinity("uid-six", "app")).isEqualTo(hint(true, 1));
        assertThat(n.devices().devices("uid-six", "app").get(RESOURCE)).containsOnlyKeys("Dev-1");
        assertThat(n.cpus().exclusiveCpus("uid-six", "app").cpus()).allMatch(cpu -> cpu % 2 == 1);

        // Node 1 has no CPU left: node 0 holds the next pod's CPUs and its device.
        assertThat(admit(n, asking("five", 1, 5)).admit()).isTrue();
        assertThat(n.devices().devices("uid-five", "app").get(RESOURCE)).containsOnlyKeys("Dev-0");

        // No device left: no placement, refused before anything is allocated.
        PodAdmitResult refused = admit(n, asking("late", 1, 0));
        assertThat(refused).isEqualTo(PodAdmitResult.reject("TopologyAffinityError",
                "Resources cannot be allocated with Topology locality"));
    }

    @Test
    void aDeviceFreeOnlyOnOneNodeAndCpusFreeOnlyOnTheOtherAreRefusedUnlessBestEffort() throws Exception {
        for (String policy : List.of("single-numa-node", "restricted", "best-effort")) {
            Path own = java.nio.file.Files.createDirectories(dir.resolve(policy));
            dir = own;
            active.clear();
            Node n = node(policy);
            assertThat(admit(n, asking("a", 1, 1)).admit()).isTrue();
            assertThat(admit(n, Pods.pod("b", Pods.container("app", "cpu=6,memory=1Gi", "cpu=6,memory=1Gi"))).admit())
                    .isTrue();
            // Left: Dev-1 on node 1, four CPUs on node 0.
            PodAdmitResult apart = admit(n, asking("c", 1, 2));
            if (policy.equals("best-effort")) {
                assertThat(apart.admit()).isTrue();
                assertThat(n.topology().getAffinity("uid-c", "app")).isEqualTo(hint(false, 0));
                assertThat(n.devices().devices("uid-c", "app").get(RESOURCE)).containsOnlyKeys("Dev-1");
                assertThat(n.cpus().exclusiveCpus("uid-c", "app").cpus()).allMatch(cpu -> cpu % 2 == 0);
            } else {
                assertThat(apart.reason()).as(policy).isEqualTo("TopologyAffinityError");
            }
        }
    }
}
