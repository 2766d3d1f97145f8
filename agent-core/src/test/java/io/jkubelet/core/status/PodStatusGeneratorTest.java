package io.jkubelet.core.status;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.container.RuntimePodStatus;
import io.jkubelet.core.container.ContainerStatus;
import io.jkubelet.core.container.SandboxStatus;
import io.jkubelet.core.container.State;
import io.jkubelet.core.kuberuntime.ContainerHash;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.jkubelet.core.testing.Pods.container;
import static io.jkubelet.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

class PodStatusGeneratorTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private final ReasonCache reasons = new ReasonCache();
    private final PodStatusGenerator generator = new PodStatusGenerator(reasons, ContainerProbeView.NO_PROBES, p -> "BestEffort");
    private int seq;

    private ContainerStatus cs(Container c, State state, int exitCode, int restarts, String reason) {
        seq++;
        return new ContainerStatus("id" + seq, "docker", c.getName(), state, T0.plusSeconds(seq), T0.plusSeconds(seq),
                state == State.EXITED ? T0.plusSeconds(seq + 1) : null, exitCode, c.getImage(), "sha256:abc",
                ContainerHash.of(c), restarts, reason, "", "sb", "/dev/termination-log", "");
    }

    private PodStatus generate(Pod pod, ContainerStatus... statuses) {
        var runtime = new RuntimePodStatus(pod.getMetadata().getUid(), pod.getMetadata().getName(),
                "default", List.of("172.17.0.5"), List.of(new SandboxStatus("sb", 0, true, T0, List.of("172.17.0.5"), false)),
                List.of(statuses));
        return generator.generate(pod, runtime, new PodStatus(), false, List.of("192.168.1.10"), true);
    }

    private static Map<String, String> conditions(PodStatus s) {
        return s.getConditions().stream().collect(Collectors.toMap(PodCondition::getType, PodCondition::getStatus));
    }

    @Test
    void runningPodIsRunningAndReady() {
        Container a = container("a");
        PodStatus s = generate(pod("p", a), cs(a, State.RUNNING, 0, 0, ""));
        assertThat(s.getPhase()).isEqualTo("Running");
        assertThat(s.getPodIP()).isEqualTo("172.17.0.5");
        assertThat(s.getHostIP()).isEqualTo("192.168.1.10");
        assertThat(s.getQosClass()).isEqualTo("BestEffort");
        assertThat(conditions(s)).containsEntry("Ready", "True").containsEntry("ContainersReady", "True")
                .containsEntry("Initialized", "True").containsEntry("PodScheduled", "True")
                .containsEntry("PodReadyToStartContainers", "True");
        assertThat(s.getConditions()).extracting(PodCondition::getType).containsExactly(
                "PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled");
        var c = s.getContainerStatuses().get(0);
        assertThat(c.getContainerID()).startsWith("docker://");
        assertThat(c.getReady()).isTrue();
        assertThat(c.getStarted()).isTrue();
        assertThat(c.getState().getRunning().getStartedAt()).isNotNull();
    }

    @Test
    void anEvictedPodKeepsItsPhaseReasonAndDisruptionConditionAsItsContainersStop() {
        Container a = container("a");
        Pod pod = pod("p", a);
        PodStatus evicted = new PodStatus();
        evicted.setPhase("Failed");
        evicted.setReason("Evicted");
        evicted.setMessage("The node was low on resource: memory. ");
        evicted.setConditions(List.of(new io.fabric8.kubernetes.api.model.PodConditionBuilder().withType("DisruptionTarget")
                .withStatus("True").withReason("TerminationByKubelet").withMessage(evicted.getMessage()).build()));
        var runtime = new RuntimePodStatus("uid-p", "p", "default", List.of(),
                List.of(new SandboxStatus("sb", 0, false, T0, List.of(), false)), List.of(cs(a, State.EXITED, 137, 0, "Error")));

        PodStatus s = generator.generate(pod, runtime, evicted, true, List.of("192.168.1.10"), false);

        assertThat(s.getPhase()).isEqualTo("Failed");
        assertThat(s.getReason()).isEqualTo("Evicted");
        assertThat(s.getMessage()).isEqualTo(evicted.getMessage());
        assertThat(s.getConditions()).filteredOn(c -> c.getType().equals("DisruptionTarget")).singleElement()
                .satisfies(c -> assertThat(c.getReason()).isEqualTo("TerminationByKubelet"));
    }

    @Test
    void containerNotYetCreatedWaitsWithContainerCreating() {
        Container a = container("a"), b = container("b");
        PodStatus s = generate(pod("p", a, b), cs(a, State.RUNNING, 0, 0, ""));
        assertThat(s.getPhase()).isEqualTo("Pending");
        var b1 = s.getContainerStatuses().stream().filter(x -> x.getName().equals("b")).findFirst().orElseThrow();
        assertThat(b1.getState().getWaiting().getReason()).isEqualTo("ContainerCreating");
        assertThat(conditions(s)).containsEntry("Ready", "False");
        var ready = s.getConditions().stream().filter(c -> c.getType().equals("ContainersReady")).findFirst().orElseThrow();
        assertThat(ready.getReason()).isEqualTo("ContainersNotReady");
        assertThat(ready.getMessage()).isEqualTo("containers with unready status: [b]");
    }

    @Test
    void crashLoopShowsWaitingReasonAndLastTermination() {
        Container a = container("a");
        Pod pod = pod("p", a);
        reasons.add(pod.getMetadata().getUid(), "a", "CrashLoopBackOff", "back-off 10s restarting failed container=a pod=p_default(uid-p)");
        PodStatus s = generate(pod, cs(a, State.EXITED, 1, 0, "Error"), cs(a, State.EXITED, 2, 1, "Error"));
        var c = s.getContainerStatuses().get(0);
        assertThat(c.getState().getWaiting().getReason()).isEqualTo("CrashLoopBackOff");
        assertThat(c.getLastState().getTerminated().getExitCode()).isEqualTo(2);
        assertThat(c.getLastState().getTerminated().getReason()).isEqualTo("Error");
        assertThat(c.getRestartCount()).isEqualTo(1);
        assertThat(s.getPhase()).isEqualTo("Running");
    }

    @Test
    void onFailurePodWhoseContainersSucceededIsSucceeded() {
        Container a = container("a");
        Pod pod = pod("job", "OnFailure", List.of(), List.of(a));
        PodStatus s = generate(pod, cs(a, State.EXITED, 0, 0, "Completed"));
        assertThat(s.getPhase()).isEqualTo("Succeeded");
        var t = s.getContainerStatuses().get(0).getState().getTerminated();
        assertThat(t.getReason()).isEqualTo("Completed");
        var ready = s.getConditions().stream().filter(c -> c.getType().equals("ContainersReady")).findFirst().orElseThrow();
        assertThat(ready.getReason()).isEqualTo("PodCompleted");
    }

    @Test
    void neverPodWithAFailureIsFailed() {
        Container a = container("a");
        PodStatus s = generate(pod("p", "Never", List.of(), List.of(a)), cs(a, State.EXITED, 3, 0, "Error"));
        assertThat(s.getPhase()).isEqualTo("Failed");
    }

    @Test
    void podWithInitContainersIsInitializingUntilTheyFinish() {
        Container i = container("init"), a = container("a");
        Pod pod = pod("p", "Always", List.of(i), List.of(a));
        PodStatus s = generate(pod, cs(i, State.RUNNING, 0, 0, ""));
        assertThat(s.getPhase()).isEqualTo("Pending");
        assertThat(s.getContainerStatuses().get(0).getState().getWaiting().getReason()).isEqualTo("PodInitializing");
        var init = s.getConditions().stream().filter(c -> c.getType().equals("Initialized")).findFirst().orElseThrow();
        assertThat(init.getStatus()).isEqualTo("False");
        assertThat(init.getReason()).isEqualTo("ContainersNotInitialized");
        assertThat(init.getMessage()).isEqualTo("containers with incomplete status: [init]");

        PodStatus done = generate(pod, cs(i, State.EXITED, 0, 0, "Completed"), cs(a, State.RUNNING, 0, 0, ""));
        assertThat(done.getPhase()).isEqualTo("Running");
        assertThat(conditions(done)).containsEntry("Initialized", "True");
        assertThat(done.getInitContainerStatuses().get(0).getReady()).isTrue();
    }

    @Test
    void terminalPhaseIsNeverLeft() {
        Container a = container("a");
        Pod pod = pod("p", "OnFailure", List.of(), List.of(a));
        PodStatus old = new PodStatus();
        old.setPhase("Succeeded");
        var runtime = new RuntimePodStatus("uid-p", "p", "default", List.of(), List.of(),
                List.of(cs(a, State.RUNNING, 0, 0, "")));
        PodStatus s = generator.generate(pod, runtime, old, false, List.of(), true);
        assertThat(s.getPhase()).isEqualTo("Succeeded");
    }

    @Test
    void terminationMessagesShareTheTwelveKiBPodBudget() {
        Container a = container("a"), b = container("b"), c = container("c"), d = container("d");
        Pod pod = pod("p", "Always", List.of(), List.of(a, b, c, d));
        PodStatus s = new PodStatus();
        List<io.fabric8.kubernetes.api.model.ContainerStatus> statuses = new java.util.ArrayList<>();
        for (Container x : List.of(a, b, c, d)) {
            var st = new io.fabric8.kubernetes.api.model.ContainerStatus();
            st.setName(x.getName());
            st.setState(new io.fabric8.kubernetes.api.model.ContainerStateBuilder().withNewTerminated()
                    .withMessage(x.getName().equals("a") ? "é".repeat(2000) : "short").endTerminated().build());
            statuses.add(st);
        }
        s.setContainerStatuses(statuses);
        PodStatusGenerator.limitTerminationMessages(pod, s);
        // 12288 / 4 containers = 3072 bytes each; "é" is two bytes in UTF-8.
        assertThat(s.getContainerStatuses().get(0).getState().getTerminated().getMessage()).isEqualTo("é".repeat(1536));
        assertThat(s.getContainerStatuses().get(1).getState().getTerminated().getMessage()).isEqualTo("short");
    }
}
