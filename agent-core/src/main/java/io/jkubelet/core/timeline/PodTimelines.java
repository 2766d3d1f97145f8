package io.jkubelet.core.timeline;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.probe.ProbeResult;
import io.jkubelet.core.prober.ProbeUpdate;
import io.jkubelet.core.status.PodConditions;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Every pod's timeline: what the kubelet's events say about it ({@link TimelineRecorder}), its admission, its
 * probe results, and what changed between two of its statuses (conditions, phase, pod IP, containers that
 * terminated with their exit codes, waiting reasons). The dashboard's pod view and
 * {@code /debug/pods/<namespace>/<name>/timeline} read it.
 *
 * <p>Bounded: {@link PodTimeline#MAX_ENTRIES} per pod and at most {@link #MAX_PODS} pods, those whose last entry
 * is oldest dropped first, so a removed pod's timeline stays readable until newer pods push it out.
 *
 * <p>Thread-safe: events come from workers, probers and the loop at once.
 */
public final class PodTimelines {
    /** A node's pods (110 by default) and as many replaced ones. */
    static final int MAX_PODS = 256;
    private static final Pattern FIELD_PATH = Pattern.compile("spec\\.(?:initContainers|containers)\\{(.+)}");

    private final Clock clock;
    private final Map<String, PodTimeline> byUid = new ConcurrentHashMap<>();
    /** The last status each pod's timeline was told about, to tell what changed. */
    private final Map<String, PodStatus> lastStatus = new ConcurrentHashMap<>();

    public PodTimelines(Clock clock) {
        this.clock = clock;
    }

    /** An event the kubelet recorded; only events about pods (or their containers) go into a timeline. */
    public void event(ObjectReference involved, String type, String reason, String message) {
        if (!"Pod".equals(involved.getKind()) || involved.getUid() == null) {
            return;
        }
        String container = null;
        if (involved.getFieldPath() != null) {
            Matcher m = FIELD_PATH.matcher(involved.getFieldPath());
            container = m.matches() ? m.group(1) : null;
        }
        timeline(involved.getNamespace(), involved.getName(), involved.getUid())
                .add(TimelineEntry.of(clock.instant(), type, reason, container, message, null));
    }

    /** The pod passed admission and goes to its worker. */
    public void admitted(Pod pod) {
        timeline(pod).add(TimelineEntry.of(clock.instant(), EventRecorder.NORMAL, "Admitted", null,
                "admitted to the node", null));
    }

    /** A probe's cached result changed (upstream's results manager update). */
    public void probeResult(Pod pod, ProbeUpdate update) {
        String type = update.result() == ProbeResult.FAILURE ? EventRecorder.WARNING : EventRecorder.NORMAL;
        timeline(pod).add(TimelineEntry.of(clock.instant(), type, "ProbeResult", update.containerName(),
                update.type().name().toLowerCase(Locale.ROOT) + " probe: " + update.result().name().toLowerCase(Locale.ROOT),
                null));
    }

    /** A new status of the pod: what changed since the last one goes into its timeline. */
    public void status(Pod pod, PodStatus status) {
        String uid = pod.getMetadata().getUid();
        PodStatus before = lastStatus.put(uid, status);
        StatusChanges.between(before, status, clock.instant()).forEach(timeline(pod)::add);
    }

    /** The timeline of the pod {@code namespace/name}: the latest pod of that name when several had one. */
    public Optional<PodTimeline> find(String namespace, String name) {
        return byUid.values().stream().filter(t -> t.namespace().equals(namespace) && t.name().equals(name))
                .max(Comparator.comparing(PodTimeline::last));
    }

    /** The timeline of the pod with {@code uid}. */
    public Optional<PodTimeline> byUid(String uid) {
        return Optional.ofNullable(byUid.get(uid));
    }

    private PodTimeline timeline(Pod pod) {
        return timeline(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), pod.getMetadata().getUid());
    }

    private PodTimeline timeline(String namespace, String name, String uid) {
        PodTimeline t = byUid.get(uid);
        if (t != null) {
            return t;
        }
        t = byUid.computeIfAbsent(uid, u -> new PodTimeline(Objects.requireNonNullElse(namespace, ""),
                Objects.requireNonNullElse(name, ""), u));
        if (byUid.size() > MAX_PODS) {
            PodTimeline keep = t;
            byUid.values().stream().filter(x -> x != keep).min(Comparator.comparing(PodTimeline::last))
                    .ifPresent(oldest -> {
                        byUid.remove(oldest.uid());
                        lastStatus.remove(oldest.uid());
                    });
        }
        return t;
    }

    /** What two statuses of a pod differ in, as timeline entries (a pure function of the two). */
    static final class StatusChanges {
        private StatusChanges() {}

        static Stream<TimelineEntry> between(PodStatus before, PodStatus after, Instant now) {
            Stream.Builder<TimelineEntry> out = Stream.builder();
            if (!Objects.equals(phase(before), after.getPhase()) && after.getPhase() != null) {
                String why = after.getReason() == null ? "" : " (" + after.getReason()
                        + (after.getMessage() == null ? "" : ": " + after.getMessage()) + ")";
                out.add(TimelineEntry.of(now, "Failed".equals(after.getPhase()) ? EventRecorder.WARNING : EventRecorder.NORMAL,
                        "PhaseChanged", null, "phase " + after.getPhase() + why, null));
            }
            if (after.getPodIP() != null && !after.getPodIP().equals(before == null ? null : before.getPodIP())) {
                out.add(TimelineEntry.of(now, EventRecorder.NORMAL, "SandboxReady", null, "sandbox running, pod IP "
                        + after.getPodIP(), null));
            }
            for (PodCondition c : nonNull(after.getConditions())) {
                String was = before == null ? null : nonNull(before.getConditions()).stream()
                        .filter(p -> p.getType().equals(c.getType())).map(PodCondition::getStatus).findFirst().orElse(null);
                if (!Objects.equals(was, c.getStatus())) {
                    out.add(TimelineEntry.of(now, EventRecorder.NORMAL, "ConditionChanged", null, c.getType() + "=" + c.getStatus()
                            + (c.getReason() == null ? "" : " (" + c.getReason() + ")"), null));
                }
            }
            for (ContainerStatus c : PodConditions.initThenApp(after)) {
                ContainerStatus was = before == null ? null : PodConditions.initThenApp(before).stream()
                        .filter(p -> p.getName().equals(c.getName())).findFirst().orElse(null);
                containerChanges(was, c, now).forEach(out::add);
            }
            return out.build();
        }

        private static List<TimelineEntry> containerChanges(ContainerStatus was, ContainerStatus now, Instant time) {
            List<TimelineEntry> out = new ArrayList<>();
            var terminated = terminated(now);
            if (terminated != null && !terminated.equals(was == null ? null : terminated(was))) {
                String reason = terminated.getReason() == null ? "" : " (" + terminated.getReason() + ")";
                String type = Integer.valueOf(0).equals(terminated.getExitCode()) ? EventRecorder.NORMAL : EventRecorder.WARNING;
                out.add(TimelineEntry.of(time, type, "OOMKilled".equals(terminated.getReason()) ? "OOMKilled" : "Terminated",
                        now.getName(), "exited with code " + terminated.getExitCode() + reason + finishedAt(terminated)
                                + ", restarts " + now.getRestartCount(),
                        terminated.getExitCode()));
            }
            var waiting = now.getState() == null ? null : now.getState().getWaiting();
            var waitingBefore = was == null || was.getState() == null ? null : was.getState().getWaiting();
            if (waiting != null && waiting.getReason() != null
                    && (waitingBefore == null || !waiting.getReason().equals(waitingBefore.getReason()))) {
                out.add(TimelineEntry.of(time, "ContainerCreating".equals(waiting.getReason()) || "PodInitializing".equals(waiting.getReason())
                                ? EventRecorder.NORMAL : EventRecorder.WARNING, "Waiting", now.getName(),
                        waiting.getReason() + (waiting.getMessage() == null ? "" : ": " + waiting.getMessage()), null));
            }
            return out;
        }

        /**
         * When the container exited, which the kubelet may see some seconds later (at its next relist): the entry is
         * placed when seen, so the time it happened goes in its message.
         */
        private static String finishedAt(ContainerStateTerminated terminated) {
            if (terminated.getFinishedAt() == null) {
                return "";
            }
            try {
                return " at " + DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC)
                        .format(Instant.parse(terminated.getFinishedAt()));
            } catch (DateTimeParseException e) {
                return " at " + terminated.getFinishedAt();
            }
        }

        /** The container's latest termination: the current state's, else the last state's (restarted since). */
        private static ContainerStateTerminated terminated(ContainerStatus s) {
            if (s.getState() != null && s.getState().getTerminated() != null) {
                return s.getState().getTerminated();
            }
            return s.getLastState() == null ? null : s.getLastState().getTerminated();
        }

        private static String phase(PodStatus s) {
            return s == null ? null : s.getPhase();
        }

        private static <T> List<T> nonNull(List<T> list) {
            return list == null ? List.of() : list;
        }
    }
}
