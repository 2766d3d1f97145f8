package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Container;

import java.util.List;
import java.util.Map;

/**
 * What {@link ComputePodActions} decided a pod needs (upstream {@code podActions}).
 *
 * @param killPod stop every container and the sandbox
 * @param createSandbox create a new sandbox (after killing the old one)
 * @param sandboxId the current sandbox, when kept
 * @param attempt the attempt number of the sandbox to create
 * @param nextInitContainerToStart the init container to start next, or {@code null}
 * @param initContainersToStart for a pod with sidecars (upstream's SidecarContainers path): indexes into
 *     {@code spec.initContainers} to start, in spec order; a failure to start a restartable one does not
 *     stop the others. Empty for a pod without sidecars, which uses {@code nextInitContainerToStart}
 * @param containersToStart indexes into {@code spec.containers} to start
 * @param containersToKill running containers to kill, by runtime id
 */
public record PodActions(
        boolean killPod,
        boolean createSandbox,
        String sandboxId,
        int attempt,
        Container nextInitContainerToStart,
        List<Integer> initContainersToStart,
        List<Integer> containersToStart,
        Map<String, ContainerToKill> containersToKill) {

    public PodActions {
        initContainersToStart = List.copyOf(initContainersToStart);
        containersToStart = List.copyOf(containersToStart);
        containersToKill = Map.copyOf(containersToKill);
    }

    /**
     * A container to kill and why.
     *
     * @param reason the probe that failed ({@code Liveness}, {@code Startup}) or empty
     */
    public record ContainerToKill(String name, Container container, String message, String reason) {}
}
