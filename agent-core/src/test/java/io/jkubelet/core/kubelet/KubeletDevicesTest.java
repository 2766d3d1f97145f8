package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.cm.devicemanager.Device;
import io.jkubelet.core.cm.devicemanager.FakeDevicePlugin;
import io.jkubelet.core.cm.devicemanager.FakeDevicePluginServer;
import io.jkubelet.core.config.PodOperation;
import io.jkubelet.core.config.PodSources;
import io.jkubelet.core.config.PodUpdate;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.runtime.ContainerConfig;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.KeyValue;
import io.jkubelet.core.runtime.Mount;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static io.jkubelet.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A device plugin's devices through the whole kubelet: admission, the container's config, the node, a restart. */
class KubeletDevicesTest {
    static final String RESOURCE = "example.com/resource";

    @TempDir Path root;
    private final FakeClock clock = new FakeClock();
    private FakeRuntime runtime;
    private FakeDevicePluginServer server;
    private Kubelet kubelet;
    private final List<Pod> sourcePods = new ArrayList<>();

    @BeforeEach
    void setUp() {
        runtime = new FakeRuntime(clock);
        runtime.addImage("busybox:1.36");
        runtime.addImage("jkubelet/pause:3.9");
        start();
    }

    private void start() {
        server = new FakeDevicePluginServer(root.resolve("device-plugins"));
        kubelet = new Kubelet(TestSettings.under(root), KubeletDeps.builder(runtime, runtime,
                new LoggingEventRecorder(clock), clock).devicePlugins(server).build());
        kubelet.start();
    }

    @AfterEach
    void stop() {
        kubelet.close();
    }

    private FakeDevicePlugin registerPlugin() throws Exception {
        FakeDevicePlugin plugin = new FakeDevicePlugin(RESOURCE);
        kubelet.deviceManager().pluginConnected(RESOURCE, plugin);
        kubelet.deviceManager().pluginListAndWatchReceiver(RESOURCE,
                List.of(new Device("Dev-1", Device.HEALTHY), new Device("Dev-2", Device.HEALTHY)));
        return plugin;
    }

    private static Pod asking(String name, int devices) {
        Container c = new ContainerBuilder().withName("app").withImage("busybox:1.36").withImagePullPolicy("IfNotPresent")
                .withCommand("sleep", "3600").withEnv(new io.fabric8.kubernetes.api.model.EnvVar("OWN", "yes", null))
                .withNewResources().addToLimits(RESOURCE, new Quantity(Integer.toString(devices))).endResources().build();
        return pod(name, c);
    }

    /** The pods as the file source would send them: a snapshot, so that the source is ready once it is handled. */
    private void send(Pod... pods) {
        sourcePods.addAll(List.of(pods));
        kubelet.sourceChannel(PodSources.FILE).send(new PodUpdate(List.copyOf(sourcePods), PodOperation.SET, PodSources.FILE));
    }

    private Optional<Pod> status(String name) {
        return kubelet.views().pods().stream().filter(p -> p.getMetadata().getName().equals(name)).findFirst();
    }

    private boolean phase(String name, String phase) {
        return status(name).map(p -> p.getStatus() != null && phase.equals(p.getStatus().getPhase())).orElse(false);
    }

    private List<io.jkubelet.core.runtime.Container> running() {
        return runtime.listContainers(new ContainerFilter(null, ContainerState.CONTAINER_RUNNING, null, null));
    }

    @Test
    void aPodGivenDevicesRunsWithWhatThePluginAnsweredAndOneThatFindsNoneFreeIsRejected() throws Exception {
        registerPlugin();
        assertThat(kubelet.node().getStatus().getCapacity()).containsEntry(RESOURCE, new Quantity("2"));
        send(asking("gpu-a", 2));
        await().atMost(Duration.ofSeconds(10)).until(() -> phase("gpu-a", "Running"));

        ContainerConfig config = runtime.containerConfig(running().getFirst().id());
        // The plugin's environment comes before the container's own, its mounts before the kubelet's.
        assertThat(config.envs()).startsWith(new KeyValue("FAKE_DEVICES", "Dev-1,Dev-2")).contains(new KeyValue("OWN", "yes"));
        assertThat(config.mounts()).startsWith(new Mount("/tmp/Dev-1", "/tmp/Dev-1", false),
                new Mount("/tmp/Dev-2", "/tmp/Dev-2", false));
        assertThat(config.devices()).containsExactly(new io.jkubelet.core.runtime.Device("/dev/fake", "/dev/null", "rw"));
        assertThat(config.annotations()).containsEntry("fake.example.com/devices", "2");

        send(asking("gpu-b", 1));
        await().atMost(Duration.ofSeconds(10)).until(() -> phase("gpu-b", "Failed"));
        var st = status("gpu-b").orElseThrow().getStatus();
        assertThat(st.getReason()).isEqualTo("UnexpectedAdmissionError");
        assertThat(st.getMessage()).isEqualTo("Pod was rejected: Allocate failed due to requested number of devices "
                + "unavailable for example.com/resource. Requested: 1, Available: 0, which is unexpected");
        assertThat(running()).hasSize(1);
    }

    @Test
    void aRestartedKubeletKeepsThePodsDevicesFromTheCheckpointBeforeThePluginIsBack() throws Exception {
        registerPlugin();
        send(asking("gpu-a", 1));
        await().atMost(Duration.ofSeconds(10)).until(() -> phase("gpu-a", "Running"));
        String container = running().getFirst().id();

        kubelet.close();
        sourcePods.clear();
        start();
        // The plugin has not registered again: the resource is known with no devices, and the running pod is
        // admitted again with the devices the checkpoint says it holds.
        assertThat(kubelet.node().getStatus().getCapacity()).containsEntry(RESOURCE, new Quantity("0"));
        send(asking("gpu-a", 1));
        await().atMost(Duration.ofSeconds(10)).until(() -> phase("gpu-a", "Running"));
        assertThat(running()).extracting(io.jkubelet.core.runtime.Container::id).containsExactly(container);
        assertThat(kubelet.deviceManager().devices("uid-gpu-a", "app").get(RESOURCE)).containsOnlyKeys("Dev-1");

        FakeDevicePlugin again = registerPlugin();
        send(asking("gpu-b", 1));
        await().atMost(Duration.ofSeconds(10)).until(() -> phase("gpu-b", "Running"));
        assertThat(again.allocateCalls).containsExactly(List.of("Dev-2"));
    }
}
