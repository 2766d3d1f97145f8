package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** What the kubelet reports about containers, read from /pods as an operator would. */
class ContainerStatusIT extends AgentTestBase {

    @Test
    void terminationMessagesAndExitReasons() throws Exception {
        startAgent();
        agent.writeManifest("exits.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: exits}
                spec:
                  restartPolicy: Never
                  containers:
                  - {name: file, image: %1$s, command: ["sh", "-c", "printf 'bye from file' > /dev/termination-log; exit 2"]}
                  - name: logs
                    image: %1$s
                    terminationMessagePolicy: FallbackToLogsOnError
                    command: ["sh", "-c", "echo first line; echo last words; exit 1"]
                  - name: custom
                    image: %1$s
                    terminationMessagePath: /tmp/why
                    command: ["sh", "-c", "echo custom path > /tmp/why; exit 0"]
                """.formatted(IMAGE));
        Pod pod = awaitPod("exits", Duration.ofSeconds(60), p -> "Failed".equals(p.getStatus().getPhase()));
        var file = container(pod, "file").orElseThrow().getState().getTerminated();
        assertThat(file.getExitCode()).isEqualTo(2);
        assertThat(file.getReason()).isEqualTo("Error");
        assertThat(file.getMessage()).isEqualTo("bye from file");
        var logs = container(pod, "logs").orElseThrow().getState().getTerminated();
        assertThat(logs.getExitCode()).isEqualTo(1);
        assertThat(logs.getMessage()).isEqualTo("first line\nlast words\n");
        var custom = container(pod, "custom").orElseThrow().getState().getTerminated();
        assertThat(custom.getReason()).isEqualTo("Completed");
        assertThat(custom.getMessage()).isEqualTo("custom path\n");
        assertThat(pod.getStatus().getContainerStatuses()).allSatisfy(c -> assertThat(c.getRestartCount()).isZero());
    }

    @Test
    void restartCountsContinueAcrossAnAgentRestart() throws Exception {
        startAgent();
        agent.writeManifest("flaky.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: flaky}
                spec:
                  containers:
                  - {name: f, image: %s, command: ["sh", "-c", "sleep 1; exit 1"]}
                """.formatted(IMAGE));
        Pod before = awaitPod("flaky", Duration.ofSeconds(60), p -> container(p, "f").map(c -> c.getRestartCount() >= 1).orElse(false));
        int count = container(before, "f").orElseThrow().getRestartCount();
        agent.kill9();
        agent.start();
        Pod after = awaitPod("flaky", Duration.ofSeconds(90), p -> container(p, "f").map(c -> c.getRestartCount() > count).orElse(false));
        ContainerStatus c = container(after, "f").orElseThrow();
        assertThat(c.getRestartCount()).isGreaterThan(count);
        assertThat(c.getLastState().getTerminated().getExitCode()).isEqualTo(1);
    }

    @Test
    void aContainerGrowingPastItsMemoryLimitIsOomKilledAndRestartedAsItsPolicySays() throws Exception {
        startAgent();
        // dd reads 64 MiB into its buffer: past the 32Mi limit, the kernel kills it, and the shell exits with its 137.
        // dd is the shell's child, not pid 1, so that Docker 20.10 learns of the OOM before pid 1's exit (see
        // DockerRuntimeTest's OOM test: with pid 1 the victim, the exit can win and Docker says OOMKilled=false).
        agent.writeManifest("hungry.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: hungry}
                spec:
                  restartPolicy: OnFailure
                  containers:
                  - name: grow
                    image: %s
                    command: ["sh", "-c", "dd if=/dev/zero of=/dev/null bs=64M count=1; exit $?"]
                    resources: {limits: {memory: 32Mi}}
                """.formatted(IMAGE));
        Pod pod = awaitPod("hungry", Duration.ofSeconds(90),
                p -> container(p, "grow").map(c -> c.getRestartCount() >= 1 && c.getLastState() != null
                        && c.getLastState().getTerminated() != null).orElse(false));
        ContainerStatus c = container(pod, "grow").orElseThrow();
        assertThat(c.getLastState().getTerminated().getReason()).isEqualTo("OOMKilled");
        assertThat(c.getLastState().getTerminated().getExitCode()).isEqualTo(137);
        assertThat(pod.getStatus().getPhase()).as("OnFailure restarts it").isIn("Running", "Pending");
        String id = Docker.ids(agent.nodeName, "label=io.kubernetes.container.name=grow").getLast();
        assertThat(Docker.inspect(id, "{{.HostConfig.Memory}}")).isEqualTo(Long.toString(32L << 20));
    }

    @Test
    void hostNetworkPodsGetTheNodeIp() throws Exception {
        startAgent();
        agent.writeManifest("hostnet.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: hostnet}
                spec:
                  hostNetwork: true
                  containers:
                  - {name: a, image: %s, command: ["sh", "-c", "trap 'exit 0' TERM; sleep 3600 & wait"]}
                """.formatted(IMAGE));
        Pod pod = awaitPod("hostnet", Duration.ofSeconds(60), AgentTestBase::running);
        assertThat(pod.getStatus().getHostIP()).isNotEmpty();
        assertThat(pod.getStatus().getPodIP()).isEqualTo(pod.getStatus().getHostIP());
        String id = id(container(pod, "a").orElseThrow());
        String sandbox = Docker.inspect(id, "{{index .Config.Labels \"io.kubernetes.sandbox.id\"}}");
        assertThat(Docker.inspect(sandbox, "{{.HostConfig.NetworkMode}}")).isEqualTo("host");
    }
}
