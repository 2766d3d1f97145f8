package io.jkubelet.core.podutil;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** Small questions about a pod spec that several kubelet decisions share. */
public final class PodSpecs {
    private PodSpecs() {}

    public static final String RESTART_ALWAYS = "Always";
    public static final String RESTART_ON_FAILURE = "OnFailure";
    public static final String RESTART_NEVER = "Never";

    public static String restartPolicy(Pod pod) {
        String p = pod.getSpec().getRestartPolicy();
        return p == null || p.isEmpty() ? RESTART_ALWAYS : p;
    }

    /** Whether failed containers are restarted (upstream {@code shouldRestartOnFailure}). */
    public static boolean shouldRestartOnFailure(Pod pod) {
        return !RESTART_NEVER.equals(restartPolicy(pod));
    }

    public static boolean hostNetwork(Pod pod) {
        return Boolean.TRUE.equals(pod.getSpec().getHostNetwork());
    }

    public static List<Container> initContainers(Pod pod) {
        List<Container> l = pod.getSpec().getInitContainers();
        return l == null ? List.of() : l;
    }

    public static List<Container> containers(Pod pod) {
        List<Container> l = pod.getSpec().getContainers();
        return l == null ? List.of() : l;
    }

    /** The init containers, then the regular ones (ephemeral containers are of another type). */
    public static List<Container> allContainers(Pod pod) {
        List<Container> all = new ArrayList<>(initContainers(pod));
        all.addAll(containers(pod));
        return all;
    }

    /** A sidecar: an init container with {@code restartPolicy: Always}. */
    public static boolean isRestartableInitContainer(Container c) {
        return RESTART_ALWAYS.equals(c.getRestartPolicy());
    }

    /** Whether the pod has a sidecar (upstream {@code types.HasRestartableInitContainer}). */
    public static boolean hasRestartableInitContainer(Pod pod) {
        return initContainers(pod).stream().anyMatch(PodSpecs::isRestartableInitContainer);
    }

    public static boolean isInitContainer(Pod pod, String name) {
        return initContainers(pod).stream().anyMatch(c -> c.getName().equals(name));
    }

    public static Optional<Container> findContainer(Pod pod, String name) {
        return Stream.concat(initContainers(pod).stream(), containers(pod).stream())
                .filter(c -> c.getName().equals(name)).findFirst();
    }

    public static boolean isBeingDeleted(Pod pod) {
        return pod.getMetadata().getDeletionTimestamp() != null;
    }

    /** {@code <name>_<namespace>}, upstream's pod full name. */
    public static String podFullName(Pod pod) {
        return pod.getMetadata().getName() + "_" + pod.getMetadata().getNamespace();
    }

    /**
     * {@code name_namespace(uid)}, how the kubelet names a pod in its messages (upstream's {@code format.Pod}: an
     * underscore, which a pod's name cannot hold, parts name and namespace).
     */
    public static String format(Pod pod) {
        return pod.getMetadata().getName() + "_" + pod.getMetadata().getNamespace()
                + "(" + pod.getMetadata().getUid() + ")";
    }
}
