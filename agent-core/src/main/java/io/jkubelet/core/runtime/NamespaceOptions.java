package io.jkubelet.core.runtime;

/** Network, PID and IPC namespace modes of a sandbox or container. */
public record NamespaceOptions(NamespaceMode network, NamespaceMode pid, NamespaceMode ipc) {
    public static final NamespaceOptions POD_DEFAULT =
            new NamespaceOptions(NamespaceMode.POD, NamespaceMode.CONTAINER, NamespaceMode.POD);
}
