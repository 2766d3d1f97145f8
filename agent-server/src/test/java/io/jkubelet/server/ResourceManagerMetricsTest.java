package io.jkubelet.server;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.admission.PodAdmitResult;
import io.jkubelet.core.admission.testing.AdmittedPods;
import io.jkubelet.core.cm.cpumanager.CpuManager;
import io.jkubelet.core.cm.devicemanager.Device;
import io.jkubelet.core.cm.devicemanager.DeviceManager;
import io.jkubelet.core.cm.devicemanager.FakeDevicePlugin;
import io.jkubelet.core.cm.devicemanager.FakeDevicePluginServer;
import io.jkubelet.core.cm.memorymanager.MemoryManager;
import io.jkubelet.core.cm.testing.TwoNumaNodeMachine;
import io.jkubelet.core.cm.topologymanager.HintProvider;
import io.jkubelet.core.cm.topologymanager.NumaInfo;
import io.jkubelet.core.cm.topologymanager.TopologyAffinityStore;
import io.jkubelet.core.cm.topologymanager.TopologyHint;
import io.jkubelet.core.cm.topologymanager.TopologyManager;
import io.jkubelet.core.metrics.KubeletMetrics;
import io.jkubelet.core.testing.FakeClock;
import io.jkubelet.core.testing.Pods;
import io.jkubelet.server.stats.GoTextFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CPU, memory, topology and device managers' metrics (agent-core's {@code ResourceManagerMetrics}) as
 * {@code /metrics} shows them, counted where upstream v1.30 counts them, with the managers driven on {@link TwoNumaNodeMachine} (CPU 0 reserved: CPU 1 free on node 0, CPUs 2
 * and 3 on node 1; 9Gi of memory allocatable on each node).
 */
class ResourceManagerMetricsTest {
    static final String DEVICE = "example.com/resource";

    @TempDir
    Path root;
    private final FakeClock clock = new FakeClock();
    private final KubeletMetrics metrics = new KubeletMetrics("node-a");
    private final AdmittedPods admitted = new AdmittedPods();

    private String scrape() {
        return scrape(metrics);
    }

    /** What {@code GET /metrics} answers ({@link MetricsHandlers#installKubelet}): the registry as Go writes it. */
    static String scrape(KubeletMetrics metrics) {
        return new String(GoTextFormat.write(metrics.registry().scrape()), StandardCharsets.UTF_8);
    }

    private static Pod guaranteed(String name, String cpu, String memory) {
        String resources = "cpu=" + cpu + ",memory=" + memory;
        return Pods.pod(name, Pods.container("app", resources, resources));
    }

    private CpuManager cpuManager(TopologyManager topology) throws IOException {
        CpuManager m = TwoNumaNodeMachine.staticCpuManager(root, topology);
        m.start();
        m.observePinning(metrics.resourceManagers().cpuManagerPinning());
        return m;
    }

    @Test
    void everyMetricShowsFromTheStartWithUpstreamsHelpAndTypeAndTheLabelledOnesOnceObserved() throws IOException {
        assertThat(scrape())
                .contains("""
                        # HELP kubelet_cpu_manager_pinning_errors_total [ALPHA] The number of cpu core allocations which required pinning failed.
                        # TYPE kubelet_cpu_manager_pinning_errors_total counter
                        kubelet_cpu_manager_pinning_errors_total 0
                        # HELP kubelet_cpu_manager_pinning_requests_total [ALPHA] The number of cpu core allocations which required pinning.
                        # TYPE kubelet_cpu_manager_pinning_requests_total counter
                        kubelet_cpu_manager_pinning_requests_total 0
                        """)
                .contains("""
                        # HELP kubelet_memory_manager_pinning_errors_total [ALPHA] The number of memory pages allocations which required pinning that failed.
                        # TYPE kubelet_memory_manager_pinning_errors_total counter
                        kubelet_memory_manager_pinning_errors_total 0
                        # HELP kubelet_memory_manager_pinning_requests_total [ALPHA] The number of memory pages allocations which required pinning.
                        # TYPE kubelet_memory_manager_pinning_requests_total counter
                        kubelet_memory_manager_pinning_requests_total 0
                        """)
                .contains("""
                        # HELP kubelet_topology_manager_admission_duration_ms [ALPHA] Duration in milliseconds to serve a pod admission request.
                        # TYPE kubelet_topology_manager_admission_duration_ms histogram
                        kubelet_topology_manager_admission_duration_ms_bucket{le="0.05"} 0
                        """)
                .contains("""
                        # HELP kubelet_topology_manager_admission_errors_total [ALPHA] The number of admission request failures where resources could not be aligned.
                        # TYPE kubelet_topology_manager_admission_errors_total counter
                        kubelet_topology_manager_admission_errors_total 0
                        # HELP kubelet_topology_manager_admission_requests_total [ALPHA] The number of admission requests where resources have to be aligned.
                        # TYPE kubelet_topology_manager_admission_requests_total counter
                        kubelet_topology_manager_admission_requests_total 0
                        """)
                // Broken down by resource name: nothing until a plugin registers, as a Go vector without children.
                .doesNotContain("kubelet_device_plugin_registration_total{")
                .doesNotContain("kubelet_device_plugin_alloc_duration_seconds_bucket{");
    }

