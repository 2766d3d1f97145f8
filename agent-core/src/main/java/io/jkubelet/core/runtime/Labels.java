package io.jkubelet.core.runtime;

/**
 * Label and annotation keys the kubelet puts on sandboxes and containers, as upstream's
 * {@code pkg/kubelet/types/labels.go} and {@code kuberuntime/labels.go}: node tooling recognises pods by
 * them, and the kubelet rebuilds its state from them after a restart.
 */
public final class Labels {
    private Labels() {}

    public static final String POD_NAME = "io.kubernetes.pod.name";
    public static final String POD_NAMESPACE = "io.kubernetes.pod.namespace";
    public static final String POD_UID = "io.kubernetes.pod.uid";
    public static final String CONTAINER_NAME = "io.kubernetes.container.name";

    // Annotations kept on containers so that a restarted kubelet knows what it started.
    public static final String POD_DELETION_GRACE_PERIOD = "io.kubernetes.pod.deletionGracePeriod";
    public static final String POD_TERMINATION_GRACE_PERIOD = "io.kubernetes.pod.terminationGracePeriod";
    public static final String CONTAINER_HASH = "io.kubernetes.container.hash";
    public static final String CONTAINER_RESTART_COUNT = "io.kubernetes.container.restartCount";
    public static final String CONTAINER_TERMINATION_MESSAGE_PATH = "io.kubernetes.container.terminationMessagePath";
    public static final String CONTAINER_TERMINATION_MESSAGE_POLICY = "io.kubernetes.container.terminationMessagePolicy";
    public static final String CONTAINER_PRESTOP_HANDLER = "io.kubernetes.container.preStopHandler";
    public static final String CONTAINER_PORTS = "io.kubernetes.container.ports";
    /** Whether the container is an init container, and of which kind (jkubelet's addition). */
    public static final String CONTAINER_TYPE = "io.jkubelet.container.type";

    /** Scopes an agent's containers to its node, so that two agents on one engine leave each other alone. */
    public static final String NODE_NAME = "io.jkubelet.node.name";
}
