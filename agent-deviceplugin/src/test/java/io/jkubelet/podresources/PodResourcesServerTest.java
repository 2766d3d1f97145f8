package io.jkubelet.podresources;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.jkubelet.core.apis.config.FeatureGates;
import io.jkubelet.core.cm.cpumanager.CpuManager;
import io.jkubelet.core.cm.devicemanager.DeviceManager;
import io.jkubelet.core.cm.memorymanager.MemoryManager;
import io.jkubelet.core.cm.testing.TwoNumaNodeMachine;
import io.jkubelet.core.cm.topologymanager.NumaInfo;
import io.jkubelet.core.cm.topologymanager.TopologyManager;
import io.jkubelet.core.podresources.CpusProvider;
import io.jkubelet.core.podresources.MemoryProvider;
import io.jkubelet.core.podresources.PodResourcesLister;
import io.jkubelet.deviceplugin.RegistrationServer;
import io.jkubelet.deviceplugin.TestPlugins;
import io.jkubelet.deviceplugin.UnixSockets;
import io.jkubelet.podresources.v1.PodResourcesApi;
import io.jkubelet.podresources.v1.PodResourcesListerGrpc;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.jkubelet.core.cm.testing.TwoNumaNodeMachine.GI;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The pod-resources API as a monitoring agent sees it on the socket, over a device manager with a registered plugin and
 * the CPU and memory managers' static policies on a described machine ({@link TwoNumaNodeMachine}: CPUs 0-1 on NUMA
 * node 0, 2-3 on node 1, CPU 0 reserved; 10Gi on each node, 1Gi of each reserved), aligned by the topology manager's
 * {@code single-numa-node} policy.
 */
class PodResourcesServerTest {
    static final String RESOURCE = "example.com/resource";

    @TempDir
    Path dir;
    final List<Pod> pods = new ArrayList<>();
    DeviceManager manager;
    CpuManager cpus;
    MemoryManager memory;
    TopologyManager topology;
    AutoCloseable plugin;
    PodResourcesServer server;
    ManagedChannel channel;

    @BeforeEach
    void start() throws Exception {
        Path kubeletSocket = dir.resolve("device-plugins/kubelet.sock");
        manager = new DeviceManager(new RegistrationServer(kubeletSocket), Clock.systemUTC());
        manager.start(() -> List.copyOf(pods), () -> true, (uid, name) -> false);
        topology = TopologyManager.create(NumaInfo.of(0, 1), "single-numa-node", "container", Map.of());
        cpus = TwoNumaNodeMachine.staticCpuManager(dir, topology);
        cpus.start();
        memory = TwoNumaNodeMachine.staticMemoryManager(dir, TwoNumaNodeMachine.MEMORY, topology);
        memory.start(() -> List.copyOf(pods), () -> true);
        topology.addHintProvider(manager);
        topology.addHintProvider(cpus);
        topology.addHintProvider(memory);
        plugin = TestPlugins.registered(kubeletSocket, RESOURCE, "Dev-1", "Dev-2");
        await().until(() -> manager.getCapacity().allocatable().getOrDefault(RESOURCE, 0L) == 2L);
    }

    private PodResourcesListerGrpc.PodResourcesListerBlockingStub serve(FeatureGates gates, Clock clock) throws Exception {
        server = PodResourcesServer.start(dir.resolve("pod-resources"), new PodResourcesLister(() -> List.copyOf(pods),
                manager, CpusProvider.of(cpus), MemoryProvider.of(memory), gates), clock);
        channel = UnixSockets.channel(server.socket());
        return PodResourcesListerGrpc.newBlockingStub(channel);
    }

    @AfterEach
    void stop() throws Exception {
        if (channel != null) {
            UnixSockets.close(channel);
        }
        if (server != null) {
            server.close();
        }
        manager.stop();
        plugin.close();
    }

    /**
     * A Guaranteed pod: {@code app} with the devices, 2 CPUs and 2Gi, {@code side} with half a CPU (the shared pool)
     * and 1Gi.
     */
    private Pod admitted(String name, int devices) {
        Map<String, Quantity> appResources = Map.of(RESOURCE, new Quantity(Integer.toString(devices)),
                "cpu", new Quantity("2"), "memory", new Quantity("2Gi"));
        Map<String, Quantity> sideResources = Map.of("cpu", new Quantity("500m"), "memory", new Quantity("1Gi"));
        Container app = new ContainerBuilder().withName("app").withImage("busybox").withNewResources()
                .withRequests(appResources).withLimits(appResources).endResources().build();
        Container side = new ContainerBuilder().withName("side").withNewResources()
                .withRequests(sideResources).withLimits(sideResources).endResources().build();
        Pod pod = new PodBuilder().withNewMetadata().withName(name).withNamespace("default").withUid("uid-" + name)
                .endMetadata().withNewSpec().withContainers(app, side).endSpec().build();
        pods.add(pod);
        assertThat(topology.admit(pod, List.of()).admit()).isTrue();
        return pod;
    }

