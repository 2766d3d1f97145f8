package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.runtime.Container;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.PodSandbox;
import io.jkubelet.core.runtime.PodSandboxFilter;
import io.jkubelet.core.runtime.testing.RuntimePods;
import io.jkubelet.cri.CriRuntime;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a pod does on containerd as on Docker, through the built jar: init containers and a sidecar in their order,
 * probes (exec through ExecSync, HTTP to the pod IP) with the restarts they cause, a host-network pod, and pods
 * adopted, not recreated, by the next agent.
 */
class ContainerdPodsIT extends ContainerdTestBase {

    @Test
    void initContainersRunInOrderBesideASidecarThatIsStoppedLast() throws Exception {
        startAgent();
        Path out = Files.createDirectories(dir.resolve("out"));
        String logger = "trap 'echo %1$s-TERM >> /out/order; exit 0' TERM; echo %1$s-start >> /out/order; while true; do sleep 1; done";
        agent.writeManifest("side.yaml", E2ePods.sidecar(out, logger.formatted("proxy"), logger.formatted("app")));

        Pod pod = awaitPod("side", Duration.ofSeconds(90), p -> "Running".equals(p.getStatus().getPhase())
                && container(p, "app").map(c -> c.getState().getRunning() != null).orElse(false));
        ContainerStatus proxy = initContainer(pod, "proxy").orElseThrow();
        assertThat(proxy.getState().getRunning()).isNotNull();
        assertThat(proxy.getStarted()).isTrue();
        assertThat(proxy.getContainerID()).startsWith("containerd://");
        ContainerStatus setup = initContainer(pod, "setup").orElseThrow();
        assertThat(setup.getState().getTerminated().getReason()).isEqualTo("Completed");
        assertThat(setup.getState().getTerminated().getExitCode()).isZero();
        assertThat(ProbesIT.condition(pod, "Initialized").orElseThrow().getStatus()).isEqualTo("True");
        assertThat(Files.readAllLines(out.resolve("order"))).containsExactly("proxy-start", "setup-done", "app-start");

        // On the pod's removal the app stops first, the sidecar after it.
        agent.removeManifest("side.yaml");
        await().atMost(Duration.ofSeconds(60)).until(() -> runningContainers(agent.nodeName).isEmpty());
        List<String> order = Files.readAllLines(out.resolve("order"));
        assertThat(order.subList(3, order.size())).containsExactly("app-TERM", "proxy-TERM");
    }

