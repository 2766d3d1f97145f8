package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Lifecycle hooks, sidecars and termination order on real Docker. Containers write what happens to them
 * into a hostPath file, so the order is the one the containers saw.
 */
class LifecycleIT extends AgentTestBase {

    @Test
    void preStopRunsBeforeTheStopSignalAndIsCutAtTheGracePeriod() throws Exception {
        startAgent();
        Path out = Files.createDirectories(dir.resolve("out"));
        agent.writeManifest("stop.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: stop}
                spec:
                  terminationGracePeriodSeconds: 6
                  volumes: [{name: out, hostPath: {path: %2$s}}]
                  containers:
                  - name: c
                    image: %1$s
                    command: ["sh", "-c", "trap 'echo TERM >> /out/order; exit 0' TERM; echo started >> /out/order; while true; do sleep 1; done"]
                    volumeMounts: [{name: out, mountPath: /out}]
                    lifecycle:
                      preStop:
                        exec: {command: ["sh", "-c", "echo preStop >> /out/order; sleep 600"]}
                """.formatted(IMAGE, out));
        awaitPod("stop", Duration.ofSeconds(60), AgentTestBase::running);
        agent.removeManifest("stop.yaml");
        // The hook sleeps for ten minutes: the stop signal only comes because the hook is cut at the grace period.
        await().atMost(Duration.ofSeconds(60)).until(() -> Docker.running(agent.nodeName,
                "label=io.kubernetes.container.name=c").isEmpty());
        assertThat(Files.readAllLines(out.resolve("order"))).containsExactly("started", "preStop", "TERM");
    }

    @Test
    void aFailingPostStartHookKillsAndRestartsTheContainer() throws Exception {
        startAgent();
        agent.writeManifest("post.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: post}
                spec:
                  terminationGracePeriodSeconds: 2
                  containers:
                  - name: c
                    image: %s
                    command: ["sh", "-c", "sleep 3600"]
                    lifecycle:
                      postStart:
                        exec: {command: ["sh", "-c", "echo hook output; exit 3"]}
                """.formatted(IMAGE));
        awaitPod("post", Duration.ofSeconds(90), p -> container(p, "c").map(c -> c.getRestartCount() >= 1).orElse(false));
        assertThat(agent.logText()).contains("FailedPostStartHook").contains("hook output");
    }

    @Test
    void anHttpPostStartHookReachesItsTarget() throws Exception {
        try (ProbeTarget target = new ProbeTarget()) {
            target.answer("/hook", 200);
            startAgent();
            agent.writeManifest("hook.yaml", """
                    apiVersion: v1
                    kind: Pod
                    metadata: {name: hook}
                    spec:
                      containers:
                      - name: c
                        image: %s
                        command: ["sh", "-c", "sleep 3600"]
                        lifecycle:
                          postStart:
                            httpGet: {host: 127.0.0.1, port: %d, path: /hook}
                    """.formatted(IMAGE, target.port()));
            // The container shows running as soon as it starts; the hook runs right after.
            await().atMost(Duration.ofSeconds(60)).until(() -> !target.requestsTo("/hook").isEmpty());
            Pod pod = awaitPod("hook", Duration.ofSeconds(30), AgentTestBase::running);
            assertThat(container(pod, "c").orElseThrow().getRestartCount()).isZero();
            assertThat(target.requestsTo("/hook")).hasSize(1);
            assertThat(target.requestsTo("/hook").get(0).header("User-Agent")).isEqualTo("kube-lifecycle/1.30");
        }
    }

    @Test
    void aSidecarOutlivesTheInitPhaseAndIsStoppedLast() throws Exception {
        startAgent();
        Path out = Files.createDirectories(dir.resolve("out"));
        String logger = "trap 'echo %1$s-TERM >> /out/order; exit 0' TERM; echo %1$s-start >> /out/order; while true; do sleep 1; done";
        writeSidecarPod(out, logger.formatted("proxy"), logger.formatted("app"));
        Pod pod = awaitPod("side", Duration.ofSeconds(60), p -> "Running".equals(p.getStatus().getPhase())
                && container(p, "app").map(c -> c.getState().getRunning() != null).orElse(false));
        var proxy = pod.getStatus().getInitContainerStatuses().stream()
                .filter(c -> c.getName().equals("proxy")).findFirst().orElseThrow();
        assertThat(proxy.getState().getRunning()).isNotNull();
        assertThat(proxy.getStarted()).isTrue();
        assertThat(ProbesIT.condition(pod, "Initialized").orElseThrow().getStatus()).isEqualTo("True");
        assertThat(Files.readAllLines(out.resolve("order"))).containsExactly("proxy-start", "setup-done", "app-start");

        agent.removeManifest("side.yaml");
        await().atMost(Duration.ofSeconds(60)).until(() -> Docker.running(agent.nodeName,
                "label=io.kubernetes.container.name=proxy").isEmpty());
        List<String> order = Files.readAllLines(out.resolve("order"));
        assertThat(order.subList(3, order.size())).containsExactly("app-TERM", "proxy-TERM");
    }

    @Test
    void withSidecarContainersOffARestartableInitContainerMustCompleteBeforeTheNextOne() throws Exception {
        startAgent("--feature-gates", "SidecarContainers=false");
        Path out = Files.createDirectories(dir.resolve("out"));
        writeSidecarPod(out, "sleep 3; echo proxy-done >> /out/order", "echo app-start >> /out/order; sleep 3600");

        Pod pod = awaitPod("side", Duration.ofSeconds(60), p -> "Running".equals(p.getStatus().getPhase())
                && container(p, "app").map(c -> c.getState().getRunning() != null).orElse(false));

        // As a sidecar, the proxy would run beside the app (and be restarted once it exited); as an ordinary init
        // container it ran to completion first.
        var proxy = pod.getStatus().getInitContainerStatuses().stream()
                .filter(c -> c.getName().equals("proxy")).findFirst().orElseThrow();
        assertThat(proxy.getState().getTerminated()).isNotNull();
        assertThat(proxy.getState().getTerminated().getReason()).isEqualTo("Completed");
        assertThat(proxy.getRestartCount()).isZero();
        assertThat(Files.readAllLines(out.resolve("order"))).containsExactly("proxy-done", "setup-done", "app-start");
    }

    private void writeSidecarPod(Path out, String proxyCommand, String appCommand) throws Exception {
        agent.writeManifest("side.yaml", E2ePods.sidecar(out, proxyCommand, appCommand));
    }

    @Test
    void aDeadSidecarIsRestarted() throws Exception {
        startAgent();
        agent.writeManifest("flaky-side.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: flaky-side}
                spec:
                  restartPolicy: Never
                  initContainers:
                  - name: proxy
                    image: %1$s
                    restartPolicy: Always
                    command: ["sh", "-c", "sleep 2; exit 1"]
                  containers:
                  - name: app
                    image: %1$s
                    command: ["sh", "-c", "sleep 3600"]
                """.formatted(IMAGE));
        Pod pod = awaitPod("flaky-side", Duration.ofSeconds(90), p -> p.getStatus().getInitContainerStatuses() != null
                && p.getStatus().getInitContainerStatuses().stream().anyMatch(c -> c.getRestartCount() >= 1));
        assertThat(pod.getStatus().getPhase()).isEqualTo("Running");
        assertThat(container(pod, "app").orElseThrow().getRestartCount()).isZero();
    }
}