    @Test
    void theStaticCpuPolicyCountsEachContainerThatShouldHaveCpusOfItsOwnAndEachThatCannotHaveThem() throws IOException {
        TopologyManager topology = TopologyManager.none();
        topology.addHintProvider(cpuManager(topology));

        assertThat(admitted.admit(topology, guaranteed("one", "1", "64Mi")).admit()).isTrue();
        // The shared pool: a fractional CPU, and a pod that is not Guaranteed.
        assertThat(admitted.admit(topology, guaranteed("fraction", "500m", "64Mi")).admit()).isTrue();
        assertThat(admitted.admit(topology, Pods.pod("besteffort", Pods.container("app"))).admit()).isTrue();
        // A container that has its CPUs already (as after a restart) is counted again, as upstream counts it.
        assertThat(topology.admit(guaranteed("one", "1", "64Mi"), admitted.list()).admit()).isTrue();
        // Two CPUs are left: four cannot be had.
        PodAdmitResult tooMany = admitted.admit(topology, guaranteed("four", "4", "64Mi"));
        assertThat(tooMany.reason()).isEqualTo("UnexpectedAdmissionError");

        assertThat(scrape()).contains("""
                kubelet_cpu_manager_pinning_errors_total 1
                # HELP kubelet_cpu_manager_pinning_requests_total [ALPHA] The number of cpu core allocations which required pinning.
                # TYPE kubelet_cpu_manager_pinning_requests_total counter
                kubelet_cpu_manager_pinning_requests_total 3
                """);
    }

    @Test
    void theStaticMemoryPolicyCountsEachGuaranteedContainerAndEachItCannotPinAndTheNonePolicyCountsNothing()
            throws IOException {
        MemoryManager memory = TwoNumaNodeMachine.staticMemoryManager(root, TwoNumaNodeMachine.MEMORY,
                TopologyAffinityStore.NONE);
        memory.start(admitted::list, () -> true);
        memory.observePinning(metrics.resourceManagers().memoryManagerPinning());
        TopologyManager topology = TopologyManager.none(memory);

        assertThat(admitted.admit(topology, guaranteed("small", "1", "5Gi")).admit()).isTrue();
        assertThat(admitted.admit(topology, Pods.pod("burstable", Pods.container("app", "memory=1Gi", ""))).admit())
                .isTrue();
        // No NUMA node, nor both together, has 20Gi free.
        PodAdmitResult big = admitted.admit(topology, guaranteed("big", "1", "20Gi"));
        assertThat(big.message()).contains("failed to get the default NUMA affinity");

        assertThat(scrape()).contains("""
                kubelet_memory_manager_pinning_errors_total 1
                # HELP kubelet_memory_manager_pinning_requests_total [ALPHA] The number of memory pages allocations which required pinning.
                # TYPE kubelet_memory_manager_pinning_requests_total counter
                kubelet_memory_manager_pinning_requests_total 2
                """);

        // Another node whose memory manager has the None policy: a Guaranteed pod pins nothing and counts nothing.
        KubeletMetrics other = new KubeletMetrics("node-b");
        MemoryManager none = MemoryManager.create(MemoryManager.NONE, TwoNumaNodeMachine.MEMORY, Map.of(), List.of(),
                root.resolve("node-b"), TopologyAffinityStore.NONE);
        none.observePinning(other.resourceManagers().memoryManagerPinning());
        assertThat(TopologyManager.none(none).admit(guaranteed("g", "1", "1Gi"), List.of()).admit()).isTrue();
        assertThat(scrape(other))
                .contains("kubelet_memory_manager_pinning_requests_total 0\n")
                .contains("kubelet_memory_manager_pinning_errors_total 0\n");
    }