    private static PodResourcesApi.ContainerDevices device(String id) {
        return PodResourcesApi.ContainerDevices.newBuilder().setResourceName(RESOURCE).addDeviceIds(id).build();
    }

    private static PodResourcesApi.ContainerMemory memory(long size, long numaNode) {
        return PodResourcesApi.ContainerMemory.newBuilder().setMemoryType("memory").setSize(size)
                .setTopology(PodResourcesApi.TopologyInfo.newBuilder().addNodes(PodResourcesApi.NUMANode.newBuilder()
                        .setID(numaNode))).build();
    }

    @Test
    void listTellsEachContainersDevicesCpusAndMemoryAndAllocatableWhatTheNodeCanGive() throws Exception {
        admitted("gpu", 1);
        var stub = serve(FeatureGates.of(Map.of()), Clock.systemUTC());

        var list = stub.list(PodResourcesApi.ListPodResourcesRequest.getDefaultInstance());
        assertThat(list.getPodResourcesList()).hasSize(1);
        var pod = list.getPodResources(0);
        assertThat(pod.getName()).isEqualTo("gpu");
        assertThat(pod.getNamespace()).isEqualTo("default");
        assertThat(pod.getContainersList()).extracting(PodResourcesApi.ContainerResources::getName)
                .containsExactly("app", "side");
        // Node 0 has one free CPU (0 is reserved): app's 2 CPUs and its 2Gi come from node 1.
        assertThat(pod.getContainers(0).getDevicesList()).containsExactly(device("Dev-1"));
        assertThat(pod.getContainers(0).getCpuIdsList()).containsExactly(2L, 3L);
        assertThat(pod.getContainers(0).getMemoryList()).containsExactly(memory(2 * GI, 1));
        // Half a CPU runs in the shared pool: no CPU is told; its 1Gi is pinned to the first of two equal nodes.
        assertThat(pod.getContainers(1).getDevicesList()).isEmpty();
        assertThat(pod.getContainers(1).getCpuIdsList()).isEmpty();
        assertThat(pod.getContainers(1).getMemoryList()).containsExactly(memory(GI, 0));

        var allocatable = stub.getAllocatableResources(PodResourcesApi.AllocatableResourcesRequest.getDefaultInstance());
        assertThat(allocatable.getDevicesList()).containsExactly(device("Dev-1"), device("Dev-2"));
        assertThat(allocatable.getCpuIdsList()).containsExactly(1L, 2L, 3L);
        assertThat(allocatable.getMemoryList()).containsExactly(memory(9 * GI, 0), memory(9 * GI, 1));
    }

    @Test
    void getAnswersOnlyWithItsGateOnAndNamesAPodItDoesNotKnow() throws Exception {
        admitted("gpu", 2);
        var off = serve(FeatureGates.of(Map.of()), Clock.systemUTC());
        var request = PodResourcesApi.GetPodResourcesRequest.newBuilder().setPodName("gpu").setPodNamespace("default")
                .build();
        assertThatThrownBy(() -> off.get(request)).isInstanceOf(StatusRuntimeException.class)
                .hasMessage("UNKNOWN: PodResources API Get method disabled");
        UnixSockets.close(channel);
        server.close();

        var on = serve(FeatureGates.of(Map.of(PodResourcesLister.GET_GATE, true)), Clock.systemUTC());
        assertThat(on.get(request).getPodResources().getContainers(0).getDevicesList())
                .containsExactly(device("Dev-1"), device("Dev-2"));
        assertThatThrownBy(() -> on.get(PodResourcesApi.GetPodResourcesRequest.newBuilder().setPodName("none")
                .setPodNamespace("kube-system").build())).isInstanceOf(StatusRuntimeException.class)
                .hasMessage("UNKNOWN: pod none in namespace kube-system not found");
    }

    @Test
    void callsBeyondTheRateLimitAreRejected() throws Exception {
        // A clock that stands still: the bucket's 10 tokens are all there is.
        var stub = serve(FeatureGates.of(Map.of()), Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC));
        for (int i = 0; i < 10; i++) {
            stub.list(PodResourcesApi.ListPodResourcesRequest.getDefaultInstance());
        }
        assertThatThrownBy(() -> stub.list(PodResourcesApi.ListPodResourcesRequest.getDefaultInstance()))
                .isInstanceOf(StatusRuntimeException.class).hasMessage("RESOURCE_EXHAUSTED: rejected by rate limit");
    }
}
