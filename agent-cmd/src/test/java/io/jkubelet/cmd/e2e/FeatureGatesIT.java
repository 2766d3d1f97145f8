package io.jkubelet.cmd.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A feature gate of the built jar changing what the node does with a pod. */
class FeatureGatesIT extends AgentTestBase {

    @Test
    void withSidecarContainersOffARestartableInitContainerMustCompleteBeforeTheNextOne() throws Exception {
        startAgent("--feature-gates", "SidecarContainers=false");
        Path out = Files.createDirectories(dir.resolve("out"));
        agent.writeManifest("side.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: side}
                spec:
                  volumes: [{name: out, hostPath: {path: %2$s}}]
                  initContainers:
                  - name: proxy
                    image: %1$s
                    restartPolicy: Always
                    command: ["sh", "-c", "sleep 3; echo proxy-done >> /out/order"]
                    volumeMounts: [{name: out, mountPath: /out}]
                  - name: setup
                    image: %1$s
                    command: ["sh", "-c", "echo setup-done >> /out/order"]
                    volumeMounts: [{name: out, mountPath: /out}]
                  containers:
                  - name: app
                    image: %1$s
                    command: ["sh", "-c", "echo app-start >> /out/order; sleep 3600"]
                    volumeMounts: [{name: out, mountPath: /out}]
                """.formatted(IMAGE, out));

        Pod pod = awaitPod("side", Duration.ofSeconds(60), p -> "Running".equals(p.getStatus().getPhase())
                && container(p, "app").map(c -> c.getState().getRunning() != null).orElse(false));

        // As a sidecar, the proxy would run beside the app (and be restarted once it exited); as an ordinary init
        // container it ran to completion first.
        ContainerStatus proxy = pod.getStatus().getInitContainerStatuses().stream()
                .filter(c -> c.getName().equals("proxy")).findFirst().orElseThrow();
        assertThat(proxy.getState().getTerminated()).isNotNull();
        assertThat(proxy.getState().getTerminated().getReason()).isEqualTo("Completed");
        assertThat(proxy.getRestartCount()).isZero();
        assertThat(Files.readAllLines(out.resolve("order"))).containsExactly("proxy-done", "setup-done", "app-start");
    }
}
