package io.jkubelet.docker.engine;

import java.util.List;
import java.util.Map;

/**
 * A container's configuration (the Engine API's {@code ContainerConfig}): the body of {@code POST /containers/create}
 * with its {@code HostConfig}, and the {@code Config} of an inspected container or image.
 *
 * @param exposedPorts {@code "80/tcp"} to an empty object, as the API wants it
 */
public record ContainerConfig(String hostname, String user, Boolean tty, Boolean openStdin, Boolean stdinOnce,
                              Boolean attachStdin, Boolean attachStdout, Boolean attachStderr,
                              List<String> env, List<String> cmd, List<String> entrypoint, String image,
                              Map<String, String> labels, String workingDir, Map<String, Map<String, Object>> exposedPorts,
                              HealthConfig healthcheck, String stopSignal, HostConfig hostConfig) {

    /** A configuration of only an image, a command and labels; the rest is set with the record's copy methods. */
    public static ContainerConfig of(String image, List<String> cmd, Map<String, String> labels) {
        return new ContainerConfig(null, null, null, null, null, null, null, null, null, cmd, null, image, labels,
                null, null, null, null, null);
    }

    public ContainerConfig withHostConfig(HostConfig hostConfig) {
        return new ContainerConfig(hostname, user, tty, openStdin, stdinOnce, attachStdin, attachStdout, attachStderr,
                env, cmd, entrypoint, image, labels, workingDir, exposedPorts, healthcheck, stopSignal, hostConfig);
    }

    public ContainerConfig withTty(boolean tty, boolean openStdin, boolean stdinOnce) {
        return new ContainerConfig(hostname, user, tty, openStdin, stdinOnce, attachStdin, attachStdout, attachStderr,
                env, cmd, entrypoint, image, labels, workingDir, exposedPorts, healthcheck, stopSignal, hostConfig);
    }

    /** {@code Healthcheck}: {@code ["NONE"]} turns off an image's health check, as the kubelet wants. */
    public record HealthConfig(List<String> test) {}
}
