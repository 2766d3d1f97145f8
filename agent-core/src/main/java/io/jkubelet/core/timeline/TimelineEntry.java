package io.jkubelet.core.timeline;

import java.time.Instant;
import java.util.Objects;

/**
 * One thing that happened to a pod, as its timeline shows it. Repeats of the same thing (a back-off reported at
 * every sync) are one entry with a count, as the apiserver's events are.
 *
 * @param time when it first happened
 * @param lastTime when it last happened ({@code time} when once)
 * @param type {@code Normal} or {@code Warning}, as events
 * @param reason the event's reason ({@code Pulling}, {@code BackOff}, ...) or the timeline's own ({@code Admitted},
 *     {@code Terminated}, {@code ConditionChanged}, {@code ProbeResult}, {@code SandboxReady}, {@code PhaseChanged})
 * @param container the container it is about, or null for the pod
 * @param exitCode a terminated container's exit code, else null
 */
public record TimelineEntry(Instant time, Instant lastTime, int count, String type, String reason, String container,
                            String message, Integer exitCode) {

    static TimelineEntry of(Instant time, String type, String reason, String container, String message, Integer exitCode) {
        return new TimelineEntry(time, time, 1, type, reason, container, message, exitCode);
    }

    /** Whether {@code next} only repeats this entry. */
    boolean repeatedBy(TimelineEntry next) {
        return type.equals(next.type) && reason.equals(next.reason) && Objects.equals(container, next.container)
                && message.equals(next.message) && Objects.equals(exitCode, next.exitCode);
    }

    TimelineEntry repeatedAt(Instant when) {
        return new TimelineEntry(time, when, count + 1, type, reason, container, message, exitCode);
    }
}
