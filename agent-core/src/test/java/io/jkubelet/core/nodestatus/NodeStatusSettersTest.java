package io.jkubelet.core.nodestatus;

import io.fabric8.kubernetes.api.model.ContainerImage;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeSystemInfo;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.apis.config.Taint;
import io.jkubelet.core.runtime.Image;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static io.jkubelet.core.nodestatus.NodeStatusFixtures.GI;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NodeStatusSettersTest {
    private final FakeClock clock = new FakeClock(Instant.parse("2026-12-03T10:00:00Z"));
    private final NodeStatusFixtures.Health health = new NodeStatusFixtures.Health();
    private final NodeStatusFixtures.Events events = new NodeStatusFixtures.Events();
    private final NodeStatusFixtures.Images images = new NodeStatusFixtures.Images();

    private Node computed(KubeletConfiguration config) {
        Node node = new Node();
        NodeStatusFixtures.setters(config, images, health, clock, events).setNodeStatus(node);
        return node;
    }

    @Test
    void capacityIsTheMachineAndAllocatableSubtractsReservationsAndHardEvictionThresholds() {
        KubeletConfiguration config = NodeStatusFixtures.configBuilder()
                .systemReserved(Map.of("cpu", "500m", "memory", "1Gi"))
                .kubeReserved(Map.of("memory", "512Mi"))
                .build();
        Node node = computed(config);

        assertThat(node.getStatus().getCapacity()).hasToString(
                "{cpu=4, memory=8Gi, pods=110, ephemeral-storage=100Gi}");
        // memory: 8Gi - 1Gi - 512Mi - 100Mi (memory.available); ephemeral-storage: 100Gi - 10% (nodefs.available)
        assertThat(node.getStatus().getAllocatable()).hasToString(
                "{cpu=3500m, memory=6556Mi, pods=110, ephemeral-storage=90Gi}");
    }

    @Test
    void podsPerCoreCapsThePodCapacityAtThatManyPodsACore() {
        // The fixture machine has 4 cores: 4 x 10 = 40 pods, below maxPods; 4 x 50 = 200 is above it.
        assertThat(computed(NodeStatusFixtures.configBuilder().podsPerCore(10).build()).getStatus().getCapacity()
                .get("pods")).hasToString("40");
        assertThat(computed(NodeStatusFixtures.configBuilder().podsPerCore(10).build()).getStatus().getAllocatable()
                .get("pods")).hasToString("40");
        assertThat(computed(NodeStatusFixtures.configBuilder().podsPerCore(50).build()).getStatus().getCapacity()
                .get("pods")).hasToString("110");
        assertThat(NodeResources.podCapacity(110, 0, 4)).isEqualTo(110);
    }

    @Test
    void allocatableNeverGoesBelowZeroAndABadReservationNamesTheField() {
        Map<String, io.fabric8.kubernetes.api.model.Quantity> cap = NodeResources.capacity(
                NodeStatusFixtures.MACHINE, 110);
        assertThat(NodeResources.allocatable(cap, Map.of("cpu", "8"), Map.of(), Map.of()).get("cpu")).hasToString("0");
        assertThatThrownBy(() -> NodeResources.allocatable(cap, Map.of(), Map.of("memory", "lots"), Map.of()))
                .hasMessage("kubeReserved[memory]: invalid quantity \"lots\"");
    }

    @Test
    void nodeInfoAddressesAndEndpointAreReported() {
        Node node = computed(NodeStatusFixtures.configBuilder().port(10350).build());
        NodeSystemInfo info = node.getStatus().getNodeInfo();
        assertThat(info.getMachineID()).isEqualTo("machine-1");
        assertThat(info.getSystemUUID()).isEqualTo("uuid-1");
        assertThat(info.getBootID()).isEqualTo("boot-1");
        assertThat(info.getKernelVersion()).isEqualTo("6.1.0-test");
        assertThat(info.getOsImage()).isEqualTo("Debian GNU/Linux 12 (bookworm)");
        assertThat(info.getOperatingSystem()).isEqualTo("linux");
        assertThat(info.getArchitecture()).isEqualTo(NodeStatusSetters.architecture());
        assertThat(info.getContainerRuntimeVersion()).isEqualTo("fake://0.1.0");
        assertThat(info.getKubeletVersion()).isEqualTo("v1.30.0");
        assertThat(info.getKubeProxyVersion()).isEqualTo("v1.30.0");
        assertThat(node.getStatus().getAddresses()).extracting(a -> a.getType() + "=" + a.getAddress())
                .containsExactly("InternalIP=10.0.0.5", "Hostname=node-a");
        assertThat(node.getStatus().getDaemonEndpoints().getKubeletEndpoint().getPort()).isEqualTo(10350);
    }

    @Test
    void imagesAreTheLargestFirstWithDigestsThenTagsUpToTheMaximum() {
        images.images.add(new Image("sha256:small", List.of("small:1"), List.of(), 10, null, ""));
        images.images.add(new Image("sha256:big", List.of("big:1", "big:latest"), List.of("big@sha256:d"), 300, null, ""));
        images.images.add(new Image("sha256:mid", List.of("mid:1"), List.of(), 200, null, ""));
        Node node = computed(NodeStatusFixtures.configBuilder().nodeStatusMaxImages(2).build());
        assertThat(node.getStatus().getImages()).extracting(ContainerImage::getNames, ContainerImage::getSizeBytes)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(List.of("big@sha256:d", "big:1", "big:latest"), 300L),
                        org.assertj.core.groups.Tuple.tuple(List.of("mid:1"), 200L));
    }

    @Test
    void conditionsStartWithTheirTransitionAndOnlyHeartbeatWhileNothingChanges() {
        KubeletConfiguration config = NodeStatusFixtures.config();
        NodeStatusSetters setters = NodeStatusFixtures.setters(config, images, health, clock, events);
        Node node = new Node();
        setters.setNodeStatus(node);
        assertThat(node.getStatus().getConditions()).extracting(c -> c.getType() + " " + c.getStatus() + " "
                + c.getReason() + " " + c.getMessage() + " " + c.getLastTransitionTime()).containsExactly(
                "MemoryPressure False KubeletHasSufficientMemory kubelet has sufficient memory available 2026-12-03T10:00:00Z",
                "DiskPressure False KubeletHasNoDiskPressure kubelet has no disk pressure 2026-12-03T10:00:00Z",
                "PIDPressure False KubeletHasSufficientPID kubelet has sufficient PID available 2026-12-03T10:00:00Z",
                "Ready True KubeletReady kubelet is posting ready status 2026-12-03T10:00:00Z");

        Node before = NodeStatusDiff.copy(node, Node.class);
        clock.advance(Duration.ofSeconds(10));
        setters.setNodeStatus(node);
        assertThat(node.getStatus().getConditions()).allSatisfy(c -> {
            assertThat(c.getLastHeartbeatTime()).isEqualTo("2026-12-03T10:00:10Z");
            assertThat(c.getLastTransitionTime()).isEqualTo("2026-12-03T10:00:00Z");
        });
        assertThat(NodeStatusDiff.hasChanged(before.getStatus(), node.getStatus()))
                .as("heartbeat times alone are no change").isFalse();
    }

    @Test
    void runtimeErrorsMakeTheNodeNotReadyWithTheirMessagesAndAnEvent() {
        NodeStatusSetters setters = NodeStatusFixtures.setters(NodeStatusFixtures.config(), images, health, clock, events);
        Node node = new Node();
        setters.setNodeStatus(node);
        Node before = NodeStatusDiff.copy(node, Node.class);
        assertThat(events.seen).as("the first status records the pressure conditions' starting state, as upstream")
                .contains("Node/node-a Normal NodeHasSufficientMemory: Node node-a status is now: NodeHasSufficientMemory");
        events.seen.clear();

        clock.advance(Duration.ofMinutes(1));
        health.errors = List.of("container runtime is down");
        setters.setNodeStatus(node);
        NodeCondition ready = NodeConditions.find(node, "Ready");
        assertThat(ready.getStatus()).isEqualTo("False");
        assertThat(ready.getReason()).isEqualTo("KubeletNotReady");
        assertThat(ready.getMessage()).isEqualTo("container runtime is down");
        assertThat(ready.getLastTransitionTime()).isEqualTo("2026-12-03T10:01:00Z");
        assertThat(NodeStatusDiff.hasChanged(before.getStatus(), node.getStatus())).isTrue();
        assertThat(events.seen).containsExactly("Node/node-a Normal NodeNotReady: Node node-a status is now: NodeNotReady");

        health.errors = List.of("container runtime is down", "PLEG is not healthy: pleg was last seen active 3m1s ago; threshold is 3m0s");
        setters.setNodeStatus(node);
        assertThat(NodeConditions.find(node, "Ready").getMessage()).isEqualTo(
                "[container runtime is down, PLEG is not healthy: pleg was last seen active 3m1s ago; threshold is 3m0s]");
    }

    @Test
    void memoryPressureFlipsTheConditionWithTheUpstreamReason() {
        NodeStatusSetters setters = NodeStatusFixtures.setters(NodeStatusFixtures.config(), images, health, clock, events);
        Node node = new Node();
        setters.setNodeStatus(node);
        health.memoryPressure = true;
        clock.advance(Duration.ofSeconds(10));
        setters.setNodeStatus(node);
        NodeCondition c = NodeConditions.find(node, "MemoryPressure");
        assertThat(c.getStatus()).isEqualTo("True");
        assertThat(c.getReason()).isEqualTo("KubeletHasInsufficientMemory");
        assertThat(c.getMessage()).isEqualTo("kubelet has insufficient memory available");
        assertThat(c.getLastTransitionTime()).isEqualTo("2026-12-03T10:00:10Z");
        assertThat(events.seen).contains("Node/node-a Normal NodeHasInsufficientMemory: Node node-a status is now: NodeHasInsufficientMemory");
    }

    @Test
    void runtimeStateReportsAMissingOrStaleRuntimeCheckAndUnhealthyChecks() {
        java.util.concurrent.atomic.AtomicReference<java.util.Optional<String>> pleg =
                new java.util.concurrent.atomic.AtomicReference<>(java.util.Optional.empty());
        RuntimeState state = new RuntimeState(clock, List.of(new RuntimeState.HealthCheck("PLEG", pleg::get)));
        assertThat(state.readinessErrors()).containsExactly("container runtime status check may not have completed yet");
        state.check(new io.jkubelet.core.runtime.testing.FakeRuntime(clock));
        assertThat(state.readinessErrors()).isEmpty();
        clock.advance(Duration.ofSeconds(30));
        pleg.set(java.util.Optional.of("pleg was last seen active 3m1s ago; threshold is 3m0s"));
        assertThat(state.readinessErrors()).containsExactly("container runtime is down",
                "PLEG is not healthy: pleg was last seen active 3m1s ago; threshold is 3m0s");
    }

    @Test
    void aNodeShuttingDownIsNotReadyWithTheShutdownManagersErrorLast() {
        java.util.concurrent.atomic.AtomicReference<java.util.Optional<String>> shutdown =
                new java.util.concurrent.atomic.AtomicReference<>(java.util.Optional.empty());
        RuntimeState state = new RuntimeState(clock, List.of(), NodePressure.NONE, shutdown::get);
        state.check(new io.jkubelet.core.runtime.testing.FakeRuntime(clock));
        assertThat(state.readinessErrors()).isEmpty();
        shutdown.set(java.util.Optional.of("node is shutting down"));
        assertThat(state.readinessErrors()).containsExactly("node is shutting down");
        clock.advance(Duration.ofSeconds(30));
        assertThat(state.readinessErrors()).containsExactly("container runtime is down", "node is shutting down");
    }

    @Test
    void runtimeStateReportsTheEvictionManagersPressure() {
        NodePressure pressure = new NodePressure() {
            @Override
            public boolean memoryPressure() {
                return false;
            }

            @Override
            public boolean diskPressure() {
                return true;
            }

            @Override
            public boolean pidPressure() {
                return true;
            }
        };
        RuntimeState state = new RuntimeState(clock, List.of(), pressure);
        Node node = new Node();
        NodeStatusFixtures.setters(NodeStatusFixtures.configBuilder().build(), images, state, clock, events)
                .setNodeStatus(node);

        assertThat(NodeConditions.find(node, "MemoryPressure").getStatus()).isEqualTo("False");
        NodeCondition disk = NodeConditions.find(node, "DiskPressure");
        assertThat(disk.getStatus()).isEqualTo("True");
        assertThat(disk.getReason()).isEqualTo("KubeletHasDiskPressure");
        assertThat(disk.getMessage()).isEqualTo("kubelet has disk pressure");
        NodeCondition pid = NodeConditions.find(node, "PIDPressure");
        assertThat(pid.getReason()).isEqualTo("KubeletHasInsufficientPID");
        assertThat(pid.getMessage()).isEqualTo("kubelet has insufficient PID available");
        assertThat(events.seen).contains("Node/node-a Normal NodeHasDiskPressure: Node node-a status is now: NodeHasDiskPressure");
    }

    @Test
    void initialNodeCarriesDefaultAndFlagLabelsTaintsAndTheAttachDetachAnnotation() {
        KubeletConfiguration config = NodeStatusFixtures.configBuilder()
                .registerWithTaints(List.of(new Taint("dedicated", "edge", "NoSchedule")))
                .build();
        Node node = InitialNode.build(NodeStatusFixtures.IDENTITY, config,
                NodeStatusFixtures.setters(config, images, health, clock, events));
        assertThat(node.getMetadata().getName()).isEqualTo("node-a");
        assertThat(node.getMetadata().getLabels()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "kubernetes.io/hostname", "node-a", "kubernetes.io/os", "linux",
                "kubernetes.io/arch", NodeStatusSetters.architecture(), "beta.kubernetes.io/os", "linux",
                "beta.kubernetes.io/arch", NodeStatusSetters.architecture(), "role", "edge"));
        assertThat(node.getMetadata().getAnnotations())
                .containsEntry("volumes.kubernetes.io/controller-managed-attach-detach", "true");
        assertThat(node.getSpec().getTaints()).extracting(t -> t.getKey() + "=" + t.getValue() + ":" + t.getEffect())
                .containsExactly("dedicated=edge:NoSchedule");
        assertThat(node.getStatus().getCapacity()).containsKey("cpu");
    }

    @Test
    void withoutControllerAttachDetachTheNodeHasNoAttachDetachAnnotationAndCarriesItsProviderID() {
        KubeletConfiguration config = NodeStatusFixtures.configBuilder().enableControllerAttachDetach(false)
                .providerID("aws:///eu-west-1a/i-0123456789").build();
        Node node = InitialNode.build(NodeStatusFixtures.IDENTITY, config,
                NodeStatusFixtures.setters(config, images, health, clock, events));
        assertThat(node.getMetadata().getAnnotations() == null ? Map.of() : node.getMetadata().getAnnotations())
                .doesNotContainKey("volumes.kubernetes.io/controller-managed-attach-detach");
        assertThat(node.getSpec().getProviderID()).isEqualTo("aws:///eu-west-1a/i-0123456789");
    }

    @Test
    void machineInfoIsReadFromTheHostFiles(@TempDir Path root) throws Exception {
        write(root, "proc/meminfo", "MemTotal:        8141680 kB\nMemFree: 1 kB\n");
        write(root, "etc/machine-id", "abc123\n");
        write(root, "proc/sys/kernel/random/boot_id", "boot-xyz\n");
        write(root, "proc/sys/kernel/osrelease", "6.1.0-28-amd64\n");
        write(root, "etc/os-release", "NAME=\"Debian\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n");
        MachineInfo m = MachineInfo.read(root, root.resolve("var/lib/kubelet"));
        assertThat(m.memoryCapacity()).isEqualTo(8141680L * 1024);
        assertThat(m.machineId()).isEqualTo("abc123");
        assertThat(m.systemUuid()).isEmpty();
        assertThat(m.bootId()).isEqualTo("boot-xyz");
        assertThat(m.kernelVersion()).isEqualTo("6.1.0-28-amd64");
        assertThat(m.osImage()).isEqualTo("Debian GNU/Linux 12 (bookworm)");
        assertThat(m.rootFsCapacity()).isPositive();
        assertThat(NodeResources.bytes(m.memoryCapacity())).hasToString("8141680Ki");
        assertThat(NodeResources.bytes(5 * GI + 1)).hasToString(Long.toString(5 * GI + 1));
    }

    private static void write(Path root, String file, String content) throws Exception {
        Path p = root.resolve(file);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
    }
}
