package io.jkubelet.core.prober;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.testing.FakeClock;
import io.jkubelet.core.testing.Pods;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.jkubelet.core.prober.ProbeFixtures.*;
import static io.jkubelet.core.probe.ProbeResult.FAILURE;
import static io.jkubelet.core.probe.ProbeResult.SUCCESS;
import static org.assertj.core.api.Assertions.assertThat;

/** The manager's bookkeeping, with a hand-fired ticker and a runner that holds probe runs until released. */
class ProbeManagerTest {
    private final FakeClock clock = new FakeClock();
    private final ScriptedProber prober = new ScriptedProber();
    private final Map<String, PodStatus> statuses = new HashMap<>();
    private final ManualTicker ticker = new ManualTicker();
    private final QueuedRunner runner = new QueuedRunner();
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final ProbeManager manager = new ProbeManager(prober, uid -> Optional.ofNullable(statuses.get(uid)),
            ProbeResultListener.NONE, new ProberMetrics(registry), clock, ticker, runner, () -> 0.5);

    private final Container app = withProbes("app", probe(), probe(), null);
    private final Container sidecar = sidecar();
    private final Container plainInit = withProbes("init", probe(), null, null);
    private final Pod pod = Pods.pod("web", "Always", List.of(plainInit, sidecar), List.of(app));

    private static Container sidecar() {
        Container c = withProbes("proxy", null, probe(), probe());
        c.setRestartPolicy("Always");
        return c;
    }

    private void runningPod() {
        statuses.put("uid-web", status("Running",
                List.of(running("proxy", "docker://p1", clock.instant(), true)),
                List.of(running("app", "docker://a1", clock.instant(), true))));
    }

