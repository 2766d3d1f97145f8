package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.jkubelet.cmd.e2e.apiserver.Kubectl;
import io.jkubelet.cmd.e2e.apiserver.MockApiserverProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The built jar as a cluster node: {@code --kubeconfig} pointing at the mock apiserver process, looked at with the
 * real kubectl, as an operator joining a node to a cluster would check it.
 */
@Tag("docker")
class ClusterNodeIT {
    static final String IMAGE = AgentTestBase.IMAGE;

    @TempDir Path dir;
    MockApiserverProcess apiserver;
    Kubectl kubectl;
    KubernetesClient client;
    Agent agent;

    @BeforeEach
    void start() throws Exception {
        apiserver = new MockApiserverProcess(dir.resolve("apiserver")).start();
        kubectl = new Kubectl(apiserver.kubeconfig);
        client = new KubernetesClientBuilder().withConfig(new ConfigBuilder().withMasterUrl(apiserver.url())
                .withNamespace("default").build()).build();
        agent = Agent.clusterNode(dir.resolve("node"), "e2e-" + UUID.randomUUID().toString().substring(0, 8),
                apiserver.kubeconfig, "--node-status-update-frequency", "2s").start();
    }

    @AfterEach
    void stop() throws Exception {
        if (agent != null) {
            agent.stop();
            Docker.removeAll(agent.nodeName);
            if (System.getenv("JK_E2E_SHOW_LOGS") != null) {
                System.out.println(agent.logText());
                System.out.println(apiserver.logText());
            }
        }
        client.close();
        apiserver.stop();
    }

    /** A pod bound to this node, as the scheduler leaves it: it handles SIGTERM, so deletion is graceful. */
    String podYaml(String name) {
        return """
                apiVersion: v1
                kind: Pod
                metadata: {name: %s, namespace: default}
                spec:
                  nodeName: %s
                  terminationGracePeriodSeconds: 10
                  containers:
                  - name: app
                    image: %s
                    imagePullPolicy: Never
                    command: ["sh", "-c", "trap 'exit 0' TERM; echo started; sleep 3600 & wait"]
                """.formatted(name, agent.nodeName, IMAGE);
    }

    void createPod(String name) {
        kubectl.runWithInput(podYaml(name), "create", "--validate=false", "-f", "-").ok();
    }

    boolean podRunning(String name) {
        Pod p = client.pods().withName(name).get();
        return p != null && p.getStatus() != null && "Running".equals(p.getStatus().getPhase())
                && p.getStatus().getPodIP() != null && !p.getStatus().getPodIP().isEmpty();
    }

