package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Upstream's own sample device plugin against jkubelet, on Docker and then on containerd, each the node of the real
 * control plane, through the same story: the plugin registers through the plugin watcher and the node shows
 * {@code example.com/resource: 2}; a pod given a device sees what the plugin's {@code Allocate} answered (a mount of the
 * device's host file); the scheduler leaves a pod asking for more than is free {@code Pending} ("Insufficient
 * example.com/resource"), and the kubelet refuses one sent straight to it with upstream's {@code UnexpectedAdmissionError};
 * the pod-resources API tells which device the pod holds; the agent restarts and the pod keeps its device (the
 * checkpoint) while the plugin registers again; the plugin restarts and registers again; the plugin goes and its devices
 * leave allocatable while its capacity stays for upstream's grace period. Both runtimes must show the same, and the
 * upstream kubelet v1.20.2 (dockershim), put through the same story first, shows it too: the plugin and the test
 * follow the protocol, not jkubelet's reading of it. Upstream's refusal message is v1.20's wording; jkubelet gives
 * v1.30's, which prefixes "Pod was rejected: ".
 */
@Tag("docker")
@Tag("containerd")
class DevicePluginIT extends ClusterNodesTestBase {
    static final String RESOURCE = SampleDevicePlugin.RESOURCE;
    /** Upstream's fixed device plugin directory (pluginapi.DevicePluginPath), whatever the kubelet's root directory. */
    static final Path DEVICE_PLUGINS = Path.of("/var/lib/kubelet/device-plugins");

    @BeforeAll
    static void buildThePlugin() throws Exception {
        KubeBinaries.ensureSampleDevicePlugin();
    }

    @AfterAll
    static void clearTheDevicePluginDirectory() throws IOException {
        clearDevicePluginDirectory();
    }

    /** What a kubelet showed in the story, for the comparison of the kubelets and runtimes (a device as "Dev-N"). */
    record Seen(String capacity, String allocatable, String unscheduled, String refusedReason, String refusedMessage,
                TreeSet<String> devices, String allocatableWithPluginGone, String capacityWithPluginGone) {}

    @Test
    void theSampleDevicePluginOnDockerAndOnContainerdAsOnTheUpstreamKubelet() throws Exception {
        Seen upstream = story(ClusterKubelet.upstreamOnDocker(cluster, dir.resolve("upstream"), "dp-up-" + suffix()), "up-");
        Seen docker = story(ClusterKubelet.onDocker(cluster, dir.resolve("docker"), "dp-jk-" + suffix()), "jk-");
        Seen containerd = story(ClusterKubelet.onContainerd(cluster, dir.resolve("containerd"), "dp-jkc-" + suffix()),
                "jkc-");

        System.out.println("upstream kubelet v1.20.2 on Docker: " + upstream);
        System.out.println("jkubelet on Docker:     " + docker);
        System.out.println("jkubelet on containerd: " + containerd);
        assertThat(upstream.refusedMessage()).isEqualTo("Pod Allocate failed due to requested number of devices "
                + "unavailable for example.com/resource. Requested: 2, Available: 1, which is unexpected");
        assertThat(docker).usingRecursiveComparison().ignoringFields("refusedMessage").isEqualTo(upstream);
        assertThat(docker.capacity()).isEqualTo("2");
        assertThat(docker.allocatable()).isEqualTo("2");
        assertThat(docker.unscheduled()).contains("Insufficient example.com/resource");
        assertThat(docker.refusedReason()).isEqualTo("UnexpectedAdmissionError");
        assertThat(docker.refusedMessage()).isEqualTo("Pod was rejected: Allocate failed due to requested "
                + "number of devices unavailable for example.com/resource. Requested: 2, Available: 1, which is unexpected");
        assertThat(docker.devices()).containsExactly("default/gpu/app example.com/resource=Dev-N");
        assertThat(docker.allocatableWithPluginGone()).isEqualTo("0");
        assertThat(docker.capacityWithPluginGone()).isEqualTo("2");
        assertThat(containerd).isEqualTo(docker);
    }

