package io.jkubelet.core.runtime;

/** CRI {@code ContainerState}. */
public enum ContainerState {
    CONTAINER_CREATED,
    CONTAINER_RUNNING,
    CONTAINER_EXITED,
    CONTAINER_UNKNOWN
}
