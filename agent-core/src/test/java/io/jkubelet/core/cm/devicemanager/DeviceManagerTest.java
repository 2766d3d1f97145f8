package io.jkubelet.core.cm.devicemanager;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.admission.PodAdmitResult;
import io.jkubelet.core.admission.testing.AdmittedPods;
import io.jkubelet.core.cm.topologymanager.TopologyManager;
import io.jkubelet.core.kuberuntime.RunContainerOptions;
import io.jkubelet.core.runtime.KeyValue;
import io.jkubelet.core.runtime.Mount;
import io.jkubelet.core.testing.FakeClock;
import io.jkubelet.core.testing.Pods;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The device manager against plugins in memory: what upstream's ManagerImpl does with each answer. */
class DeviceManagerTest {
    static final String RESOURCE = "example.com/resource";

    @TempDir
    Path dir;
    final FakeClock clock = new FakeClock();
    final AdmittedPods admittedPods = new AdmittedPods();
    final List<Pod> active = admittedPods.list();
    DeviceManager manager;
    TopologyManager admission;

    @BeforeEach
    void start() throws Exception {
        manager = started();
    }

    private DeviceManager started() throws Exception {
        DeviceManager m = new DeviceManager(new FakeDevicePluginServer(dir), clock);
        m.start(() -> List.copyOf(active), () -> true, (uid, name) -> false);
        admission = TopologyManager.none(m);
        return m;
    }

    private FakeDevicePlugin register(String resource, Device... devices) throws Exception {
        return register(new FakeDevicePlugin(resource), devices);
    }

    private FakeDevicePlugin register(FakeDevicePlugin plugin, Device... devices) throws Exception {
        manager.pluginConnected(plugin.resource(), plugin);
        manager.pluginListAndWatchReceiver(plugin.resource(), List.of(devices));
        return plugin;
    }

    private static Pod podAsking(String name, int devices) {
        return Pods.pod(name, Pods.container("app", "", RESOURCE + "=" + devices));
    }

    /** As the kubelet admits: the pod is among the active pods while it is admitted, and leaves them when refused. */
    private PodAdmitResult admit(Pod pod) {
        return admittedPods.admit(admission, pod);
    }

    @Test
    void aRegisteredPluginsDevicesAreTheNodesCapacityAndItsHealthyOnesAllocatable() throws Exception {
        register(RESOURCE, new Device("Dev-1", Device.HEALTHY), new Device("Dev-2", Device.HEALTHY),
                new Device("Dev-3", Device.UNHEALTHY));
        DeviceCapacity c = manager.getCapacity();
        assertThat(c.capacity()).containsExactly(Map.entry(RESOURCE, 3L));
        assertThat(c.allocatable()).containsExactly(Map.entry(RESOURCE, 2L));
        assertThat(c.deleted()).isEmpty();
    }

    @Test
    void aMalformedDeviceListCountsEachIdOnceAndAnUnknownHealthAsUnhealthy() throws Exception {
        register(RESOURCE, new Device("Dev-1", Device.HEALTHY), new Device("Dev-1", Device.HEALTHY),
                new Device("Dev-2", "Bogus"), new Device("", Device.HEALTHY));
        DeviceCapacity c = manager.getCapacity();
        // Upstream counts the empty ID as a device too: it validates nothing.
        assertThat(c.capacity()).containsEntry(RESOURCE, 3L);
        assertThat(c.allocatable()).containsEntry(RESOURCE, 2L);
    }

    @Test
    void aPluginThatGoesMakesItsDevicesUnhealthyAtOnceAndItsResourceGoesAfterTheGracePeriod() throws Exception {
        FakeDevicePlugin p = register(RESOURCE, new Device("Dev-1", Device.HEALTHY), new Device("Dev-2", Device.HEALTHY));
        FakeDevicePlugin other = register("other.com/thing", new Device("T-1", Device.HEALTHY));
        manager.pluginDisconnected(RESOURCE, p);

        DeviceCapacity c = manager.getCapacity();
        assertThat(c.capacity()).containsEntry(RESOURCE, 2L).containsEntry("other.com/thing", 1L);
        assertThat(c.allocatable()).containsEntry(RESOURCE, 0L).containsEntry("other.com/thing", 1L);

        clock.advance(Duration.ofMinutes(5));
        assertThat(manager.getCapacity().deleted()).isEmpty();
        clock.advance(Duration.ofSeconds(1));
        c = manager.getCapacity();
        assertThat(c.deleted()).containsExactly(RESOURCE);
        assertThat(c.capacity()).doesNotContainKey(RESOURCE).containsEntry("other.com/thing", 1L);
        assertThat(manager.getCapacity().deleted()).isEmpty();
        assertThat(other.allocateCalls).isEmpty();
    }

