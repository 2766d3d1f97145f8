package io.jkubelet.core.nodestatus;

import java.util.List;

/**
 * The inputs of the node's conditions, owned here so that the setters are testable without a runtime:
 * the errors that make the node NotReady (upstream {@code runtimeState.runtimeErrors()} and friends) and the
 * eviction manager's pressure answers. Implementations must be thread-safe.
 */
public interface NodeHealth {

    /** Why the node is not ready, e.g. "container runtime is down"; empty when it is ready. */
    List<String> readinessErrors();

    default boolean memoryPressure() {
        return false;
    }

    default boolean diskPressure() {
        return false;
    }

    default boolean pidPressure() {
        return false;
    }
}
