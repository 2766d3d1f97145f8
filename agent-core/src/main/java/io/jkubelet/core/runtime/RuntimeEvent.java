package io.jkubelet.core.runtime;

/**
 * Something happened to a container or sandbox (a runtime's event stream, cf. CRI
 * {@code ContainerEventResponse}).
 *
 * @param containerId the container or sandbox container the event is about
 * @param podUid the pod's UID from its labels, or {@code null} when the container is not a pod's
 */
public record RuntimeEvent(String containerId, String podUid, Type type) {
    public enum Type { CREATED, STARTED, STOPPED, DELETED }
}
