package io.jkubelet.core.lifecycle;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * A pod's {@code activeDeadlineSeconds} (upstream's {@code activeDeadlineHandler}): counted from the pod's start
 * time on this node, once it has passed the pod is evicted: phase {@code Failed}, reason {@code DeadlineExceeded},
 * its containers killed. The spec is read on every check, so a deadline shortened by an update takes effect.
 */
public final class ActiveDeadline {
    public static final String REASON = "DeadlineExceeded";
    public static final String MESSAGE = "Pod was active on the node longer than the specified deadline";

    private final Clock clock;

    public ActiveDeadline(Clock clock) {
        this.clock = clock;
    }

    /**
     * How long until the pod's deadline passes ({@link Duration#ZERO} when it has), or empty when the pod has no
     * deadline or has not started yet.
     *
     * @param status the pod's status as the kubelet keeps it (its {@code startTime} is the kubelet's)
     */
    public Optional<Duration> remaining(Pod pod, PodStatus status) {
        Long seconds = pod.getSpec() == null ? null : pod.getSpec().getActiveDeadlineSeconds();
        if (seconds == null || status == null || status.getStartTime() == null) {
            return Optional.empty();
        }
        Instant start;
        try {
            start = Instant.parse(status.getStartTime());
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
        Duration left = Duration.between(clock.instant(), start.plusSeconds(seconds));
        return Optional.of(left.isNegative() ? Duration.ZERO : left);
    }

    /** Whether the pod has been active longer than its deadline ({@code pastActiveDeadline}). */
    public boolean exceeded(Pod pod, PodStatus status) {
        return remaining(pod, status).filter(Duration::isZero).isPresent();
    }
}
