package io.jkubelet.core.events;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.util.Map;

/**
 * Where events are written (client-go's {@code record.EventSink}): the apiserver's {@code v1} events in
 * the event's namespace. Failures are {@link KubernetesClientException}s: with the HTTP status when the
 * apiserver answered, with code 0 when it could not be reached.
 */
public interface EventSink {

    /** Creates the event; returns it as stored (with its resourceVersion). */
    Event create(Event event) throws KubernetesClientException;

    /** Applies a merge patch to the event of that namespace and name; returns it as stored. */
    Event patch(Event event, Map<String, Object> patch) throws KubernetesClientException;
}
