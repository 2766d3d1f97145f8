package io.jkubelet.core.timeline;

import io.fabric8.kubernetes.api.model.ObjectReference;
import io.jkubelet.core.events.EventRecorder;

/**
 * The kubelet's event recorder with every pod's events also put into its {@link PodTimelines}: the timeline sees
 * what the events say (pulls, creates, starts, kills, back-offs, probe failures, evictions) at the one place every
 * part of the kubelet already reports them, and the events themselves go on unchanged.
 */
public final class TimelineRecorder implements EventRecorder {
    private final EventRecorder delegate;
    private final PodTimelines timelines;

    public TimelineRecorder(EventRecorder delegate, PodTimelines timelines) {
        this.delegate = delegate;
        this.timelines = timelines;
    }

    @Override
    public void event(ObjectReference involved, String type, String reason, String message) {
        delegate.event(involved, type, reason, message);
        timelines.event(involved, type, reason, message);
    }

    @Override
    public void event(ObjectReference involved, String type, String reason, String message, String detail) {
        delegate.event(involved, type, reason, message);
        timelines.event(involved, type, reason, detail == null ? message : message + " (" + detail + ")");
    }
}
