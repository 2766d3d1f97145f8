package io.jkubelet.core.kuberuntime;

import io.jkubelet.core.prober.ProbeVerdicts;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.container.ContainerStatus;
import io.jkubelet.core.container.RuntimePodStatus;
import io.jkubelet.core.container.SandboxStatus;
import io.jkubelet.core.container.State;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.jkubelet.core.testing.Pods.container;
import static io.jkubelet.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

class ComputePodActionsTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private int seq;

    private ContainerStatus status(Container c, State state, int exitCode, int restartCount) {
        seq++;
        return new ContainerStatus("c" + seq, "docker", c.getName(), state, T0.plusSeconds(seq), T0.plusSeconds(seq),
                state == State.EXITED ? T0.plusSeconds(seq) : null, exitCode, c.getImage(), "sha256:x",
                ContainerHash.of(c), restartCount, "", "", "sb1", "/dev/termination-log", "");
    }

    private static RuntimePodStatus podStatus(Pod pod, boolean sandboxReady, ContainerStatus... cs) {
        return new RuntimePodStatus(pod.getMetadata().getUid(), pod.getMetadata().getName(), "default", List.of("10.0.0.2"),
                List.of(new SandboxStatus("sb1", 0, sandboxReady, T0, sandboxReady ? List.of("10.0.0.2") : List.of(), false)),
                List.of(cs));
    }

    @Test
    void newPodCreatesSandboxAndStartsAllContainers() {
        Pod pod = pod("web", container("a"), container("b"));
        PodActions a = ComputePodActions.compute(pod, RuntimePodStatus.empty("uid-web", "web", "default"), ProbeVerdicts.NONE);
        assertThat(a.createSandbox()).isTrue();
        assertThat(a.attempt()).isZero();
        assertThat(a.containersToStart()).containsExactly(0, 1);
        assertThat(a.nextInitContainerToStart()).isNull();
    }

    @Test
    void newPodWithInitContainersStartsOnlyTheFirstInitContainer() {
        Pod pod = pod("p", "Always", List.of(container("i1"), container("i2")), List.of(container("a")));
        PodActions a = ComputePodActions.compute(pod, RuntimePodStatus.empty("uid-p", "p", "default"), ProbeVerdicts.NONE);
        assertThat(a.createSandbox()).isTrue();
        assertThat(a.nextInitContainerToStart().getName()).isEqualTo("i1");
        assertThat(a.containersToStart()).isEmpty();
    }

    @Test
    void initContainersRunInOrderThenAppContainers() {
        Container i1 = container("i1"), i2 = container("i2"), app = container("a");
        Pod pod = pod("p", "Always", List.of(i1, i2), List.of(app));
        PodActions afterFirst = ComputePodActions.compute(pod, podStatus(pod, true, status(i1, State.EXITED, 0, 0)), ProbeVerdicts.NONE);
        assertThat(afterFirst.nextInitContainerToStart().getName()).isEqualTo("i2");
        PodActions whileRunning = ComputePodActions.compute(pod, podStatus(pod, true,
                status(i1, State.EXITED, 0, 0), status(i2, State.RUNNING, 0, 0)), ProbeVerdicts.NONE);
        assertThat(whileRunning.nextInitContainerToStart()).isNull();
        assertThat(whileRunning.containersToStart()).isEmpty();
        PodActions done = ComputePodActions.compute(pod, podStatus(pod, true,
                status(i1, State.EXITED, 0, 0), status(i2, State.EXITED, 0, 0)), ProbeVerdicts.NONE);
        assertThat(done.nextInitContainerToStart()).isNull();
        assertThat(done.containersToStart()).containsExactly(0);
    }

    @Test
    void failedInitContainerIsRetriedUnlessRestartPolicyNever() {
        Container i1 = container("i1");
        Pod always = pod("p", "Always", List.of(i1), List.of(container("a")));
        PodActions retry = ComputePodActions.compute(always, podStatus(always, true, status(i1, State.EXITED, 1, 0)), ProbeVerdicts.NONE);
        assertThat(retry.nextInitContainerToStart().getName()).isEqualTo("i1");
        assertThat(retry.killPod()).isFalse();

        Pod never = pod("q", "Never", List.of(i1), List.of(container("a")));
        PodActions kill = ComputePodActions.compute(never, podStatus(never, true, status(i1, State.EXITED, 1, 0)), ProbeVerdicts.NONE);
        assertThat(kill.killPod()).isTrue();
        assertThat(kill.nextInitContainerToStart()).isNull();
    }

    record RestartCase(String policy, int exitCode, boolean restarted) {}

    @Test
    void exitedContainerRestartsByPolicy() {
        List<RestartCase> cases = List.of(
                new RestartCase("Always", 0, true), new RestartCase("Always", 1, true),
                new RestartCase("OnFailure", 0, false), new RestartCase("OnFailure", 2, true),
                new RestartCase("Never", 0, false), new RestartCase("Never", 1, false));
        List<String> failures = new ArrayList<>();
        for (RestartCase c : cases) {
            Container a = container("a");
            Pod pod = pod("p", c.policy(), List.of(), List.of(a));
            PodActions actions = ComputePodActions.compute(pod, podStatus(pod, true, status(a, State.EXITED, c.exitCode(), 0)),
                    ProbeVerdicts.NONE);
            if (actions.containersToStart().contains(0) != c.restarted()) {
                failures.add(c.toString());
            }
            if (!c.restarted() && !actions.killPod()) {
                failures.add(c + ": nothing left to run, the pod should be killed");
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void changedSpecRestartsOnlyThatContainer() {
        Container a = container("a"), b = container("b");
        Pod pod = pod("p", a, b);
        RuntimePodStatus running = podStatus(pod, true, status(a, State.RUNNING, 0, 0), status(b, State.RUNNING, 0, 0));
        Container b2 = new ContainerBuilder(b).withImage("busybox:1.37").build();
        Pod edited = pod("p", a, b2);
        PodActions actions = ComputePodActions.compute(edited, running, ProbeVerdicts.NONE);
        assertThat(actions.createSandbox()).isFalse();
        assertThat(actions.containersToStart()).containsExactly(1);
        assertThat(actions.containersToKill()).hasSize(1);
        assertThat(actions.containersToKill().values().iterator().next().message())
                .isEqualTo("Container b definition changed, will be restarted");
    }

    @Test
    void deadSandboxIsRecreatedWithTheNextAttempt() {
        Container a = container("a");
        Pod pod = pod("p", a);
        PodActions actions = ComputePodActions.compute(pod, podStatus(pod, false, status(a, State.EXITED, 137, 0)), ProbeVerdicts.NONE);
        assertThat(actions.createSandbox()).isTrue();
        assertThat(actions.killPod()).isTrue();
        assertThat(actions.attempt()).isEqualTo(1);
        assertThat(actions.containersToStart()).containsExactly(0);
    }

    @Test
    void neverPodWhoseSandboxDiedIsNotBroughtBack() {
        Container a = container("a");
        Pod pod = pod("p", "Never", List.of(), List.of(a));
        PodActions actions = ComputePodActions.compute(pod, podStatus(pod, false, status(a, State.EXITED, 0, 0)), ProbeVerdicts.NONE);
        assertThat(actions.createSandbox()).isFalse();
    }

    @Test
    void onFailurePodDoesNotRestartSucceededContainersInANewSandbox() {
        Container a = container("a"), b = container("b");
        Pod pod = pod("p", "OnFailure", List.of(), List.of(a, b));
        PodActions actions = ComputePodActions.compute(pod, podStatus(pod, false,
                status(a, State.EXITED, 0, 0), status(b, State.EXITED, 1, 0)), ProbeVerdicts.NONE);
        assertThat(actions.createSandbox()).isTrue();
        assertThat(actions.containersToStart()).containsExactly(1);
    }

    @Test
    void livenessFailureKillsAndRestarts() {
        Container a = container("a");
        Pod pod = pod("p", a);
        ContainerStatus running = status(a, State.RUNNING, 0, 0);
        ProbeVerdicts failing = new ProbeVerdicts() {
            @Override public boolean livenessFailed(String id) { return id.equals(running.id()); }
            @Override public boolean startupFailed(String id) { return false; }
        };
        PodActions actions = ComputePodActions.compute(pod, podStatus(pod, true, running), failing);
        assertThat(actions.containersToKill()).containsKey(running.id());
        assertThat(actions.containersToKill().get(running.id()).reason()).isEqualTo("Liveness");
        assertThat(actions.containersToStart()).containsExactly(0);
    }

    @Test
    void allRunningMeansNothingToDo() {
        Container a = container("a");
        Pod pod = pod("p", a);
        PodActions actions = ComputePodActions.compute(pod, podStatus(pod, true, status(a, State.RUNNING, 0, 0)), ProbeVerdicts.NONE);
        assertThat(actions.killPod()).isFalse();
        assertThat(actions.createSandbox()).isFalse();
        assertThat(actions.containersToStart()).isEmpty();
        assertThat(actions.containersToKill()).isEmpty();
    }
}