    /** The story on one jkubelet; it leaves no pod, node, plugin or container behind. */
    private Seen story(ClusterKubelet kubelet, String prefix) throws Exception {
        clearDevicePluginDirectory();
        Path pluginLog = kubelet.dir().resolve("plugin.log");
        List<SampleDevicePlugin> plugins = new ArrayList<>();
        try {
            kubelet.start();
            kubelet.awaitReady(client);
            plugins.add(SampleDevicePlugin.start(kubelet.root().resolve("plugins_registry"), pluginLog));
            awaitResource(kubelet, "2", "2");
            String capacity = resource(kubelet, true);
            String allocatable = resource(kubelet, false);

            // A pod given a device: the plugin's Allocate mounted the device's host file at /tmp/<device>.
            String gpu = prefix + "gpu";
            createPod(kubelet, gpu, 1, true);
            Pod running = awaitPhase(gpu, "Running");
            String containerId = containerId(running);
            TreeSet<String> devices = PodResourcesClient.devices(PodResourcesClient.list(kubelet.root()), prefix);
            assertThat(devices).hasSize(1);
            String device = devices.first().substring(devices.first().indexOf('=') + 1);
            assertThat(device).matches("Dev-[12]");
            assertThat(kubelet.exec(containerId, "ls", "/tmp")).contains(device);

            // Asking for both devices while one is taken: the scheduler leaves such a pod Pending, and the kubelet
            // refuses one sent to it by name at admission.
            String pending = prefix + "pending";
            createPod(kubelet, pending, 2, false);
            String unscheduled = awaitUnschedulable(pending);
            String second = prefix + "second";
            createPod(kubelet, second, 2, true);
            Pod refused = awaitPhase(second, "Failed");

            // The agent restarts: the pod keeps running with its device, and the plugin registers again.
            kubelet.stop();
            kubelet.start();
            kubelet.awaitReady(client);
            awaitResource(kubelet, "2", "2");
            assertThat(containerId(awaitPhase(gpu, "Running"))).isEqualTo(containerId);
            assertThat(PodResourcesClient.devices(PodResourcesClient.list(kubelet.root()), prefix)).isEqualTo(devices);

            // The plugin restarts (a new socket file, the watcher tells it apart) and registers again.
            plugins.getFirst().close();
            awaitResource(kubelet, "2", "0");
            plugins.add(SampleDevicePlugin.start(kubelet.root().resolve("plugins_registry"), pluginLog));
            awaitResource(kubelet, "2", "2");

            // The plugin goes: its devices leave allocatable at once; its capacity stays for upstream's grace period.
            plugins.getLast().close();
            awaitResource(kubelet, "2", "0");
            // Which of the two free devices a kubelet picks is not specified (upstream takes any: a Go set's order).
            TreeSet<String> held = new TreeSet<>(devices.stream().map(d -> d.replaceAll("Dev-[12]", "Dev-N")).toList());
            return new Seen(capacity, allocatable, unscheduled, refused.getStatus().getReason(),
                    refused.getStatus().getMessage(), held, resource(kubelet, false), resource(kubelet, true));
        } finally {
            for (SampleDevicePlugin p : plugins) {
                p.close();
            }
            for (String pod : List.of("gpu", "pending", "second")) {
                client.pods().inNamespace("default").withName(prefix + pod).withGracePeriod(0).delete();
            }
            kubelet.close();
            kubectl.run("delete", "node", kubelet.node(), "--wait=false");
        }
    }

    private static String suffix() {
        return UUID.randomUUID().toString().substring(0, 6);
    }

    /** What a kubelet leaves in the fixed directory, which the next one would otherwise read. */
    private static void clearDevicePluginDirectory() throws IOException {
        for (String f : List.of("kubelet_internal_checkpoint", "DEPRECATION", "kubelet.sock")) {
            Files.deleteIfExists(DEVICE_PLUGINS.resolve(f));
        }
    }

    private static String resource(ClusterKubelet kubelet, boolean capacity) {
        Node n = client.nodes().withName(kubelet.node()).get();
        Map<String, Quantity> list = capacity ? n.getStatus().getCapacity() : n.getStatus().getAllocatable();
        Quantity q = list == null ? null : list.get(RESOURCE);
        return q == null ? null : q.toString();
    }

    private static void awaitResource(ClusterKubelet kubelet, String capacity, String allocatable) {
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).until(() ->
                capacity.equals(resource(kubelet, true)) && allocatable.equals(resource(kubelet, false)));
    }

    /** A pod asking for {@code devices}, bound to the node by name or left to the scheduler with a node selector. */
    private static void createPod(ClusterKubelet kubelet, String name, int devices, boolean bound) {
        kubectl.runWithInput("""
                apiVersion: v1
                kind: Pod
                metadata: {name: %s, namespace: default}
                spec:
                  %s: %s
                  terminationGracePeriodSeconds: 1
                  containers:
                  - name: app
                    image: %s
                    imagePullPolicy: Never
                    command: ["sleep", "3600"]
                    resources: {limits: {%s: %d}}
                """.formatted(name, bound ? "nodeName" : "nodeSelector",
                bound ? kubelet.node() : "{kubernetes.io/hostname: " + kubelet.node() + "}", AgentTestBase.IMAGE, RESOURCE, devices), "create", "-f", "-").ok();
    }

    private static Pod awaitPhase(String name, String phase) {
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            Pod p = client.pods().inNamespace("default").withName(name).get();
            return p != null && p.getStatus() != null && phase.equals(p.getStatus().getPhase())
                    && ("Failed".equals(phase) || p.getStatus().getContainerStatuses() != null
                    && p.getStatus().getContainerStatuses().stream().allMatch(c -> Boolean.TRUE.equals(c.getReady())));
        });
        return client.pods().inNamespace("default").withName(name).get();
    }

    /** The scheduler's message on a pod it cannot place (its {@code PodScheduled} condition). */
    private static String awaitUnschedulable(String name) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).until(() -> unschedulable(name) != null);
        return unschedulable(name);
    }

    private static String unschedulable(String name) {
        Pod p = client.pods().inNamespace("default").withName(name).get();
        if (p == null || p.getStatus() == null || p.getStatus().getConditions() == null) {
            return null;
        }
        return p.getStatus().getConditions().stream()
                .filter(c -> "PodScheduled".equals(c.getType()) && "Unschedulable".equals(c.getReason()))
                .map(c -> c.getMessage()).findFirst().orElse(null);
    }

    private static String containerId(Pod pod) {
        String id = pod.getStatus().getContainerStatuses().getFirst().getContainerID();
        return id.substring(id.indexOf("://") + 3);
    }
}
