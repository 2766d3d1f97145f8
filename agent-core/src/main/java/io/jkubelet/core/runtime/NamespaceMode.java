package io.jkubelet.core.runtime;

/** How a sandbox or container gets a Linux namespace (CRI {@code NamespaceMode}). */
public enum NamespaceMode {
    /** The pod's own namespace, shared by its containers (held by the sandbox). */
    POD,
    /** The container's own namespace. */
    CONTAINER,
    /** The node's namespace (hostNetwork, hostPID, hostIPC). */
    NODE
}