    @Test
    void aNewRegistrationBeforeTheOldStreamEndedKeepsTheResourceHealthy() throws Exception {
        FakeDevicePlugin old = register(RESOURCE, new Device("Dev-1", Device.HEALTHY));
        register(new FakeDevicePlugin(RESOURCE, "/var/lib/kubelet/device-plugins/new.sock", DevicePluginOptions.NONE),
                new Device("Dev-1", Device.HEALTHY));
        manager.pluginDisconnected(RESOURCE, old);
        assertThat(manager.getCapacity().allocatable()).containsEntry(RESOURCE, 1L);
    }

    @Test
    void aPodIsGivenFreeDevicesAndItsContainerGetsWhatThePluginAnswered() throws Exception {
        FakeDevicePlugin p = register(RESOURCE, new Device("Dev-1", Device.HEALTHY), new Device("Dev-2", Device.HEALTHY));
        Pod pod = podAsking("a", 1);
        assertThat(admit(pod).admit()).isTrue();
        assertThat(p.allocateCalls).containsExactly(List.of("Dev-1"));

        RunContainerOptions opts = manager.deviceRunContainerOptions(pod, pod.getSpec().getContainers().getFirst());
        assertThat(opts.envs()).containsExactly(new KeyValue("FAKE_DEVICES", "Dev-1"));
        assertThat(opts.mounts()).containsExactly(new Mount("/tmp/Dev-1", "/tmp/Dev-1", false));
        assertThat(opts.devices()).containsExactly(new io.jkubelet.core.runtime.Device("/dev/fake", "/dev/null", "rw"));
        assertThat(opts.annotations()).containsExactly(Map.entry("fake.example.com/devices", "1"));
        assertThat(manager.devices("uid-a", "app")).containsOnlyKeys(RESOURCE);
        assertThat(manager.devices("uid-a", "app").get(RESOURCE)).containsOnlyKeys("Dev-1");
    }

    @Test
    void aPodThatAsksForMoreThanIsFreeIsRefusedWithUpstreamsReasonAndTheOthersKeepTheirs() throws Exception {
        register(RESOURCE, new Device("Dev-1", Device.HEALTHY), new Device("Dev-2", Device.HEALTHY));
        assertThat(admit(podAsking("a", 2)).admit()).isTrue();

        PodAdmitResult refused = admit(podAsking("b", 1));
        assertThat(refused.admit()).isFalse();
        assertThat(refused.reason()).isEqualTo("UnexpectedAdmissionError");
        assertThat(refused.message()).isEqualTo("Allocate failed due to requested number of devices unavailable for "
                + "example.com/resource. Requested: 1, Available: 0, which is unexpected");
        assertThat(manager.devices("uid-a", "app").get(RESOURCE)).containsOnlyKeys("Dev-1", "Dev-2");
        assertThat(manager.devices("uid-b", "app")).isEmpty();
    }

    @Test
    void anUnregisteredOrUnhealthyResourceIsRefusedAsUpstreamRefusesIt() throws Exception {
        FakeDevicePlugin p = register(RESOURCE, new Device("Dev-1", Device.HEALTHY));
        manager.pluginDisconnected(RESOURCE, p);
        assertThat(admit(podAsking("a", 1)).message()).isEqualTo("Allocate failed due to no healthy devices present; "
                + "cannot allocate unhealthy devices example.com/resource, which is unexpected");
    }

