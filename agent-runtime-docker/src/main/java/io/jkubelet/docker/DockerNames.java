package io.jkubelet.docker;

import io.jkubelet.core.runtime.ContainerMetadata;
import io.jkubelet.core.runtime.PodSandboxMetadata;

import java.util.Optional;

/**
 * Docker container names as dockershim makes them: {@code k8s_POD_<pod>_<namespace>_<uid>_<attempt>} for a
 * sandbox and {@code k8s_<container>_<pod>_<namespace>_<uid>_<attempt>} for a container.
 *
 * <p>The name makes creation idempotent (Docker refuses a second container with the same name, as the CRI
 * requires one sandbox or container per metadata), and node tooling (and {@code docker ps} readers) know
 * pods by it. Pod, namespace and container names cannot contain {@code _}, so the parts split cleanly.
 */
final class DockerNames {
    private DockerNames() {}

    static final String KUBE_PREFIX = "k8s";
    /** The container name dockershim gives the sandbox; also its {@code io.kubernetes.container.name}. */
    static final String SANDBOX_CONTAINER_NAME = "POD";
    private static final String DELIMITER = "_";

    static String sandboxName(PodSandboxMetadata m) {
        return String.join(DELIMITER, KUBE_PREFIX, SANDBOX_CONTAINER_NAME, m.name(), m.namespace(), m.uid(),
                Integer.toString(m.attempt()));
    }

    static String containerName(PodSandboxMetadata sandbox, ContainerMetadata c) {
        return String.join(DELIMITER, KUBE_PREFIX, c.name(), sandbox.name(), sandbox.namespace(), sandbox.uid(),
                Integer.toString(c.attempt()));
    }

    /** The sandbox metadata a name carries, or empty when it is not a kubelet's sandbox name. */
    static Optional<PodSandboxMetadata> parseSandboxName(String name) {
        return parts(name).map(p -> new PodSandboxMetadata(p[2], p[4], p[3], Integer.parseInt(p[5])));
    }

    /** The container metadata a name carries, or empty when it is not a kubelet's container name. */
    static Optional<ContainerMetadata> parseContainerName(String name) {
        return parts(name).map(p -> new ContainerMetadata(p[1], Integer.parseInt(p[5])));
    }

    private static Optional<String[]> parts(String name) {
        if (name == null) {
            return Optional.empty();
        }
        // Docker puts a "/" before names; dockershim tolerated a 7th random suffix it added on conflicts.
        String[] p = (name.startsWith("/") ? name.substring(1) : name).split(DELIMITER, -1);
        if ((p.length != 6 && p.length != 7) || !KUBE_PREFIX.equals(p[0]) || !p[5].matches("\\d{1,10}")) {
            return Optional.empty();
        }
        try {
            Integer.parseInt(p[5]);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        return Optional.of(p);
    }
}
