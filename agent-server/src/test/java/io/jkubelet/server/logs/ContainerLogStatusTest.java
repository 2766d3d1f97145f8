package io.jkubelet.server.logs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

/** Which instance's log a request reads, from the pod status (upstream {@code validateContainerLogStatus}). */
class ContainerLogStatusTest {

    private static final ContainerState RUNNING = new ContainerStateBuilder().withNewRunning().endRunning().build();

    private static ContainerState terminated(String id) {
        return new ContainerStateBuilder().withNewTerminated().withExitCode(1).withContainerID(id).endTerminated().build();
    }

    private static ContainerState waiting(String reason) {
        return new ContainerStateBuilder().withNewWaiting().withReason(reason).endWaiting().build();
    }

    private static Pod pod(ContainerState state, ContainerState last, String id) {
        return new PodBuilder()
                .withNewMetadata().withName("web").withNamespace("default").endMetadata()
                .withNewSpec().addNewContainer().withName("app").endContainer().addNewInitContainer().withName("init").endInitContainer().endSpec()
                .withNewStatus().addToContainerStatuses(new ContainerStatusBuilder().withName("app").withContainerID(id)
                        .withState(state).withLastState(last).build()).endStatus()
                .build();
    }

    @Test
    void currentPrefersTheRunningInstance() throws Exception {
        assertThat(ContainerLogStatus.containerId(pod(RUNNING, terminated("docker://old"), "docker://new"), "app", false))
                .isEqualTo("docker://new");
    }

    @Test
    void previousIsTheLastTerminatedInstance() throws Exception {
        assertThat(ContainerLogStatus.containerId(pod(RUNNING, terminated("docker://old"), "docker://new"), "app", true))
                .isEqualTo("docker://old");
        assertThatThrownBy(() -> ContainerLogStatus.containerId(pod(RUNNING, new ContainerState(), "docker://new"), "app", true))
                .hasMessage("previous terminated container \"app\" in pod \"web\" not found");
    }

    @Test
    void aTerminatedContainerWithoutIdFallsBackToTheOneBefore() throws Exception {
        assertThat(ContainerLogStatus.containerId(pod(terminated(""), terminated("docker://before"), ""), "app", false))
                .isEqualTo("docker://before");
        assertThatThrownBy(() -> ContainerLogStatus.containerId(pod(terminated(""), new ContainerState(), ""), "app", false))
                .hasMessage("container \"app\" in pod \"web\" is terminated");
    }

    @Test
    void aWaitingContainerSaysWhy() {
        assertThatThrownBy(() -> ContainerLogStatus.containerId(pod(waiting("ErrImagePull"), new ContainerState(), ""), "app", false))
                .hasMessage("container \"app\" in pod \"web\" is waiting to start: image can't be pulled");
        assertThatThrownBy(() -> ContainerLogStatus.containerId(pod(waiting("ImagePullBackOff"), new ContainerState(), ""), "app", false))
                .hasMessage("container \"app\" in pod \"web\" is waiting to start: trying and failing to pull image");
        assertThatThrownBy(() -> ContainerLogStatus.containerId(pod(waiting("ContainerCreating"), new ContainerState(), ""), "app", false))
                .hasMessage("container \"app\" in pod \"web\" is waiting to start: ContainerCreating");
        assertThatThrownBy(() -> ContainerLogStatus.containerId(pod(new ContainerState(), new ContainerState(), ""), "app", false))
                .hasMessage("container \"app\" in pod \"web\" is waiting to start - no logs yet");
    }

    @Test
    void aContainerWithoutStatusIsNotAvailableAndSpecsIncludeInitContainers() {
        Pod pod = pod(RUNNING, new ContainerState(), "docker://x");

        assertThatThrownBy(() -> ContainerLogStatus.containerId(pod, "init", false))
                .hasMessage("container \"init\" in pod \"web\" is not available");
        assertThat(ContainerLogStatus.hasContainerSpec(pod, "init")).isTrue();
        assertThat(ContainerLogStatus.hasContainerSpec(pod, "other")).isFalse();
    }
}