    @Test
    void aPluginThatAnswersAllocateWithAnErrorRefusesThePodAndLeavesTheDevicesFree() throws Exception {
        FakeDevicePlugin p = register(RESOURCE, new Device("Dev-1", Device.HEALTHY), new Device("Dev-2", Device.HEALTHY));
        assertThat(admit(podAsking("a", 1)).admit()).isTrue();
        p.allocateError = "rpc error: code = Unknown desc = invalid allocation request with unhealthy device: Dev-2";

        PodAdmitResult refused = admit(podAsking("b", 1));
        assertThat(refused.reason()).isEqualTo("UnexpectedAdmissionError");
        assertThat(refused.message()).isEqualTo("Allocate failed due to rpc error: code = Unknown desc = invalid allocation "
                + "request with unhealthy device: Dev-2, which is unexpected");

        p.allocateError = null;
        assertThat(admit(podAsking("c", 1)).admit()).isTrue();
        assertThat(manager.devices("uid-c", "app").get(RESOURCE)).containsOnlyKeys("Dev-2");
        assertThat(manager.devices("uid-a", "app").get(RESOURCE)).containsOnlyKeys("Dev-1");
    }

    @Test
    void anAllocateAnswerWithoutContainerResponsesIsRefused() throws Exception {
        FakeDevicePlugin p = register(RESOURCE, new Device("Dev-1", Device.HEALTHY));
        p.noContainerResponses = true;
        assertThat(admit(podAsking("a", 1)).message())
                .isEqualTo("Allocate failed due to no containers return in allocation response [], which is unexpected");
    }

    @Test
    void theDevicesOfPodsNoLongerActiveAreFreedAtTheNextAllocation() throws Exception {
        register(RESOURCE, new Device("Dev-1", Device.HEALTHY));
        Pod a = podAsking("a", 1);
        assertThat(admit(a).admit()).isTrue();
        active.remove(a);
        assertThat(admit(podAsking("b", 1)).admit()).isTrue();
        assertThat(manager.devices("uid-b", "app").get(RESOURCE)).containsOnlyKeys("Dev-1");
        assertThat(manager.devices("uid-a", "app")).isEmpty();
    }

    @Test
    void anInitContainersDevicesAreGivenAgainToTheAppContainerButASidecarKeepsItsOwn() throws Exception {
        register(RESOURCE, new Device("Dev-1", Device.HEALTHY), new Device("Dev-2", Device.HEALTHY));
        Pod pod = Pods.pod("p", "Always", List.of(Pods.container("init", "", RESOURCE + "=1")),
                List.of(Pods.container("app", "", RESOURCE + "=1")));
        assertThat(admit(pod).admit()).isTrue();
        assertThat(manager.devices("uid-p", "init").get(RESOURCE).keySet())
                .isEqualTo(manager.devices("uid-p", "app").get(RESOURCE).keySet());

        Pod withSidecar = Pods.pod("s", "Always", List.of(Pods.sidecar("side", "", RESOURCE + "=1")),
                List.of(Pods.container("app", "", RESOURCE + "=1")));
        active.clear();
        assertThat(admit(withSidecar).admit()).isTrue();
        assertThat(manager.devices("uid-s", "side").get(RESOURCE).keySet())
                .doesNotContainAnyElementsOf(manager.devices("uid-s", "app").get(RESOURCE).keySet());
    }

    @Test
    void thePluginsPreferredDevicesAreTakenWhenItOffersThem() throws Exception {
        FakeDevicePlugin p = register(new FakeDevicePlugin(RESOURCE, "/x.sock", new DevicePluginOptions(false, true)),
                new Device("Dev-1", Device.HEALTHY), new Device("Dev-2", Device.HEALTHY));
        p.preferred = List.of("Dev-2");
        assertThat(admit(podAsking("a", 1)).admit()).isTrue();
        assertThat(p.preferredCalls).containsExactly(List.of("Dev-1", "Dev-2"));
        assertThat(manager.devices("uid-a", "app").get(RESOURCE)).containsOnlyKeys("Dev-2");
    }

    @Test
    void preStartContainerIsCalledBeforeEachStartWhenThePluginAskedAndItsErrorStopsTheStart() throws Exception {
        FakeDevicePlugin p = register(new FakeDevicePlugin(RESOURCE, "/x.sock", new DevicePluginOptions(true, false)),
                new Device("Dev-1", Device.HEALTHY));
        Pod pod = podAsking("a", 1);
        Container app = pod.getSpec().getContainers().getFirst();
        assertThat(admit(pod).admit()).isTrue();
        manager.deviceRunContainerOptions(pod, app);
        assertThat(p.preStartCalls).containsExactly(List.of("Dev-1"));

        p.preStartError = "rpc error: code = Unknown desc = device busy";
        assertThatThrownBy(() -> manager.deviceRunContainerOptions(pod, app)).isInstanceOf(AllocationException.class)
                .hasMessage("device plugin PreStartContainer rpc failed with err: rpc error: code = Unknown desc = device busy");
    }

