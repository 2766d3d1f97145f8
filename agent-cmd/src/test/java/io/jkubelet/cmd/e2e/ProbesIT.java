package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Probes as a kubelet user relies on them: run by the agent against real containers on Docker, and
 * against a server on the node's loopback that shows what the agent sends.
 */
class ProbesIT extends AgentTestBase {
    ProbeTarget target;

    @BeforeEach
    void startTarget() throws Exception {
        target = new ProbeTarget();
    }

    @AfterEach
    void stopTarget() {
        target.close();
    }

    @Test
    void aFailingLivenessProbeRestartsTheContainerWithTheProbesGracePeriod() throws Exception {
        target.answer("/healthz", 500);
        startAgent();
        // The pod's grace period is long; the probe's own is short, and it is the one that applies.
        agent.writeManifest("live.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: live}
                spec:
                  terminationGracePeriodSeconds: 600
                  containers:
                  - name: c
                    image: %s
                    command: ["sh", "-c", "sleep 3600"]
                    livenessProbe:
                      httpGet: {host: 127.0.0.1, port: %d, path: /healthz}
                      periodSeconds: 1
                      failureThreshold: 2
                      terminationGracePeriodSeconds: 2
                """.formatted(IMAGE, target.port()));
        Pod pod = awaitPod("live", Duration.ofSeconds(90),
                p -> container(p, "c").map(c -> c.getRestartCount() >= 1).orElse(false));
        var last = container(pod, "c").orElseThrow().getLastState().getTerminated();
        assertThat(last.getExitCode()).isEqualTo(137); // sh as PID 1 ignores SIGTERM: killed after the grace
        assertThat(last.getReason()).isEqualTo("Error");
        assertThat(agent.logText())
                .contains("Unhealthy")
                .contains("Liveness probe failed: HTTP probe failed with statuscode: 500")
                .contains("Container c failed liveness probe, will be restarted");
        ProbeTarget.Request r = target.requestsTo("/healthz").get(0);
        assertThat(r.header("User-Agent")).isEqualTo("kube-probe/1.30");
        assertThat(r.header("Accept")).isEqualTo("*/*");
    }

    @Test
    void aReadinessProbeFlipsReadyBothWays() throws Exception {
        startAgent();
        // busybox httpd serves /www on the named port; the probe goes to the pod IP by default.
        agent.writeManifest("ready.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: ready}
                spec:
                  containers:
                  - name: web
                    image: %s
                    command: ["sh", "-c", "mkdir -p /www && echo ok > /www/ready && exec httpd -f -p 8080 -h /www"]
                    ports: [{name: http, containerPort: 8080}]
                    readinessProbe:
                      httpGet: {port: http, path: /ready}
                      periodSeconds: 1
                """.formatted(IMAGE));
        Pod pod = awaitPod("ready", Duration.ofSeconds(60), p -> isReady(p, true));
        assertThat(container(pod, "web").orElseThrow().getStarted()).isTrue();
        String id = id(container(pod, "web").orElseThrow());

        assertThat(Docker.exec(id, "rm", "/www/ready").exitCode()).isZero();
        pod = awaitPod("ready", Duration.ofSeconds(30), p -> isReady(p, false));
        assertThat(condition(pod, "Ready").orElseThrow().getReason()).isEqualTo("ContainersNotReady");
        assertThat(condition(pod, "ContainersReady").orElseThrow().getStatus()).isEqualTo("False");
        assertThat(container(pod, "web").orElseThrow().getRestartCount()).isZero();
        assertThat(agent.logText()).contains("Readiness probe failed: HTTP probe failed with statuscode: 404");

        assertThat(Docker.exec(id, "sh", "-c", "echo ok > /www/ready").exitCode()).isZero();
        awaitPod("ready", Duration.ofSeconds(30), p -> isReady(p, true));
    }

