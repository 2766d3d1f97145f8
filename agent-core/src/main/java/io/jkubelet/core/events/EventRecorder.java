package io.jkubelet.core.events;

import io.fabric8.kubernetes.api.model.ObjectReference;

/**
 * Records kubelet events (upstream {@code record.EventRecorder}) with kubelet's reasons: {@code Pulling},
 * {@code Created}, {@code Started}, {@code Killing}, {@code BackOff}, ... Implementations must not block
 * the caller on I/O. Thread-safe.
 */
public interface EventRecorder {
    String NORMAL = "Normal";
    String WARNING = "Warning";

    void event(ObjectReference involved, String type, String reason, String message);

    /**
     * An event with a detail the event's own message leaves out as upstream's does (a kill's grace period), for the
     * pod's timeline; the event itself carries {@code message} alone.
     */
    default void event(ObjectReference involved, String type, String reason, String message, String detail) {
        event(involved, type, reason, message);
    }
}