    @Test
    void nodeRegistersAndIsReadyWithALease() {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() ->
                assertThat(kubectl.run("get", "nodes").out()).containsPattern(agent.nodeName + "\\s+Ready\\s"));
        var node = client.nodes().withName(agent.nodeName).get();
        assertThat(node.getMetadata().getLabels()).containsEntry("kubernetes.io/hostname", agent.nodeName)
                .containsEntry("kubernetes.io/os", "linux").containsKey("kubernetes.io/arch");
        assertThat(node.getStatus().getNodeInfo().getKubeletVersion()).isNotEmpty();
        assertThat(node.getStatus().getAddresses()).isNotEmpty();
        // The node's heartbeat: a Lease in kube-node-lease named after the node, held by it.
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(kubectl.run("get", "lease", "-n", "kube-node-lease").out())
                        .containsPattern(agent.nodeName + "\\s+" + agent.nodeName + "\\s"));
        // Registration events reach the apiserver.
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(kubectl.run("get", "events", "-A").out()).contains("node/" + agent.nodeName));
    }

    @Test
    void aPodBoundToTheNodeRunsAndShowsItsIp() {
        createPod("web");
        await("pod web Running with an IP in the apiserver").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1))
                .until(() -> podRunning("web"));
        Pod pod = client.pods().withName("web").get();
        String ip = pod.getStatus().getPodIP();
        assertThat(kubectl.run("get", "pods", "-o", "wide").ok().out())
                .containsPattern("web\\s+1/1\\s+Running\\s+0\\s+\\S+\\s+" + ip.replace(".", "\\.") + "\\s+" + agent.nodeName);
        assertThat(Docker.running(agent.nodeName, "label=io.kubernetes.pod.name=web", "label=io.kubernetes.container.name=app"))
                .hasSize(1);
        // The kubelet's events for the pod are in the apiserver.
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            List<Event> events = client.v1().events().inNamespace("default").list().getItems();
            assertThat(events).anySatisfy(e -> {
                assertThat(e.getInvolvedObject().getName()).isEqualTo("web");
                assertThat(e.getReason()).isEqualTo("Started");
                assertThat(e.getSource().getComponent()).isEqualTo("kubelet");
            });
        });
        assertThat(kubectl.run("get", "events").ok().out()).containsPattern("Started\\s+pod/web");
    }

    @Test
    void kubectlDeleteStopsTheContainersAndThePodGoes() {
        createPod("doomed");
        await("pod doomed Running in the apiserver").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1))
                .until(() -> podRunning("doomed"));
        // kubectl waits until the node's kubelet has stopped the pod and deleted it for good (grace period 0).
        assertThat(kubectl.run("delete", "pod", "doomed", "--timeout=60s").ok().out()).contains("pod \"doomed\" deleted");
        assertThat(kubectl.run("get", "pod", "doomed").err()).contains("NotFound");
        await().atMost(Duration.ofSeconds(30)).until(() ->
                Docker.running(agent.nodeName, "label=io.kubernetes.pod.name=doomed").isEmpty());
    }

    @Test
    void aStaticPodGetsAMirrorPod() throws Exception {
        agent.writeManifest("static.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: static}
                spec:
                  containers:
                  - name: app
                    image: %s
                    imagePullPolicy: Never
                    command: ["sh", "-c", "trap 'exit 0' TERM; sleep 3600 & wait"]
                """.formatted(IMAGE));
        String mirror = "static-" + agent.nodeName;
        await("mirror pod Running in the apiserver").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1))
                .until(() -> podRunning(mirror));
        Pod pod = client.pods().withName(mirror).get();
        assertThat(pod.getMetadata().getAnnotations()).containsKey("kubernetes.io/config.mirror")
                .containsEntry("kubernetes.io/config.source", "file");
        assertThat(pod.getSpec().getNodeName()).isEqualTo(agent.nodeName);
        assertThat(kubectl.run("get", "pods", "-o", "wide").ok().out()).containsPattern(mirror + "\\s+1/1\\s+Running");
        // Deleting the mirror pod does not stop the static pod: the kubelet recreates the mirror.
        String container = Docker.running(agent.nodeName, "label=io.kubernetes.container.name=app").getFirst();
        client.pods().withName(mirror).withGracePeriod(0).delete();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            Pod again = client.pods().withName(mirror).get();
            return again != null && !again.getMetadata().getUid().equals(pod.getMetadata().getUid());
        });
        assertThat(Docker.running(agent.nodeName, "label=io.kubernetes.container.name=app")).containsExactly(container);
    }

    @Test
    void losingTheApiserverNeverStopsRunningPods() throws Exception {
        createPod("steady");
        await("pod steady Running in the apiserver").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1))
                .until(() -> podRunning("steady"));
        List<String> containers = Docker.running(agent.nodeName, "label=io.kubernetes.pod.name=steady");
        assertThat(containers).isNotEmpty();
        apiserver.stop();
        // The agent keeps running its pods through the outage (retrying with back-off) ...
        await().during(Duration.ofSeconds(15)).atMost(Duration.ofSeconds(20)).until(() ->
                agent.healthz().isPresent() && Docker.running(agent.nodeName, "label=io.kubernetes.pod.name=steady").equals(containers));
        apiserver.start();
        // ... and once the apiserver is back, the same containers run and the pod is still Running there.
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() ->
                assertThat(kubectl.run("get", "nodes").out()).containsPattern(agent.nodeName + "\\s+Ready\\s"));
        assertThat(podRunning("steady")).isTrue();
        assertThat(Docker.running(agent.nodeName, "label=io.kubernetes.pod.name=steady")).isEqualTo(containers);
        assertThat(client.pods().withName("steady").get().getStatus().getContainerStatuses().getFirst().getRestartCount()).isZero();
    }
}