    @Test
    void theTopologyManagerCountsEveryAdmissionTimesItsScopeInWholeMillisecondsAndCountsTheScopesRefusals()
            throws IOException {
        TopologyManager topology = TopologyManager.create(NumaInfo.of(0, 1), "single-numa-node", "container", Map.of());
        topology.observeAdmissions(metrics.resourceManagers().topologyManagerAdmission(), clock);
        topology.addHintProvider(cpuManager(topology));
        // Each allocation takes 3.7 ms: upstream observes whole milliseconds, 3.
        topology.addHintProvider(new SlowProvider(clock, Duration.ofMillis(3).plusNanos(700_000)));

        // Node 1 has two free CPUs; no node has three.
        assertThat(admitted.admit(topology, guaranteed("two", "2", "64Mi")).admit()).isTrue();
        PodAdmitResult three = admitted.admit(topology, guaranteed("three", "3", "64Mi"));
        assertThat(three.reason()).isEqualTo("TopologyAffinityError");

        assertThat(scrape())
                .contains("""
                        # TYPE kubelet_topology_manager_admission_duration_ms histogram
                        kubelet_topology_manager_admission_duration_ms_bucket{le="0.05"} 1
                        kubelet_topology_manager_admission_duration_ms_bucket{le="0.1"} 1
                        kubelet_topology_manager_admission_duration_ms_bucket{le="0.2"} 1
                        kubelet_topology_manager_admission_duration_ms_bucket{le="0.4"} 1
                        kubelet_topology_manager_admission_duration_ms_bucket{le="0.8"} 1
                        kubelet_topology_manager_admission_duration_ms_bucket{le="1.6"} 1
                        kubelet_topology_manager_admission_duration_ms_bucket{le="3.2"} 2
                        kubelet_topology_manager_admission_duration_ms_bucket{le="6.4"} 2
                        kubelet_topology_manager_admission_duration_ms_bucket{le="12.8"} 2
                        kubelet_topology_manager_admission_duration_ms_bucket{le="25.6"} 2
                        kubelet_topology_manager_admission_duration_ms_bucket{le="51.2"} 2
                        kubelet_topology_manager_admission_duration_ms_bucket{le="102.4"} 2
                        kubelet_topology_manager_admission_duration_ms_bucket{le="204.8"} 2
                        kubelet_topology_manager_admission_duration_ms_bucket{le="409.6"} 2
                        kubelet_topology_manager_admission_duration_ms_bucket{le="819.2"} 2
                        kubelet_topology_manager_admission_duration_ms_bucket{le="+Inf"} 2
                        kubelet_topology_manager_admission_duration_ms_sum 3
                        kubelet_topology_manager_admission_duration_ms_count 2
                        """)
                .contains("""
                        kubelet_topology_manager_admission_errors_total 1
                        # HELP kubelet_topology_manager_admission_requests_total [ALPHA] The number of admission requests where resources have to be aligned.
                        # TYPE kubelet_topology_manager_admission_requests_total counter
                        kubelet_topology_manager_admission_requests_total 2
                        """)
                // The refused pod never reached the CPU manager.
                .contains("kubelet_cpu_manager_pinning_requests_total 1\n");
    }

