package io.jkubelet.core.config;

import io.fabric8.kubernetes.api.model.Pod;

/**
 * The one kind of event {@link PodConfig} records: a warning about a pod it drops. The kubelet's
 * event recorder implements this; {@link #NOOP} is for a kubelet with no apiserver.
 */
@FunctionalInterface
public interface PodEventRecorder {

    /** The event reason for a pod that failed validation ({@code events.FailedValidation}). */
    String FAILED_VALIDATION = "FailedValidation";

    PodEventRecorder NOOP = (pod, reason, message) -> { };

    /** Records a {@code Warning} event about {@code pod}. Must not block for long; must not throw. */
    void warning(Pod pod, String reason, String message);
}
