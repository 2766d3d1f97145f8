package io.jkubelet.core.container;

import java.time.Instant;

/**
 * One container instance of a pod as the runtime reports it, with what the kubelet stored on it
 * (upstream {@code kubecontainer.Status}).
 *
 * @param id the runtime's container id
 * @param name the container's name in the pod spec
 * @param hash the spec hash the kubelet stored when it created the container
 * @param restartCount the restart count the kubelet stored when it created the container
 * @param reason the runtime's reason for an exit ({@code Completed}, {@code Error}, {@code OOMKilled}, ...)
 * @param terminationMessagePath where the kubelet asked the container to write its termination message
 */
public record ContainerStatus(
        String id,
        String runtimeType,
        String name,
        State state,
        Instant createdAt,
        Instant startedAt,
        Instant finishedAt,
        int exitCode,
        String image,
        String imageId,
        String hash,
        int restartCount,
        String reason,
        String message,
        String podSandboxId,
        String terminationMessagePath,
        String logPath) {

    /** The id as the API shows it: {@code docker://<id>}. */
    public String containerId() {
        return runtimeType + "://" + id;
    }

    /**
     * The runtime's own id from the API's {@code docker://<id>} (the inverse of {@link #containerId()}):
     * what the runtime port, the probe results and {@code ProbeVerdicts} are keyed by. Null gives "".
     */
    public static String runtimeId(String apiContainerId) {
        if (apiContainerId == null) {
            return "";
        }
        int i = apiContainerId.indexOf("://");
        return i < 0 ? apiContainerId : apiContainerId.substring(i + 3);
    }
}
