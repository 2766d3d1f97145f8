package io.jkubelet.core.events;

import io.fabric8.kubernetes.api.model.Event;
import io.jkubelet.core.apierrors.ApiException;

import java.util.Map;

/**
 * Where events are written (client-go's {@code record.EventSink}): the apiserver's {@code v1} events in
 * the event's namespace. Failures are {@link ApiException}s: with the HTTP status when the apiserver
 * answered, with {@link ApiException#NO_ANSWER} when it could not be reached. Upstream's sink also has an
 * {@code Update}, which its recorder never calls; so it is left out here.
 */
public interface EventSink {

    /** Creates the event; returns it as stored (with its resourceVersion). */
    Event create(Event event) throws ApiException;

    /** Applies a merge patch to the event of that namespace and name; returns it as stored (404 when it is gone). */
    Event patch(Event event, Map<String, Object> patch) throws ApiException;
}
