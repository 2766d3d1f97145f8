package io.jkubelet.core.container;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Everything the runtime knows about one pod (upstream {@code kubecontainer.PodStatus}): its sandboxes and
 * every container instance, newest first, so that the first match by name is the latest instance.
 */
public record RuntimePodStatus(String uid, String name, String namespace, List<String> ips,
                        List<SandboxStatus> sandboxes, List<ContainerStatus> containers) {

    /** Newest first; the restart count breaks ties, since runtimes may stamp two creations alike. */
    private static final Comparator<ContainerStatus> NEWEST_CONTAINER_FIRST =
            Comparator.comparing(ContainerStatus::createdAt, Comparator.nullsFirst(Comparator.naturalOrder()))
                    .thenComparingInt(ContainerStatus::restartCount)
                    .reversed();
    private static final Comparator<SandboxStatus> NEWEST_SANDBOX_FIRST =
            Comparator.comparingInt(SandboxStatus::attempt)
                    .thenComparing(SandboxStatus::createdAt, Comparator.nullsFirst(Comparator.naturalOrder()))
                    .reversed();

    public RuntimePodStatus {
        ips = List.copyOf(ips);
        sandboxes = sandboxes.stream().sorted(NEWEST_SANDBOX_FIRST).toList();
        containers = containers.stream().sorted(NEWEST_CONTAINER_FIRST).toList();
    }

    public static RuntimePodStatus empty(String uid, String name, String namespace) {
        return new RuntimePodStatus(uid, name, namespace, List.of(), List.of(), List.of());
    }

    /** The latest instance of the named container. */
    public Optional<ContainerStatus> findContainerStatusByName(String containerName) {
        return containers.stream().filter(c -> c.name().equals(containerName)).findFirst();
    }

    public List<ContainerStatus> containersByName(String containerName) {
        return containers.stream().filter(c -> c.name().equals(containerName)).toList();
    }

    public List<ContainerStatus> runningContainers() {
        return containers.stream().filter(c -> c.state() == State.RUNNING).toList();
    }
}
