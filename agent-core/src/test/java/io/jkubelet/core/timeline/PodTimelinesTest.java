package io.jkubelet.core.timeline;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.probe.ProbeResult;
import io.jkubelet.core.prober.ProbeType;
import io.jkubelet.core.prober.ProbeUpdate;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PodTimelinesTest {
    private static final Instant T = Instant.parse("2026-12-04T12:00:00Z");
    private final Clock clock = Clock.fixed(T, ZoneOffset.UTC);
    private final PodTimelines timelines = new PodTimelines(clock);
    private final List<String> forwarded = new ArrayList<>();
    private final EventRecorder recorder = new TimelineRecorder((ref, type, reason, message) -> forwarded.add(reason + ": " + message),
            timelines);

    static Pod pod(String uid) {
        return new PodBuilder().withNewMetadata().withNamespace("default").withName("crash").withUid(uid).endMetadata()
                .withNewSpec().addToContainers(new ContainerBuilder().withName("app").withImage("busybox").build()).endSpec().build();
    }

    private List<String> lines(String uid) {
        return timelines.byUid(uid).orElseThrow().entries().stream()
                .map(e -> e.reason() + (e.container() == null ? "" : "[" + e.container() + "]") + " " + e.message()
                        + (e.count() > 1 ? " x" + e.count() : ""))
                .toList();
    }

    @Test
    void podEventsGoIntoThePodsTimelineAndOnToTheRecorderUnchanged() {
        Pod pod = pod("u1");
        var app = References.container(pod, pod.getSpec().getContainers().get(0));

        recorder.event(app, EventRecorder.NORMAL, "Pulling", "Pulling image \"busybox\"");
        recorder.event(app, EventRecorder.NORMAL, "Killing", "Stopping container app", "grace period 30 s");
        recorder.event(References.node("node-a"), EventRecorder.WARNING, "ImageGCFailed", "disk");

        assertThat(lines("u1")).containsExactly("Pulling[app] Pulling image \"busybox\"",
                "Killing[app] Stopping container app (grace period 30 s)");
        assertThat(forwarded).containsExactly("Pulling: Pulling image \"busybox\"", "Killing: Stopping container app",
                "ImageGCFailed: disk");
    }

    @Test
    void aRepeatedEventIsOneEntryWithACount() {
        Pod pod = pod("u1");
        var app = References.container(pod, pod.getSpec().getContainers().get(0));
        for (int i = 0; i < 3; i++) {
            recorder.event(app, EventRecorder.WARNING, "BackOff", "Back-off restarting failed container app");
        }

        assertThat(lines("u1")).containsExactly("BackOff[app] Back-off restarting failed container app x3");
    }

    static ContainerStatus crashed(int restarts, int exitCode, String reason, boolean waiting) {
        var b = new ContainerStatusBuilder().withName("app").withRestartCount(restarts)
                .withNewLastState().withNewTerminated().withExitCode(exitCode).withReason(reason)
                .withFinishedAt("2026-12-04T11:59:5" + restarts + "Z").withContainerID("docker://c" + restarts)
                .endTerminated().endLastState();
        if (waiting) {
            b.withNewState().withNewWaiting().withReason("CrashLoopBackOff")
                    .withMessage("back-off " + (10 << restarts) + "s restarting failed container=app pod=crash_default(u1)")
                    .endWaiting().endState();
        } else {
            b.withNewState().withNewRunning().withStartedAt("2026-12-04T12:00:00Z").endRunning().endState();
        }
        return b.build();
    }

    static PodStatus status(ContainerStatus c) {
        return new PodStatusBuilder().withPhase("Running").withPodIP("10.0.0.5")
                .addNewCondition().withType("Ready").withStatus("False").withReason("ContainersNotReady").endCondition()
                .withContainerStatuses(c).build();
    }

    @Test
    void aCrashLoopShowsEachExitWithItsCodeAndEachBackOffInOrder() {
        Pod pod = pod("u1");
        timelines.admitted(pod);
        timelines.status(pod, status(new ContainerStatusBuilder().withName("app").withRestartCount(0)
                .withNewState().withNewRunning().endRunning().endState().build()));
        timelines.status(pod, status(crashed(1, 1, "Error", true)));
        timelines.status(pod, status(crashed(1, 1, "Error", false)));
        timelines.status(pod, status(crashed(2, 137, "OOMKilled", true)));
        timelines.status(pod, status(crashed(2, 137, "OOMKilled", true))); // the same status again: nothing new

        assertThat(lines("u1")).containsExactly(
                "Admitted admitted to the node",
                "PhaseChanged phase Running",
                "SandboxReady sandbox running, pod IP 10.0.0.5",
                "ConditionChanged Ready=False (ContainersNotReady)",
                "Terminated[app] exited with code 1 (Error) at 11:59:51, restarts 1",
                "Waiting[app] CrashLoopBackOff: back-off 20s restarting failed container=app pod=crash_default(u1)",
                "OOMKilled[app] exited with code 137 (OOMKilled) at 11:59:52, restarts 2",
                "Waiting[app] CrashLoopBackOff: back-off 40s restarting failed container=app pod=crash_default(u1)");
        assertThat(timelines.byUid("u1").orElseThrow().entries()).filteredOn(e -> e.exitCode() != null)
                .extracting(TimelineEntry::exitCode).containsExactly(1, 137);
    }

    @Test
    void probeResultsAreRecordedAsTheyChange() {
        Pod pod = pod("u1");
        timelines.probeResult(pod, new ProbeUpdate("u1", "c1", "app", ProbeType.READINESS, ProbeResult.SUCCESS));
        timelines.probeResult(pod, new ProbeUpdate("u1", "c1", "app", ProbeType.LIVENESS, ProbeResult.FAILURE));

        assertThat(lines("u1")).containsExactly("ProbeResult[app] readiness probe: success",
                "ProbeResult[app] liveness probe: failure");
        assertThat(timelines.byUid("u1").orElseThrow().entries().get(1).type()).isEqualTo(EventRecorder.WARNING);
    }

    @Test
    void eachPodKeepsItsLastEntriesAndTheNodeItsLastPods() {
        Pod pod = pod("u1");
        for (int i = 0; i < PodTimeline.MAX_ENTRIES + 5; i++) {
            recorder.event(References.pod(pod), EventRecorder.NORMAL, "N", "event " + i);
        }
        assertThat(lines("u1")).hasSize(PodTimeline.MAX_ENTRIES).first().isEqualTo("N event 5");

        for (int i = 0; i < PodTimelines.MAX_PODS; i++) {
            ObjectReference ref = References.pod(pod("p" + i));
            ref.setName("p" + i);
            timelines.event(ref, EventRecorder.NORMAL, "N", "x");
        }
        assertThat(timelines.find("default", "p" + (PodTimelines.MAX_PODS - 1))).isPresent();
        assertThat(timelines.byUid("u1").isPresent() || timelines.byUid("p0").isPresent()).isTrue();
        long kept = java.util.stream.IntStream.range(0, PodTimelines.MAX_PODS)
                .filter(i -> timelines.byUid("p" + i).isPresent()).count() + (timelines.byUid("u1").isPresent() ? 1 : 0);
        assertThat(kept).isEqualTo(PodTimelines.MAX_PODS);
    }

    @Test
    void findTakesThePodByNamespaceAndName() {
        timelines.admitted(pod("u1"));

        assertThat(timelines.find("default", "crash")).map(PodTimeline::uid).hasValue("u1");
        assertThat(timelines.find("other", "crash")).isEmpty();
    }
}
