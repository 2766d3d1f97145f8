package io.jkubelet.core.timeline;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.apis.config.GoDuration;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Why each waiting container of a pod waits, spelled out for a person: {@code waiting 40 s more for
 * CrashLoopBackOff; last exit code 1 at 12:03:10} rather than the status's {@code back-off 40s restarting failed
 * container=...}. A pure function of the pod's status and the time now.
 */
public final class WaitingReasons {
    /** The crash-loop message's back-off, as {@code ContainerStarter} writes it (upstream's). */
    private static final Pattern BACK_OFF = Pattern.compile("^back-off (\\S+) restarting failed");
    /** Times in the text are the node's clock in UTC, as its logs and events are. */
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

    private WaitingReasons() {}

    /** One waiting container and why, in words. */
    public record Waiting(String container, String reason, String text) {}

    public static List<Waiting> of(PodStatus status, Instant now) {
        List<Waiting> out = new ArrayList<>();
        if (status == null) {
            return out;
        }
        List<ContainerStatus> all = Stream.concat(
                status.getInitContainerStatuses() == null ? Stream.<ContainerStatus>empty() : status.getInitContainerStatuses().stream(),
                status.getContainerStatuses() == null ? Stream.<ContainerStatus>empty() : status.getContainerStatuses().stream()).toList();
        for (ContainerStatus c : all) {
            var waiting = c.getState() == null ? null : c.getState().getWaiting();
            if (waiting == null || waiting.getReason() == null) {
                continue;
            }
            out.add(new Waiting(c.getName(), waiting.getReason(), describe(c, waiting.getReason(), waiting.getMessage(), now)));
        }
        return out;
    }

    private static String describe(ContainerStatus c, String reason, String message, Instant now) {
        ContainerStateTerminated last = c.getLastState() == null ? null : c.getLastState().getTerminated();
        String lastExit = last == null ? "" : "; last exit code " + last.getExitCode()
                + (last.getReason() == null || last.getReason().equals("Error") ? "" : " (" + last.getReason() + ")")
                + (last.getFinishedAt() == null ? "" : " at " + CLOCK.format(Instant.parse(last.getFinishedAt())));
        Matcher m = message == null ? null : BACK_OFF.matcher(message);
        if (m != null && m.find() && last != null && last.getFinishedAt() != null) {
            Duration backOff;
            try {
                backOff = GoDuration.parse(m.group(1));
            } catch (IllegalArgumentException e) {
                return "waiting for " + reason + ": " + message + lastExit;
            }
            long left = Duration.between(now, Instant.parse(last.getFinishedAt()).plus(backOff)).toSeconds();
            if (left > 0) {
                return "waiting " + left + " s more for " + reason + lastExit;
            }
            return "back-off of " + m.group(1) + " is over, restarting at the next sync" + lastExit;
        }
        return "waiting for " + reason + (message == null || message.isEmpty() ? "" : ": " + message) + lastExit;
    }
}