    private String scrape() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, registry.scrape());
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void addPodStartsOneWorkerPerProbeOfRegularAndSidecarContainersOnly() {
        manager.addPod(pod);

        assertThat(manager.workerCount()).isEqualTo(4);
        assertThat(manager.worker("uid-web", "app", ProbeType.LIVENESS)).isPresent();
        assertThat(manager.worker("uid-web", "app", ProbeType.READINESS)).isPresent();
        assertThat(manager.worker("uid-web", "proxy", ProbeType.READINESS)).isPresent();
        assertThat(manager.worker("uid-web", "proxy", ProbeType.STARTUP)).isPresent();
        assertThat(manager.worker("uid-web", "init", ProbeType.LIVENESS)).as("a plain init container").isEmpty();
        assertThat(ticker.scheduled).allSatisfy(s -> assertThat(s.period()).isEqualTo(Duration.ofSeconds(10)));
    }

    @Test
    void addingAPodAgainIsANoOp() {
        manager.addPod(pod);
        manager.addPod(pod);
        assertThat(ticker.scheduled).hasSize(4);
        assertThat(manager.workerCount()).isEqualTo(4);
    }

    @Test
    void workersStartedSoonAfterTheKubeletWaitARandomPartOfTheirPeriodAndLaterOnesProbeAtOnce() {
        manager.addPod(pod);
        assertThat(ticker.scheduled).allSatisfy(s -> assertThat(s.firstDelay()).isEqualTo(Duration.ofSeconds(5)));

        clock.advance(Duration.ofSeconds(10));
        manager.addPod(Pods.pod("late", withProbes("app", probe(), null, null)));
        assertThat(ticker.scheduled.getLast().firstDelay()).isZero();
    }

    @Test
    void sidecarsAreProbedAndStartedFromTheirInitContainerStatus() {
        runningPod();
        manager.addPod(pod);
        prober.answer("proxy", ProbeType.STARTUP, SUCCESS);

        ticker.fire();
        runner.runAll();

        assertThat(prober.calls("proxy", ProbeType.STARTUP)).as("the status says started already").isZero();
        assertThat(prober.calls("proxy", ProbeType.READINESS)).isEqualTo(1);
        assertThat(manager.result(ProbeType.READINESS, "p1")).contains(SUCCESS);
        assertThat(manager.ready("uid-web", sidecar, "p1")).isTrue();
    }

    @Test
    void aTickWhileTheWorkersProbeIsStillRunningIsDroppedAndOtherWorkersGoOn() {
        runningPod();
        manager.addPod(pod);

        ticker.fire();
        assertThat(runner.queued).as("one run per worker").hasSize(4);
        ticker.fire();
        assertThat(runner.queued).as("the hanging runs hold only their own workers").hasSize(4);
        runner.runAll();
        ticker.fire();
        assertThat(runner.queued).hasSize(4);
    }

    @Test
    void removePodStopsItsWorkersAndForgetsResultsAndMetricSeries() throws IOException {
        runningPod();
        manager.addPod(pod);
        Pod other = Pods.pod("db", withProbes("db", probe(), null, null));
        manager.addPod(other);
        ticker.fire();
        runner.runAll();
        assertThat(scrape()).contains("pod=\"web\"");

        manager.removePod(pod);

        assertThat(manager.workerCount()).isEqualTo(1);
        assertThat(ticker.active()).isEqualTo(1);
        assertThat(manager.result(ProbeType.READINESS, "a1")).isEmpty();
        assertThat(manager.result(ProbeType.LIVENESS, "a1")).isEmpty();
        assertThat(scrape()).doesNotContain("pod=\"web\"");
        manager.removePod(pod);
        assertThat(manager.workerCount()).isEqualTo(1);
    }

    @Test
    void aWorkerStoppedWhileProbingLeavesWhenItsProbeReturns() throws IOException {
        runningPod();
        manager.addPod(pod);
        ticker.fire();

        manager.removePod(pod);
        assertThat(manager.workerCount()).as("probes still running").isEqualTo(4);
        ticker.fire();
        runner.runAll();

        assertThat(manager.workerCount()).isZero();
        assertThat(manager.result(ProbeType.READINESS, "a1")).isEmpty();
        assertThat(scrape()).doesNotContain("prober_probe_total{");
    }

    @Test
    void cleanupPodsStopsTheWorkersOfPodsNoLongerWanted() {
        manager.addPod(pod);
        manager.addPod(Pods.pod("db", withProbes("db", probe(), null, null)));

        manager.cleanupPods(Set.of("uid-db"));

        assertThat(manager.workerCount()).isEqualTo(1);
        assertThat(manager.worker("uid-db", "db", ProbeType.LIVENESS)).isPresent();
    }

    @Test
    void stopLivenessAndStartupKeepsReadiness() {
        manager.addPod(pod);
        manager.stopLivenessAndStartup(pod);
        assertThat(manager.worker("uid-web", "app", ProbeType.READINESS)).isPresent();
        assertThat(manager.worker("uid-web", "proxy", ProbeType.READINESS)).isPresent();
        assertThat(manager.workerCount()).isEqualTo(2);
    }

    @Test
    void aWorkerWhosePodTerminatedLeavesByItself() {
        manager.addPod(pod);
        statuses.put("uid-web", status("Succeeded", List.of(), List.of()));
        ticker.fire();
        runner.runAll();
        assertThat(manager.workerCount()).isZero();
        assertThat(ticker.active()).isZero();
    }

    @Test
    void aCrashingProberDoesNotEndTheWorker() {
        runningPod();
        manager.addPod(pod);
        prober.crash = new IllegalStateException("boom");
        ticker.fire();
        runner.runAll();
        assertThat(manager.workerCount()).isEqualTo(4);
    }

    @Test
    void readyAndStartedFollowTheCachedResultsAndAskForAReadinessProbeWhenNotReady() {
        runningPod();
        manager.addPod(pod);
        Container noProbes = Pods.container("plain");
        assertThat(manager.ready("uid-web", noProbes, "x")).isTrue();
        assertThat(manager.started("uid-web", noProbes, "x")).isTrue();

        assertThat(manager.started("uid-web", sidecar, "p1")).as("startup worker not run yet").isFalse();
        assertThat(manager.ready("uid-web", app, "a1")).isFalse();
        assertThat(runner.queued).as("an immediate readiness run was asked for").hasSize(1);
        runner.runAll();
        assertThat(manager.ready("uid-web", app, "a1")).isTrue();

        prober.answer("app", ProbeType.READINESS, FAILURE);
        ticker.fire();
        runner.runAll();
        assertThat(manager.ready("uid-web", app, "a1")).isFalse();

        manager.removePod(pod);
        runner.runAll(); // the readiness run the last call asked for
        assertThat(manager.ready("uid-web", app, "a1")).as("no worker: upstream counts it ready").isTrue();
    }

    @Test
    void closeStopsEverythingAndAddPodAfterwardsDoesNothing() {
        manager.addPod(pod);
        manager.close();
        assertThat(manager.workerCount()).isZero();
        assertThat(ticker.active()).isZero();
        manager.addPod(pod);
        assertThat(manager.workerCount()).isZero();
    }
}
