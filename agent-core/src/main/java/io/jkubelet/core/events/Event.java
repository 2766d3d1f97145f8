package io.jkubelet.core.events;

import io.fabric8.kubernetes.api.model.ObjectReference;

import java.time.Instant;

/** One recorded event. */
public record Event(Instant time, ObjectReference involvedObject, String type, String reason, String message) {}
