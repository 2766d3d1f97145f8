package io.jkubelet.core.container;

import io.jkubelet.core.runtime.ContainerState;

/** A container's state as the kubelet sees it (upstream {@code kubecontainer.State}). */
public enum State {
    CREATED,
    RUNNING,
    EXITED,
    UNKNOWN;

    public static State of(ContainerState s) {
        return switch (s) {
            case CONTAINER_CREATED -> CREATED;
            case CONTAINER_RUNNING -> RUNNING;
            case CONTAINER_EXITED -> EXITED;
            case CONTAINER_UNKNOWN -> UNKNOWN;
        };
    }
}