    @Test
    void aStartupProbeHoldsLivenessBackUntilItSucceeds() throws Exception {
        target.answer("/live", 500);
        startAgent();
        agent.writeManifest("slow.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: slow}
                spec:
                  containers:
                  - name: c
                    image: %s
                    command: ["sh", "-c", "sleep 3600"]
                    startupProbe:
                      exec: {command: ["test", "-f", "/tmp/started"]}
                      periodSeconds: 1
                      failureThreshold: 600
                    livenessProbe:
                      httpGet: {host: 127.0.0.1, port: %d, path: /live}
                      periodSeconds: 1
                      failureThreshold: 1
                      terminationGracePeriodSeconds: 2
                """.formatted(IMAGE, target.port()));
        await().atMost(Duration.ofSeconds(60)).until(() -> count(agent.logText(), "Startup probe failed") >= 3);
        Pod pod = agent.pod("slow").orElseThrow();
        var c = container(pod, "c").orElseThrow();
        assertThat(c.getStarted()).isFalse();
        assertThat(c.getReady()).isFalse();
        assertThat(c.getRestartCount()).isZero();
        assertThat(target.requestsTo("/live")).isEmpty();

        assertThat(Docker.exec(id(c), "touch", "/tmp/started").exitCode()).isZero();
        awaitPod("slow", Duration.ofSeconds(60), p -> container(p, "c").map(s -> s.getRestartCount() >= 1).orElse(false));
        assertThat(target.requestsTo("/live")).isNotEmpty();
    }

    @Test
    void aHangingExecProbeIsTimedOut() throws Exception {
        startAgent();
        agent.writeManifest("hang.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: hang}
                spec:
                  containers:
                  - name: c
                    image: %s
                    command: ["sh", "-c", "sleep 3600"]
                    readinessProbe:
                      exec: {command: ["sleep", "600"]}
                      timeoutSeconds: 1
                      periodSeconds: 2
                """.formatted(IMAGE));
        // Without an enforced timeout the first result would only come after ten minutes.
        await().atMost(Duration.ofSeconds(60))
                .until(() -> agent.logText().contains("Readiness probe failed: command \"sleep 600\" timed out"));
        Pod pod = agent.pod("hang").orElseThrow();
        assertThat(container(pod, "c").orElseThrow().getReady()).isFalse();
        assertThat(condition(pod, "Ready").orElseThrow().getStatus()).isEqualTo("False");
    }

    @Test
    void httpGetFollowsRedirectsOnlyToTheSameHostAndSendsTheGivenHeaders() throws Exception {
        target.redirect("/start", "http://127.0.0.1:" + target.port() + "/final");
        target.answer("/final", 200);
        target.redirect("/away", "http://localhost:" + target.port() + "/final");
        startAgent();
        agent.writeManifest("redirects.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: redirects}
                spec:
                  containers:
                  - name: same
                    image: %1$s
                    command: ["sh", "-c", "sleep 3600"]
                    readinessProbe:
                      httpGet:
                        host: 127.0.0.1
                        port: %2$d
                        path: /start
                        httpHeaders: [{name: X-Custom, value: hello}, {name: Accept, value: text/plain}]
                      periodSeconds: 1
                  - name: other
                    image: %1$s
                    command: ["sh", "-c", "sleep 3600"]
                    readinessProbe:
                      httpGet: {host: 127.0.0.1, port: %2$d, path: /away}
                      periodSeconds: 1
                """.formatted(IMAGE, target.port()));
        awaitPod("redirects", Duration.ofSeconds(60), p -> isReady(p, true));

        ProbeTarget.Request start = target.requestsTo("/start").get(0);
        assertThat(start.header("User-Agent")).isEqualTo("kube-probe/1.30");
        assertThat(start.header("Accept")).isEqualTo("text/plain");
        assertThat(start.header("X-Custom")).isEqualTo("hello");
        // The same-host redirect was followed; the one to another host name was not (a warning, still ready).
        assertThat(target.requestsTo("/final")).isNotEmpty()
                .allSatisfy(r -> assertThat(r.header("Host")).startsWith("127.0.0.1"));
        assertThat(agent.logText()).contains("ProbeWarning").contains("Readiness probe warning: Probe terminated redirects");
    }

    static boolean isReady(Pod p, boolean ready) {
        String want = ready ? "True" : "False";
        return condition(p, "Ready").map(c -> want.equals(c.getStatus())).orElse(false)
                && p.getStatus().getContainerStatuses().stream().allMatch(c -> ready == Boolean.TRUE.equals(c.getReady()));
    }

    static Optional<PodCondition> condition(Pod p, String type) {
        return p.getStatus().getConditions() == null ? Optional.empty()
                : p.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }
}
