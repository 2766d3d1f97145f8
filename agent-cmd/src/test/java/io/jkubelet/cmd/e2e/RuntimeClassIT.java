package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * RuntimeClass on the built jar as the real control plane's node, on Docker and then on containerd, as upstream's
 * {@code [sig-node] RuntimeClass ... [NodeFeature:RuntimeHandler]} specs use it: a pod whose RuntimeClass names a
 * handler the runtime has runs to completion (Docker's {@code docker}, dockershim's one handler; containerd's {@code runc},
 * the one runtime of {@code jk_containerd_config}); a pod whose RuntimeClass names a handler the runtime does not have
 * stays {@code Pending} with upstream's {@code FailedCreatePodSandBox} event naming the handler.
 */
@Tag("docker")
@Tag("containerd")
class RuntimeClassIT extends ClusterNodesTestBase {
    static final String UNCONFIGURED = "jk-unconfigured";

    @Test
    void onDockerTheDockerHandlerRunsAndAnyOtherFailsTheSandbox() throws Exception {
        String suffix = suffix();
        story(ClusterKubelet.onDocker(cluster, dir.resolve("docker"), "rc-jk-" + suffix), "docker", suffix,
                "RuntimeHandler \"" + UNCONFIGURED + "\" not supported");
    }

    @Test
    void onContainerdTheRuncHandlerRunsAndAnUnknownOneFailsTheSandbox() throws Exception {
        String suffix = suffix();
        story(ClusterKubelet.onContainerd(cluster, dir.resolve("containerd"), "rc-jkc-" + suffix), "runc", suffix,
                "no runtime for \"" + UNCONFIGURED + "\" is configured");
    }

    /**
     * Two RuntimeClasses, one with {@code handler}, one with a handler no runtime here has; a pod of each bound to the
     * kubelet. Leaves no pod, RuntimeClass, node or container behind.
     */
    private void story(ClusterKubelet kubelet, String handler, String suffix, String refusal) throws Exception {
        String configured = "configured-" + suffix;
        String unconfigured = "unconfigured-" + suffix;
        try {
            createRuntimeClass(configured, handler);
            createRuntimeClass(unconfigured, UNCONFIGURED);
            kubelet.start();
            kubelet.awaitReady(client);

            createPod(kubelet, configured);
            createPod(kubelet, unconfigured);

            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> "Succeeded".equals(phase(configured)) || "Failed".equals(phase(configured)));
            assertThat(phase(configured)).as(kubelet.logText()).isEqualTo("Succeeded");

            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> sandboxFailure(unconfigured).isPresent());
            assertThat(sandboxFailure(unconfigured).orElseThrow().getMessage())
                    .startsWith("Failed to create pod sandbox: ").contains(refusal);
            assertThat(phase(unconfigured)).isEqualTo("Pending");
        } finally {
            for (String pod : List.of(configured, unconfigured)) {
                client.pods().inNamespace("default").withName(pod).withGracePeriod(0).delete();
            }
            kubelet.close();
            for (String rc : List.of(configured, unconfigured)) {
                kubectl.run("delete", "runtimeclass", rc, "--wait=false");
            }
            kubectl.run("delete", "node", kubelet.node(), "--wait=false");
        }
    }

    private static String suffix() {
        return UUID.randomUUID().toString().substring(0, 6);
    }

    private static void createRuntimeClass(String name, String handler) {
        kubectl.runWithInput("""
                apiVersion: node.k8s.io/v1
                kind: RuntimeClass
                metadata: {name: %s}
                handler: %s
                """.formatted(name, handler), "create", "-f", "-").ok();
    }

    /** As upstream's {@code NewRuntimeClassPod}: one container running {@code true}, never restarted; bound by name. */
    private static void createPod(ClusterKubelet kubelet, String runtimeClass) {
        kubectl.runWithInput("""
                apiVersion: v1
                kind: Pod
                metadata: {name: %s, namespace: default}
                spec:
                  nodeName: %s
                  runtimeClassName: %s
                  restartPolicy: Never
                  automountServiceAccountToken: false
                  containers:
                  - name: test
                    image: %s
                    imagePullPolicy: Never
                    command: ["true"]
                """.formatted(runtimeClass, kubelet.node(), runtimeClass, AgentTestBase.IMAGE), "create", "-f", "-")
                .ok();
    }

    private static String phase(String pod) {
        Pod p = client.pods().inNamespace("default").withName(pod).get();
        return p == null || p.getStatus() == null ? null : p.getStatus().getPhase();
    }

    /** The pod's {@code FailedCreatePodSandBox} warning, as upstream's {@code expectSandboxFailureEvent} looks for it. */
    private static Optional<Event> sandboxFailure(String pod) {
        return client.v1().events().inNamespace("default").withField("involvedObject.name", pod)
                .withField("involvedObject.kind", "Pod").withField("reason", "FailedCreatePodSandBox").list().getItems()
                .stream().filter(e -> "Warning".equals(e.getType())).findFirst();
    }
}