    @Test
    void assignmentsSurviveARestartThroughTheCheckpointAndTheResourceWaitsForItsPlugin() throws Exception {
        register(RESOURCE, new Device("Dev-1", Device.HEALTHY), new Device("Dev-2", Device.HEALTHY));
        Pod pod = podAsking("a", 1);
        assertThat(admit(pod).admit()).isTrue();
        assertThat(Files.exists(dir.resolve("kubelet_internal_checkpoint"))).isTrue();

        manager.stop();
        manager = started();
        DeviceCapacity c = manager.getCapacity();
        assertThat(c.capacity()).containsEntry(RESOURCE, 0L);
        assertThat(manager.devices("uid-a", "app").get(RESOURCE)).containsOnlyKeys("Dev-1");
        assertThat(manager.deviceRunContainerOptions(pod, pod.getSpec().getContainers().getFirst()).envs())
                .containsExactly(new KeyValue("FAKE_DEVICES", "Dev-1"));

        register(RESOURCE, new Device("Dev-1", Device.HEALTHY), new Device("Dev-2", Device.HEALTHY));
        assertThat(admit(podAsking("b", 1)).admit()).isTrue();
        assertThat(manager.devices("uid-b", "app").get(RESOURCE)).containsOnlyKeys("Dev-2");
    }

    @Test
    void aPluginsUpdateArrivingAfterTheStopLeavesTheCheckpointAsTheStopFoundIt() throws Exception {
        FakeDevicePlugin p = register(RESOURCE, new Device("Dev-1", Device.HEALTHY));
        Path file = dir.resolve("kubelet_internal_checkpoint");
        String atStop = Files.readString(file);

        manager.stop();
        // A ListAndWatch answer that was on its way when the plugin's connection closed, on a gRPC thread.
        manager.pluginListAndWatchReceiver(p.resource(), List.of(new Device("Dev-1", Device.HEALTHY),
                new Device("Dev-2", Device.HEALTHY)));
        assertThat(Files.readString(file)).isEqualTo(atStop);
        try (var entries = Files.list(dir)) {
            assertThat(entries.map(e -> e.getFileName().toString())).containsExactly("kubelet_internal_checkpoint");
        }

        manager = started();
        register(RESOURCE, new Device("Dev-1", Device.HEALTHY), new Device("Dev-2", Device.HEALTHY));
        assertThat(Files.readString(file)).contains("Dev-2");
    }

    @Test
    void aCorruptCheckpointIsLoggedAndTheManagerStartsEmpty() throws Exception {
        Files.writeString(dir.resolve("kubelet_internal_checkpoint"), "{\"Data\":{\"PodDeviceEntries\":null,"
                + "\"RegisteredDevices\":{\"example.com/resource\":[]}},\"Checksum\":1}");
        manager = started();
        assertThat(manager.getCapacity().capacity()).isEmpty();
    }

    @Test
    void theNodesAllocatableIsRaisedToWhatAdmittedPodsHoldWhenThePluginIsGone() throws Exception {
        FakeDevicePlugin p = register(RESOURCE, new Device("Dev-1", Device.HEALTHY), new Device("Dev-2", Device.HEALTHY));
        Pod pod = podAsking("a", 2);
        assertThat(admit(pod).admit()).isTrue();
        manager.pluginDisconnected(RESOURCE, p);
        assertThat(manager.updatePluginResources(pod, Map.of(RESOURCE, 0L))).containsEntry(RESOURCE, 2L);
        assertThat(manager.updatePluginResources(podAsking("none", 1), Map.of(RESOURCE, 0L))).containsEntry(RESOURCE, 0L);
    }

    @Test
    void startRemovesTheSocketsOfTheLastRunButNotTheCheckpoint() throws Exception {
        Files.writeString(dir.resolve("DEPRECATION"), "");
        try (var ch = java.nio.channels.ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
            ch.bind(java.net.UnixDomainSocketAddress.of(dir.resolve("dp.123")));
            manager.stop();
            manager = started();
        }
        assertThat(dir.resolve("dp.123")).doesNotExist();
        assertThat(dir.resolve("DEPRECATION")).exists();
    }
}