    @Test
    void underTheNonePolicyEveryAdmissionIsCountedButNoRefusal() throws IOException {
        TopologyManager topology = TopologyManager.none();
        topology.observeAdmissions(metrics.resourceManagers().topologyManagerAdmission(), clock);
        topology.addHintProvider(cpuManager(topology));

        assertThat(admitted.admit(topology, guaranteed("one", "1", "64Mi")).admit()).isTrue();
        assertThat(admitted.admit(topology, guaranteed("four", "4", "64Mi")).admit()).isFalse();

        assertThat(scrape())
                .contains("kubelet_topology_manager_admission_requests_total 2\n")
                .contains("kubelet_topology_manager_admission_errors_total 0\n")
                .contains("kubelet_cpu_manager_pinning_errors_total 1\n");
    }

    @Test
    void theDeviceManagerCountsRegistrationRequestsAndTimesEachPluginsAllocateByResource() throws Exception {
        DeviceManager devices = new DeviceManager(new FakeDevicePluginServer(root.resolve("device-plugins")), clock);
        devices.observePlugins(metrics.resourceManagers().devicePlugins());
        devices.start(admitted::list, () -> true, (uid, name) -> false);
        TopologyManager topology = TopologyManager.none(devices);
        FakeDevicePlugin plugin = new FakeDevicePlugin(DEVICE);
        plugin.duringAllocate = () -> clock.advance(Duration.ofMillis(30));
        // As the registration server tells the manager: every request, then the plugin's connection.
        devices.registrationRequested(DEVICE);
        devices.pluginConnected(DEVICE, plugin);
        devices.pluginListAndWatchReceiver(DEVICE, List.of(new Device("Dev-1", Device.HEALTHY),
                new Device("Dev-2", Device.HEALTHY)));

        assertThat(admitted.admit(topology, Pods.pod("a", Pods.container("app", "", DEVICE + "=1"))).admit()).isTrue();
        // An Allocate that fails is timed too.
        plugin.allocateError = "no more";
        assertThat(admitted.admit(topology, Pods.pod("b", Pods.container("app", "", DEVICE + "=1"))).admit()).isFalse();

        String labels = "resource_name=\"" + DEVICE + "\"";
        assertThat(scrape())
                .contains("# HELP kubelet_device_plugin_alloc_duration_seconds [ALPHA] Duration in seconds to serve a "
                        + "device plugin Allocation request. Broken down by resource name.\n"
                        + "# TYPE kubelet_device_plugin_alloc_duration_seconds histogram\n")
                .contains("kubelet_device_plugin_alloc_duration_seconds_bucket{" + labels + ",le=\"0.025\"} 0\n"
                        + "kubelet_device_plugin_alloc_duration_seconds_bucket{" + labels + ",le=\"0.05\"} 2\n")
                .contains("kubelet_device_plugin_alloc_duration_seconds_sum{" + labels + "} 0.06\n"
                        + "kubelet_device_plugin_alloc_duration_seconds_count{" + labels + "} 2\n")
                .contains("""
                        # HELP kubelet_device_plugin_registration_total [ALPHA] Cumulative number of device plugin registrations. Broken down by resource name.
                        # TYPE kubelet_device_plugin_registration_total counter
                        kubelet_device_plugin_registration_total{resource_name="example.com/resource"} 1
                        """);
    }

    /** A hint provider with no hints whose allocation takes {@code took} on the test's clock. */
    private record SlowProvider(FakeClock clock, Duration took) implements HintProvider {
        @Override
        public Map<String, List<TopologyHint>> getTopologyHints(Pod pod, Container container) {
            return Map.of();
        }

        @Override
        public Map<String, List<TopologyHint>> getPodTopologyHints(Pod pod) {
            return Map.of();
        }

        @Override
        public void allocate(Pod pod, Container container) {
            clock.advance(took);
        }
    }

    @Test
    void withTheMemoryManagerGateOffItsMetricsAreNotShownAsUpstreamRegistersThemOnlyWithIt() {
        assertThat(scrape(new KubeletMetrics("node-c", false))).doesNotContain("kubelet_memory_manager")
                .contains("kubelet_cpu_manager_pinning_requests_total 0\n");
        assertThat(scrape()).contains("kubelet_memory_manager_pinning_requests_total 0\n");
    }
}
