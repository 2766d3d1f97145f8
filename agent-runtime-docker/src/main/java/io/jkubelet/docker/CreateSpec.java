package io.jkubelet.docker;

import io.jkubelet.docker.engine.ContainerConfig;
import io.jkubelet.docker.engine.HostConfig;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything a Docker container create call needs, computed from a CRI config by {@link CreateSpecs}
 * without talking to Docker, so that the translation can be tested on its own.
 *
 * @param entrypoint the CRI command, or empty for the image's entrypoint
 * @param cmd the CRI args, or empty for the image's cmd
 * @param user {@code uid[:gid]}, or {@code null} for the image's user
 * @param exposedPorts the published container ports as Docker keys them, e.g. {@code 80/tcp}
 */
record CreateSpec(String name, String image, Map<String, String> labels, String hostname,
                  List<String> entrypoint, List<String> cmd, List<String> env, String workingDir, String user,
                  boolean tty, boolean stdin, boolean stdinOnce, List<String> exposedPorts,
                  HostConfig hostConfig) {

    /** The body of {@code POST /containers/create}; what is left empty is the image's. */
    ContainerConfig toConfig() {
        Map<String, Map<String, Object>> exposed = null;
        if (!exposedPorts.isEmpty()) {
            exposed = new LinkedHashMap<>();
            for (String port : exposedPorts) {
                exposed.put(port, Map.of()); // the API wants an empty object per port
            }
        }
        return new ContainerConfig(hostname == null || hostname.isEmpty() ? null : hostname, user,
                tty, stdin, stdinOnce, null, null, null,
                env.isEmpty() ? null : env, this.cmd.isEmpty() ? null : this.cmd,
                entrypoint.isEmpty() ? null : entrypoint, image, labels,
                workingDir == null || workingDir.isEmpty() ? null : workingDir, exposed,
                // Docker's own health checks would compete with the kubelet's probes (kubernetes#25829).
                new ContainerConfig.HealthConfig(List.of("NONE")), null, hostConfig);
    }
}
