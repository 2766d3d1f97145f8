package io.jkubelet.core.container;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.podutil.PodSpecs;

import java.util.Optional;

/** Whether a container that does not run will run again (upstream {@code kubecontainer.ShouldContainerBeRestarted}). */
public final class ContainerRestarts {
    private ContainerRestarts() {}

    public static boolean shouldContainerBeRestarted(Container container, Pod pod, RuntimePodStatus podStatus) {
        if (PodSpecs.isBeingDeleted(pod)) {
            return false;
        }
        Optional<ContainerStatus> status = podStatus.findContainerStatusByName(container.getName());
        if (status.isEmpty()) {
            return true;
        }
        State state = status.get().state();
        if (state == State.RUNNING) {
            return false;
        }
        if (state == State.UNKNOWN || state == State.CREATED) {
            return true;
        }
        String policy = PodSpecs.restartPolicy(pod);
        if (PodSpecs.RESTART_NEVER.equals(policy)) {
            return false;
        }
        return !(PodSpecs.RESTART_ON_FAILURE.equals(policy) && status.get().exitCode() == 0);
    }
}
