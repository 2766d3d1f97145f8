package io.jkubelet.core.pleg;

/** A change the PLEG saw in a pod's containers (upstream {@code PodLifecycleEvent}). */
public record PodLifecycleEvent(String podUid, Type type, String containerId) {
    public enum Type { CONTAINER_STARTED, CONTAINER_DIED, CONTAINER_REMOVED }
}