    @Test
    void aFailingExecLivenessProbeRestartsTheContainerAndAnHttpReadinessProbeFlipsReady() throws Exception {
        startAgent();
        agent.writeManifest("probed.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: probed}
                spec:
                  terminationGracePeriodSeconds: 2
                  containers:
                  - name: live
                    image: %1$s
                    command: ["sh", "-c", "touch /tmp/healthy; trap 'exit 0' TERM; sleep 3600 & wait"]
                    livenessProbe:
                      exec: {command: ["test", "-f", "/tmp/healthy"]}
                      periodSeconds: 1
                      failureThreshold: 2
                  - name: web
                    image: %1$s
                    command: ["sh", "-c", "mkdir -p /www && echo ok > /www/ready && exec httpd -f -p 8080 -h /www"]
                    ports: [{name: http, containerPort: 8080}]
                    readinessProbe:
                      httpGet: {port: http, path: /ready}
                      periodSeconds: 1
                """.formatted(IMAGE));
        Pod pod = awaitPod("probed", Duration.ofSeconds(90), p -> ProbesIT.isReady(p, true));
        assertThat(pod.getStatus().getPodIP()).startsWith("10.88.");

        // The exec probe runs in the container through ExecSync: removing its file fails it, and the kubelet restarts
        // the container (a new one in the runtime), counting the restart.
        String live = id(container(pod, "live").orElseThrow());
        exec(live, "rm", "/tmp/healthy");
        Pod restarted = awaitPod("probed", Duration.ofSeconds(60),
                p -> container(p, "live").map(c -> c.getRestartCount() >= 1 && c.getState().getRunning() != null).orElse(false));
        ContainerStatus liveNow = container(restarted, "live").orElseThrow();
        assertThat(id(liveNow)).isNotEqualTo(live);
        assertThat(liveNow.getLastState().getTerminated().getExitCode()).isZero(); // its TERM trap
        assertThat(agent.logText()).contains("Liveness probe failed", "Container live failed liveness probe, will be restarted");

        // The HTTP probe goes to the pod IP (the CNI bridge's); a 404 makes the pod unready without a restart.
        String web = id(container(restarted, "web").orElseThrow());
        exec(web, "rm", "/www/ready");
        Pod unready = awaitPod("probed", Duration.ofSeconds(30), p -> !container(p, "web").orElseThrow().getReady());
        assertThat(ProbesIT.condition(unready, "Ready").orElseThrow().getStatus()).isEqualTo("False");
        assertThat(container(unready, "web").orElseThrow().getRestartCount()).isZero();
        assertThat(agent.logText()).contains("Readiness probe failed: HTTP probe failed with statuscode: 404");
        exec(web, "sh", "-c", "echo ok > /www/ready");
        awaitPod("probed", Duration.ofSeconds(30), p -> ProbesIT.isReady(p, true));
    }

    @Test
    void aHostNetworkPodServesOnTheNodesAddresses() throws Exception {
        // A pod on the CNI bridge first: the bridge is then up, and the newest interface the machine lists.
        String bridgeNode = nodePrefix() + "bridge-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        try (CriRuntime runtime = cri()) {
            new RuntimePods(runtime, bridgeNode, "docker.io/jkubelet/pause:3.9").sandbox("bridge-user",
                    dir.resolve("bridge-logs"));
        }
        try {
            startAgent();
            int port = Agent.freePort();
            agent.writeManifest("host.yaml", """
                    apiVersion: v1
                    kind: Pod
                    metadata: {name: host}
                    spec:
                      hostNetwork: true
                      containers:
                      - name: web
                        image: %s
                        command: ["sh", "-c", "mkdir -p /www && echo on-the-node > /www/index.html && exec httpd -f -p 127.0.0.1:%d -h /www"]
                    """.formatted(IMAGE, port));
            Pod pod = awaitPod("host", Duration.ofSeconds(90), ContainerdTestBase::running);
            // The pod has the node's address (the runtime gave its sandbox none), and its server listens on the
            // node's loopback.
            assertThat(pod.getStatus().getPodIP()).isNotEmpty().isEqualTo(pod.getStatus().getHostIP());
            // Without --node-ip and with a node name no resolver knows, the node's address is upstream's choice:
            // that of the interface the default route leaves through, as `ip route` says; not the CNI bridge's
            // (10.88.0.1), which the pods on it bring up.
            assertThat(pod.getStatus().getHostIP()).isEqualTo(defaultRouteAddress()).doesNotStartWith("10.88.");
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
            String body = await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(() -> http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/index.html")).build(),
                    HttpResponse.BodyHandlers.ofString()).body(), b -> !b.isEmpty());
            assertThat(body).isEqualTo("on-the-node\n");
            try (CriRuntime runtime = cri()) {
                PodSandbox sandbox = runtime.listPodSandbox(new PodSandboxFilter(null, null,
                        Map.of(Labels.NODE_NAME, agent.nodeName))).getFirst();
                assertThat(runtime.podSandboxStatus(sandbox.id()).ip()).isNullOrEmpty();
            }
        } finally {
            try (CriRuntime runtime = cri()) {
                RuntimePods.removeAll(runtime, bridgeNode);
            }
        }
    }

    @Test
    void theNextAgentAdoptsThePodsContainersWithoutRecreatingThem() throws Exception {
        startAgent();
        agent.writeManifest("keep.yaml", E2ePods.keep());
        Pod before = awaitPod("keep", Duration.ofSeconds(90), ContainerdTestBase::running);
        List<String> containers = runningContainers(agent.nodeName);
        List<String> sandboxes = sandboxes(agent.nodeName);
        assertThat(containers).hasSize(2);

        assertThat(agent.terminate()).as(agent.logText()).isZero();
        assertThat(runningContainers(agent.nodeName)).containsExactlyInAnyOrderElementsOf(containers);
        agent.start();
        Pod after = awaitPod("keep", Duration.ofSeconds(90), ContainerdTestBase::running);
        // Give the new agent time to act on what it found, then look: nothing was restarted or made again.
        await().pollDelay(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(() -> true);
        assertThat(runningContainers(agent.nodeName)).containsExactlyInAnyOrderElementsOf(containers);
        assertThat(sandboxes(agent.nodeName)).containsExactlyElementsOf(sandboxes);
        assertThat(after.getStatus().getContainerStatuses()).allSatisfy(c -> assertThat(c.getRestartCount()).isZero());
        assertThat(after.getStatus().getContainerStatuses()).extracting(AgentOnRuntimeBase::id)
                .containsExactlyInAnyOrderElementsOf(containers);
        assertThat(after.getMetadata().getUid()).isEqualTo(before.getMetadata().getUid());
    }

    /** {@code crictl ps} of the node: the ids of its running containers. */
    static List<String> runningContainers(String nodeName) {
        try (CriRuntime runtime = cri()) {
            return runtime.listContainers(new ContainerFilter(null, ContainerState.CONTAINER_RUNNING, null,
                    Map.of(Labels.NODE_NAME, nodeName))).stream().map(Container::id).toList();
        }
    }

    /** {@code crictl pods} of the node: the ids of all its sandboxes. */
    static List<String> sandboxes(String nodeName) {
        try (CriRuntime runtime = cri()) {
            return runtime.listPodSandbox(new PodSandboxFilter(null, null, Map.of(Labels.NODE_NAME, nodeName)))
                    .stream().map(PodSandbox::id).toList();
        }
    }

    /** The first global IPv4 address of the interface of the default route: {@code ip -4 route show default}. */
    private static String defaultRouteAddress() throws Exception {
        String route = run("ip", "-4", "route", "show", "default");
        String[] words = route.trim().split("\\s+");
        String dev = words[List.of(words).indexOf("dev") + 1];
        String addr = run("ip", "-4", "-o", "addr", "show", "dev", dev, "scope", "global");
        String[] fields = addr.trim().split("\\s+");
        String cidr = fields[List.of(fields).indexOf("inet") + 1];
        return cidr.substring(0, cidr.indexOf('/'));
    }

    private static String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(String.join(" ", command) + ": " + out).isZero();
        return out;
    }
}
