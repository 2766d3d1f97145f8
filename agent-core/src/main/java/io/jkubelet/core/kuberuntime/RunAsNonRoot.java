package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.jkubelet.core.podutil.PodSpecs;

/**
 * The {@code runAsNonRoot} policy (upstream {@code verifyRunAsNonRoot}, {@code security_context_others.go}): a
 * container whose effective security context (its own, else the pod's) has {@code runAsNonRoot: true} may not run as
 * root. An explicit {@code runAsUser} decides alone; otherwise the image's user does, and only a numeric one can be
 * verified. A refusal is a {@code CreateContainerConfigError}: the container is never created. Pure and thread-safe.
 */
final class RunAsNonRoot {
    /**
     * The highest uid a container may run as: upstream's {@code IsValidUserID} bound, checked since v1.33 because
     * containerd before 1.6.38 and 1.7.27 cut a larger one to 32 bits and could run it as root (CVE-2024-40635); this
     * node's containerd 1.6.20 is one of them.
     */
    static final long MAX_USER_ID = Integer.MAX_VALUE;

    private RunAsNonRoot() {
    }

    /** @throws ContainerConfigFactory.ConfigException with upstream's message when the container would run as root */
    static void verify(Pod pod, Container container, ImageUser image) throws ContainerConfigFactory.ConfigException {
        SecurityContext sc = container.getSecurityContext();
        PodSecurityContext psc = pod.getSpec() == null ? null : pod.getSpec().getSecurityContext();
        Boolean runAsNonRoot = sc != null && sc.getRunAsNonRoot() != null ? sc.getRunAsNonRoot()
                : psc != null ? psc.getRunAsNonRoot() : null;
        if (!Boolean.TRUE.equals(runAsNonRoot)) {
            return;
        }
        String where = "(pod: \"" + PodSpecs.format(pod) + "\", container: " + container.getName() + ")";
        Long runAsUser = sc != null && sc.getRunAsUser() != null ? sc.getRunAsUser()
                : psc != null ? psc.getRunAsUser() : null;
        if (runAsUser != null) {
            if (runAsUser == 0) {
                throw new ContainerConfigFactory.ConfigException("container's runAsUser breaks non-root policy " + where);
            }
            return;
        }
        if (image.uid() == null) {
            if (image.username().isEmpty()) {
                return; // nothing known of the image's user: upstream lets it pass (getImageUser never says so)
            }
            throw new ContainerConfigFactory.ConfigException("container has runAsNonRoot and image has non-numeric user ("
                    + image.username() + "), cannot verify user is non-root " + where);
        }
        long uid = image.uid();
        if (uid == 0) {
            throw new ContainerConfigFactory.ConfigException("container has runAsNonRoot and image will run as root "
                    + where);
        }
        if (uid < 0 || uid > MAX_USER_ID) {
            throw new ContainerConfigFactory.ConfigException("container has runAsNonRoot and image has an invalid user id ("
                    + uid + "). (Must be 1-(" + MAX_USER_ID + ")): must be between 0 and " + MAX_USER_ID
                    + ", inclusive " + where);
        }
    }
}
