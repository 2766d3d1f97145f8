package io.jkubelet.core.prober;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.probe.ProbeResult;
import io.jkubelet.core.testing.FakeClock;
import io.jkubelet.core.testing.Pods;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.jkubelet.core.prober.ProbeFixtures.*;
import static io.jkubelet.core.probe.ProbeResult.FAILURE;
import static io.jkubelet.core.probe.ProbeResult.SUCCESS;
import static io.jkubelet.core.probe.ProbeResult.UNKNOWN;
import static io.jkubelet.core.probe.ProbeResult.WARNING;
import static org.assertj.core.api.Assertions.assertThat;

/** One worker's probing step, driven by hand: no threads, no sleeping, a fake clock. */
class ProbeWorkerTest {
    private final FakeClock clock = new FakeClock();
    private final ScriptedProber prober = new ScriptedProber();
    private final Map<String, PodStatus> statuses = new HashMap<>();
    private final List<ProbeUpdate> updates = new ArrayList<>();
    private final ProbeManager manager = new ProbeManager(prober, uid -> Optional.ofNullable(statuses.get(uid)),
            updates::add, new ProberMetrics(new PrometheusRegistry()), clock, new ManualTicker(), new QueuedRunner(),
            () -> 0.0);

    private ProbeWorker worker(Pod pod, String container, ProbeType type) {
        manager.addPod(pod);
        return manager.worker(pod.getMetadata().getUid(), container, type).orElseThrow();
    }

    private static Pod pod(Container... containers) {
        return Pods.pod("web", containers);
    }

    private void report(Pod pod, PodStatus status) {
        statuses.put(pod.getMetadata().getUid(), status);
    }

