package io.jkubelet.docker;

import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.HealthCheck;
import com.github.dockerjava.api.model.HostConfig;

import java.util.List;
import java.util.Map;

/**
 * Everything a Docker container create call needs, computed from a CRI config by {@link CreateSpecs}
 * without talking to Docker, so that the translation can be tested on its own.
 *
 * @param entrypoint the CRI command, or empty for the image's entrypoint
 * @param cmd the CRI args, or empty for the image's cmd
 * @param user {@code uid[:gid]}, or {@code null} for the image's user
 */
record CreateSpec(String name, String image, Map<String, String> labels, String hostname,
                  List<String> entrypoint, List<String> cmd, List<String> env, String workingDir, String user,
                  boolean tty, boolean stdin, boolean stdinOnce, List<ExposedPort> exposedPorts,
                  HostConfig hostConfig) {

    CreateContainerCmd applyTo(CreateContainerCmd cmd) {
        cmd.withName(name).withImage(image).withLabels(labels).withHostConfig(hostConfig)
                .withTty(tty).withStdinOpen(stdin).withStdInOnce(stdinOnce)
                // Docker's own health checks would compete with the kubelet's probes (kubernetes#25829).
                .withHealthcheck(new HealthCheck().withTest(List.of("NONE")));
        if (hostname != null && !hostname.isEmpty()) {
            cmd.withHostName(hostname);
        }
        if (!entrypoint.isEmpty()) {
            cmd.withEntrypoint(entrypoint);
        }
        if (!this.cmd.isEmpty()) {
            cmd.withCmd(this.cmd);
        }
        if (!env.isEmpty()) {
            cmd.withEnv(env);
        }
        if (workingDir != null && !workingDir.isEmpty()) {
            cmd.withWorkingDir(workingDir);
        }
        if (user != null) {
            cmd.withUser(user);
        }
        if (!exposedPorts.isEmpty()) {
            cmd.withExposedPorts(exposedPorts);
        }
        return cmd;
    }
}
