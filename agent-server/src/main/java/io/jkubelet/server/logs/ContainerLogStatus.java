package io.jkubelet.server.logs;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.EphemeralContainer;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import java.util.List;
import java.util.Optional;

/**
 * Which container instance's log a request means, decided from the pod's status as upstream's {@code
 * validateContainerLogStatus}: {@code previous} wants the last terminated instance; otherwise the running
 * one, else the terminated one, else the last terminated one. A container with no instance to read gets
 * upstream's error texts ({@code previous terminated container "app" in pod "web" not found}, {@code ... is
 * waiting to start: ...}), which the kubelet answers with 400. Pure; thread-safe.
 */
public final class ContainerLogStatus {

    /** No log can be read for the request; the message is the kubelet's. */
    public static final class UnavailableException extends Exception {
        public UnavailableException(String message) {
            super(message);
        }
    }

    private ContainerLogStatus() {}

    /** Whether {@code pod}'s spec has a container, init container or ephemeral container of that name. */
    public static boolean hasContainerSpec(Pod pod, String containerName) {
        if (pod.getSpec() == null) {
            return false;
        }
        for (List<Container> list : List.of(nonNull(pod.getSpec().getContainers()), nonNull(pod.getSpec().getInitContainers()))) {
            for (Container c : list) {
                if (containerName.equals(c.getName())) {
                    return true;
                }
            }
        }
        for (EphemeralContainer c : nonNull(pod.getSpec().getEphemeralContainers())) {
            if (containerName.equals(c.getName())) {
                return true;
            }
        }
        return false;
    }

    /**
     * The container id ({@code docker://<id>}, as the status has it) of the instance whose log to read.
     *
     * @throws UnavailableException with upstream's message when there is none
     */
    public static String containerId(Pod pod, String containerName, boolean previous) throws UnavailableException {
        String podName = pod.getMetadata().getName();
        PodStatus status = pod.getStatus() == null ? new PodStatus() : pod.getStatus();
        Optional<ContainerStatus> found = find(status.getContainerStatuses(), containerName)
                .or(() -> find(status.getInitContainerStatuses(), containerName))
                .or(() -> find(status.getEphemeralContainerStatuses(), containerName));
        if (found.isEmpty()) {
            throw new UnavailableException(String.format("container %s in pod %s is not available", quote(containerName), quote(podName)));
        }
        ContainerStatus cs = found.get();
        ContainerState state = cs.getState() == null ? new ContainerState() : cs.getState();
        ContainerStateTerminated last = cs.getLastState() == null ? null : cs.getLastState().getTerminated();
        String id;
        if (previous) {
            if (last == null || isEmpty(last.getContainerID())) {
                throw new UnavailableException(String.format("previous terminated container %s in pod %s not found",
                        quote(containerName), quote(podName)));
            }
            id = last.getContainerID();
        } else if (state.getRunning() != null) {
            id = cs.getContainerID();
        } else if (state.getTerminated() != null) {
            if (!isEmpty(state.getTerminated().getContainerID())) {
                id = state.getTerminated().getContainerID();
            } else if (last != null && !isEmpty(last.getContainerID())) {
                // The next instance did not start: read the one before.
                id = last.getContainerID();
            } else {
                throw terminated(containerName, podName);
            }
        } else if (last != null) {
            if (isEmpty(last.getContainerID())) {
                throw terminated(containerName, podName);
            }
            id = last.getContainerID();
        } else if (state.getWaiting() != null) {
            String reason = state.getWaiting().getReason() == null ? "" : state.getWaiting().getReason();
            String what = switch (reason) {
                case "ErrImagePull" -> "image can't be pulled";
                case "ImagePullBackOff" -> "trying and failing to pull image";
                default -> reason;
            };
            throw new UnavailableException(String.format("container %s in pod %s is waiting to start: %s",
                    quote(containerName), quote(podName), what));
        } else {
            throw new UnavailableException(String.format("container %s in pod %s is waiting to start - no logs yet",
                    quote(containerName), quote(podName)));
        }
        if (isEmpty(id)) {
            throw new UnavailableException(String.format("container %s in pod %s is waiting to start - no logs yet",
                    quote(containerName), quote(podName)));
        }
        return id;
    }

    /** Go's {@code %q} for the plain names used here. */
    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\x%02x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    private static UnavailableException terminated(String containerName, String podName) {
        return new UnavailableException(String.format("container %s in pod %s is terminated", quote(containerName), quote(podName)));
    }

    private static Optional<ContainerStatus> find(List<ContainerStatus> statuses, String name) {
        return nonNull(statuses).stream().filter(s -> name.equals(s.getName())).findFirst();
    }

    private static <T> List<T> nonNull(List<T> list) {
        return list == null ? List.of() : list;
    }

    private static boolean isEmpty(String s) {
        return s == null || s.isEmpty();
    }
}