    @Test
    void eachKindOfProbeStartsFromUpstreamsInitialValueOnceTheContainerIsSeen() {
        Pod pod = pod(withProbes("app", probe(10, 60, 1, 3), probe(10, 60, 1, 3), probe(10, 60, 1, 3)));
        report(pod, running(running("app", "docker://a1", clock.instant(), false)));

        for (ProbeType type : ProbeType.values()) {
            assertThat(worker(pod, "app", type).doProbe()).isTrue();
        }

        assertThat(manager.result(ProbeType.READINESS, "a1")).contains(FAILURE);
        assertThat(manager.result(ProbeType.LIVENESS, "a1")).contains(SUCCESS);
        assertThat(manager.result(ProbeType.STARTUP, "a1")).contains(UNKNOWN);
        assertThat(prober.calls).as("still within initialDelaySeconds").isEmpty();
        assertThat(updates).extracting(ProbeUpdate::type, ProbeUpdate::result).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple(ProbeType.READINESS, FAILURE),
                org.assertj.core.groups.Tuple.tuple(ProbeType.LIVENESS, SUCCESS),
                org.assertj.core.groups.Tuple.tuple(ProbeType.STARTUP, UNKNOWN));
        assertThat(updates).allSatisfy(u -> {
            assertThat(u.podUid()).isEqualTo("uid-web");
            assertThat(u.containerName()).isEqualTo("app");
            assertThat(u.containerId()).isEqualTo("a1");
        });
    }

    @Test
    void noStatusOrNoContainerYetMeansWaiting() {
        Pod pod = pod(withProbes("app", null, probe(), null));
        ProbeWorker w = worker(pod, "app", ProbeType.READINESS);
        assertThat(w.doProbe()).isTrue();
        report(pod, running(running("other", "docker://o", clock.instant(), true)));
        assertThat(w.doProbe()).isTrue();
        assertThat(updates).isEmpty();
        assertThat(prober.calls).isEmpty();
    }

    @Test
    void livenessFailsOnlyAfterFailureThresholdConsecutiveFailuresThenHoldsUntilANewContainer() {
        Pod pod = pod(withProbes("app", probe(10, 0, 1, 3), null, null));
        report(pod, running(running("app", "docker://a1", clock.instant(), true)));
        ProbeWorker w = worker(pod, "app", ProbeType.LIVENESS);
        prober.answer("app", ProbeType.LIVENESS, FAILURE, FAILURE, SUCCESS, FAILURE, FAILURE, FAILURE);

        w.doProbe(); w.doProbe(); w.doProbe(); // F F S: the run of failures is broken
        w.doProbe(); w.doProbe();              // F F
        assertThat(manager.livenessFailed("a1")).isFalse();
        w.doProbe();                           // third consecutive failure
        assertThat(manager.livenessFailed("a1")).isTrue();
        assertThat(w.onHold()).isTrue();

        w.doProbe(); w.doProbe();
        assertThat(prober.calls("app", ProbeType.LIVENESS)).as("on hold: no probe").isEqualTo(6);

        // The kubelet restarted the container: a new id resumes probing from the initial value.
        report(pod, running(running("app", "docker://a2", clock.instant(), true)));
        prober.answer("app", ProbeType.LIVENESS, SUCCESS);
        w.doProbe();
        assertThat(w.onHold()).isFalse();
        assertThat(prober.calls("app", ProbeType.LIVENESS)).isEqualTo(7);
        assertThat(manager.livenessFailed("a2")).isFalse();
        assertThat(manager.result(ProbeType.LIVENESS, "a1")).as("old container forgotten").isEmpty();
        assertThat(updates).extracting(ProbeUpdate::containerId, ProbeUpdate::result).containsExactly(
                org.assertj.core.groups.Tuple.tuple("a1", SUCCESS),
                org.assertj.core.groups.Tuple.tuple("a1", FAILURE),
                org.assertj.core.groups.Tuple.tuple("a2", SUCCESS));
    }

    @Test
    void readinessNeedsSuccessThresholdSuccessesAndFlipsBothWays() {
        Pod pod = pod(withProbes("app", null, probe(10, 0, 2, 2), null));
        report(pod, running(running("app", "docker://a1", clock.instant(), true)));
        ProbeWorker w = worker(pod, "app", ProbeType.READINESS);
        Container spec = pod.getSpec().getContainers().get(0);
        prober.answer("app", ProbeType.READINESS, SUCCESS, SUCCESS, SUCCESS, FAILURE, FAILURE, FAILURE, WARNING, WARNING);

        w.doProbe();
        assertThat(manager.ready("uid-web", spec, "a1")).isFalse();
        w.doProbe();
        assertThat(manager.ready("uid-web", spec, "a1")).isTrue();
        w.doProbe();
        w.doProbe();
        assertThat(manager.ready("uid-web", spec, "a1")).as("one failure is below the threshold").isTrue();
        w.doProbe();
        assertThat(manager.ready("uid-web", spec, "a1")).isFalse();
        w.doProbe();
        w.doProbe(); w.doProbe(); // a warning counts as success
        assertThat(manager.ready("uid-web", spec, "a1")).isTrue();

        assertThat(updates).extracting(ProbeUpdate::result).as("the listener hears changes only")
                .containsExactly(FAILURE, SUCCESS, FAILURE, SUCCESS);
        assertThat(w.onHold()).as("readiness never holds").isFalse();
    }

    @Test
    void initialDelayIsCountedFromTheContainersStartInWholeSeconds() {
        Pod pod = pod(withProbes("app", null, probe(10, 5, 1, 3), null));
        report(pod, running(running("app", "docker://a1", clock.instant(), true)));
        ProbeWorker w = worker(pod, "app", ProbeType.READINESS);

        clock.advance(Duration.ofMillis(4999));
        w.doProbe();
        assertThat(prober.calls).isEmpty();
        clock.advance(Duration.ofMillis(1));
        w.doProbe();
        assertThat(prober.calls).hasSize(1);
    }

    @Test
    void livenessAndReadinessWaitForStartupAndStartupStopsOnceStarted() {
        Pod pod = pod(withProbes("app", probe(), probe(), probe(10, 0, 1, 3)));
        report(pod, running(running("app", "docker://a1", clock.instant(), false)));
        ProbeWorker liveness = worker(pod, "app", ProbeType.LIVENESS);
        ProbeWorker readiness = worker(pod, "app", ProbeType.READINESS);
        ProbeWorker startup = worker(pod, "app", ProbeType.STARTUP);
        Container spec = pod.getSpec().getContainers().get(0);
        prober.answer("app", ProbeType.STARTUP, FAILURE, SUCCESS);

        liveness.doProbe(); readiness.doProbe(); startup.doProbe();
        assertThat(prober.calls).containsExactly("app/STARTUP/a1/10.88.0.7");
        assertThat(manager.started("uid-web", spec, "a1")).isFalse();
        startup.doProbe();
        assertThat(manager.started("uid-web", spec, "a1")).isTrue();
        assertThat(startup.onHold()).as("a startup verdict is final for this container").isTrue();

        // The status manager now reports the container started.
        report(pod, running(running("app", "docker://a1", clock.instant(), true)));
        liveness.doProbe(); readiness.doProbe(); startup.doProbe();
        assertThat(prober.calls(("app"), ProbeType.LIVENESS)).isEqualTo(1);
        assertThat(prober.calls(("app"), ProbeType.READINESS)).isEqualTo(1);
        assertThat(prober.calls(("app"), ProbeType.STARTUP)).isEqualTo(2);
    }

    @Test
    void aStartupProbeThatFailsMarksTheContainerForRestart() {
        Pod pod = pod(withProbes("app", null, null, probe(10, 0, 1, 2)));
        report(pod, running(running("app", "docker://a1", clock.instant(), false)));
        ProbeWorker startup = worker(pod, "app", ProbeType.STARTUP);
        prober.answer("app", ProbeType.STARTUP, FAILURE);

        startup.doProbe();
        assertThat(manager.startupFailed("a1")).isFalse();
        startup.doProbe();
        assertThat(manager.startupFailed("a1")).isTrue();
        assertThat(manager.livenessFailed("a1")).isFalse();
    }

    @ParameterizedTest(name = "pod restartPolicy {0}, sidecar {1}: worker goes on = {2}")
    @CsvSource({"Always, false, true", "OnFailure, false, true", "Never, false, false", "Never, true, true"})
    void aTerminatedContainerIsNotReadyAndEndsTheWorkerOnlyWhenItWillNotRestart(
            String restartPolicy, boolean sidecar, boolean keepGoing) {
        Container c = withProbes("app", null, probe(), null);
        Pod pod;
        PodStatus status;
        if (sidecar) {
            c.setRestartPolicy("Always");
            pod = Pods.pod("web", restartPolicy, List.of(c), List.of(Pods.container("main")));
            status = status("Running", List.of(terminated("app", "a1")), List.of());
        } else {
            pod = Pods.pod("web", restartPolicy, List.of(), List.of(c));
            status = status("Running", List.of(), List.of(terminated("app", "a1")));
        }
        report(pod, status);
        ProbeWorker w = worker(pod, "app", ProbeType.READINESS);

        assertThat(w.doProbe()).isEqualTo(keepGoing);
        assertThat(manager.result(ProbeType.READINESS, "a1")).contains(FAILURE);
        assertThat(prober.calls).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"Succeeded", "Failed"})
    void aTerminalPodEndsTheWorker(String phase) {
        Pod pod = pod(withProbes("app", null, probe(), null));
        report(pod, status(phase, List.of(), List.of(running("app", "docker://a1", clock.instant(), true))));
        assertThat(worker(pod, "app", ProbeType.READINESS).doProbe()).isFalse();
    }

    @Test
    void aPodBeingDeletedGetsALastLivenessSuccessAndNoMoreLivenessProbes() {
        Pod pod = new PodBuilder(pod(withProbes("app", probe(), probe(), null)))
                .editMetadata().withDeletionTimestamp("2026-01-01T00:00:00Z").endMetadata().build();
        report(pod, running(running("app", "docker://a1", clock.instant(), true)));
        prober.answer("app", ProbeType.READINESS, SUCCESS);

        assertThat(worker(pod, "app", ProbeType.LIVENESS).doProbe()).isFalse();
        assertThat(manager.result(ProbeType.LIVENESS, "a1")).contains(SUCCESS);
        assertThat(worker(pod, "app", ProbeType.READINESS).doProbe()).as("readiness goes on").isTrue();
        assertThat(prober.calls).containsExactly("app/READINESS/a1/10.88.0.7");
    }

    @Test
    void aProbeThatErroredIsThrownAway() {
        Pod pod = pod(withProbes("app", probe(10, 0, 1, 2), null, null));
        report(pod, running(running("app", "docker://a1", clock.instant(), true)));
        ProbeWorker w = worker(pod, "app", ProbeType.LIVENESS);
        prober.answer("app", ProbeType.LIVENESS, FAILURE, UNKNOWN, FAILURE);

        w.doProbe(); w.doProbe();
        assertThat(manager.livenessFailed("a1")).as("the errored run neither counts nor breaks the run").isFalse();
        w.doProbe();
        assertThat(manager.livenessFailed("a1")).isTrue();
    }
}
