package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.SeccompProfile;
import io.jkubelet.core.runtime.SecurityProfile;

import java.nio.file.Path;

/**
 * Which seccomp profile a container runs under (upstream {@code getSeccompProfile}): the container's
 * {@code securityContext.seccompProfile}, else the pod's, else RuntimeDefault with {@code seccompDefault} and
 * Unconfined without. A Localhost profile names a file under {@code <root-dir>/seccomp}, which the runtime reads.
 * The old {@code seccomp.security.alpha.kubernetes.io} annotations are not read: upstream's kubelet stopped reading
 * them in 1.27.
 *
 * @param profileRoot {@code <root-dir>/seccomp}
 * @param seccompDefault {@code seccompDefault}: RuntimeDefault for containers that ask for no profile
 */
public record SeccompProfiles(Path profileRoot, boolean seccompDefault) {
    /** The directory under the root directory that Localhost profiles are relative to (upstream's). */
    public static final String PROFILE_DIR = "seccomp";

    public static SeccompProfiles under(Path rootDir, boolean seccompDefault) {
        return new SeccompProfiles(rootDir.resolve(PROFILE_DIR), seccompDefault);
    }

    /**
     * The profile of {@code container}.
     *
     * @throws IllegalArgumentException when a Localhost profile names no file (upstream's message)
     */
    public SecurityProfile forContainer(Pod pod, Container container) {
        if (container.getSecurityContext() != null && container.getSecurityContext().getSeccompProfile() != null) {
            return fromField(container.getSecurityContext().getSeccompProfile());
        }
        var podContext = pod.getSpec().getSecurityContext();
        if (podContext != null && podContext.getSeccompProfile() != null) {
            return fromField(podContext.getSeccompProfile());
        }
        return fallback();
    }

    /**
     * The sandbox's profile: always the runtime's default, as upstream's kubelet asks since seccomp went GA
     * (the pause process needs nothing the default profile blocks).
     */
    public SecurityProfile forSandbox() {
        return SecurityProfile.RUNTIME_DEFAULT;
    }

    private SecurityProfile fromField(SeccompProfile field) {
        String type = field.getType();
        if ("RuntimeDefault".equals(type)) {
            return SecurityProfile.RUNTIME_DEFAULT;
        }
        if ("Localhost".equals(type)) {
            String file = field.getLocalhostProfile();
            if (file == null || file.isEmpty()) {
                throw new IllegalArgumentException("localhostProfile must be set if seccompProfile type is Localhost.");
            }
            return SecurityProfile.localhost(profileRoot.resolve(file).normalize().toString());
        }
        return SecurityProfile.UNCONFINED; // Unconfined, and a type validation would refuse, as upstream
    }

    private SecurityProfile fallback() {
        return seccompDefault ? SecurityProfile.RUNTIME_DEFAULT : SecurityProfile.UNCONFINED;
    }
}
