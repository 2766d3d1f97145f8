package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.cm.ContainerManager;
import io.jkubelet.core.container.ContainerStatus;
import io.jkubelet.core.container.RuntimePodStatus;
import io.jkubelet.core.container.SandboxStatus;
import io.jkubelet.core.container.State;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.kuberuntime.RuntimeManager;
import io.jkubelet.core.kuberuntime.SyncResult;
import io.jkubelet.core.kuberuntime.testing.FakeKubeRuntime;
import io.jkubelet.core.metrics.KubeletMetrics;
import io.jkubelet.core.probe.ProbeResult;
import io.jkubelet.core.prober.ProbeManager;
import io.jkubelet.core.prober.ProberMetrics;
import io.jkubelet.core.status.PodStatusGenerator;
import io.jkubelet.core.status.ReasonCache;
import io.jkubelet.core.status.StatusManager;
import io.jkubelet.core.testing.FakeClock;
import io.jkubelet.core.util.DaemonThreads;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

import static io.jkubelet.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/** What a pod worker's sync decides, against a pod-level fake runtime: no containers, no threads. */
class KubeletPodSyncerTest {
    private final FakeClock clock = new FakeClock();
    private final FakeKubeRuntime runtime = new FakeKubeRuntime();
    private final PodManager podManager = new PodManager();
    private final StatusManager statusManager = new StatusManager(clock);
    private final ReasonCache reasonCache = new ReasonCache();
    private final ProbeManager probes = ProbeManager.create((type, pod, ip, c, id) -> ProbeResult.SUCCESS,
            statusManager::getPodStatus, u -> {}, new ProberMetrics(new PrometheusRegistry()), clock,
            DaemonThreads.scheduler("probe-ticker"), Executors.newVirtualThreadPerTaskExecutor());
    private final List<String> statusWrites = new CopyOnWriteArrayList<>();
    private final KubeletPodSyncer syncer = new KubeletPodSyncer(runtime, podManager, statusManager,
            new PodStatusGenerator(reasonCache, probes, p -> "BestEffort"), reasonCache, probes,
            new MirrorPodSync(Optional.empty(), podManager, statusWrites::add, Runnable::run), statusWrites::add,
            new LoggingEventRecorder(clock), new KubeletMetrics("node-a"), () -> List.of("192.168.1.10"),
            List.of(new PodCgroupSync(ContainerManager.stub(), runtime, new LoggingEventRecorder(clock),
                    uid -> false)),
            clock);

    @AfterEach
    void stop() {
        probes.close();
    }

    private static Container app() {
        return new ContainerBuilder().withName("a").withImage("busybox").build();
    }

    private static RuntimePodStatus exited(Pod pod, int exitCode) {
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        var m = pod.getMetadata();
        return new RuntimePodStatus(m.getUid(), m.getName(), m.getNamespace(), List.of("10.0.0.2"),
                List.of(new SandboxStatus("sb1", 0, true, t, List.of("10.0.0.2"), false)),
                List.of(new ContainerStatus("c1", "fake", "a", State.EXITED, t, t, t.plusSeconds(1), exitCode, "busybox",
                        "busybox@sha256:1", "h", 0, "Error", "", "sb1", "/dev/termination-log", "")));
    }

    @Test
    void aCrashLoopingContainerWaitsWithItsReasonAndTheWorkerReturnsWhenTheBackOffEnds() throws Exception {
        Pod pod = pod("crash", app());
        podManager.addOrUpdate(pod);
        runtime.setPodStatus(exited(pod, 1));
        runtime.setCrashLoopRemaining("a", Duration.ofSeconds(7));
        runtime.onSync(p -> {
            SyncResult r = new SyncResult();
            r.add(new SyncResult.StartResult("a", RuntimeManager.CRASH_LOOP_BACK_OFF,
                    "back-off 10s restarting failed container=a pod=crash_default(uid-crash)"));
            return r;
        });

        SyncOutcome out = syncer.syncPod(SyncPodType.SYNC, pod, runtime.getPodStatus(pod.getMetadata().getUid(), "", ""));

        assertThat(out.terminal()).isFalse();
        assertThat(out.retryAfter()).as("a little past the back-off's end").isEqualTo(Duration.ofMillis(7100));
        var waiting = statusManager.getPodStatus(pod.getMetadata().getUid()).orElseThrow()
                .getContainerStatuses().get(0).getState().getWaiting();
        assertThat(waiting.getReason()).isEqualTo("CrashLoopBackOff");
        assertThat(waiting.getMessage()).startsWith("back-off 10s restarting failed container=a");
    }

    @Test
    void aPodLevelSyncErrorIsRetriedAfterTheBackOffPeriod() throws Exception {
        Pod pod = pod("web", app());
        podManager.addOrUpdate(pod);
        runtime.onSync(p -> {
            SyncResult r = new SyncResult();
            r.fail("Failed to create pod sandbox: no space left on device");
            return r;
        });

        SyncOutcome out = syncer.syncPod(SyncPodType.CREATE, pod, runtime.getPodStatus(pod.getMetadata().getUid(), "", ""));

        assertThat(out).isEqualTo(SyncOutcome.FAILED);
        assertThat(runtime.calls).containsExactly("syncPod web");
    }

    @Test
    void aPodThatHasFailedIsTerminalAndNeverSyncedToTheRuntime() throws Exception {
        Pod pod = pod("job", "Never", List.of(), List.of(app()));
        podManager.addOrUpdate(pod);
        runtime.setPodStatus(exited(pod, 3));

        SyncOutcome out = syncer.syncPod(SyncPodType.SYNC, pod, runtime.getPodStatus(pod.getMetadata().getUid(), "", ""));

        assertThat(out.terminal()).isTrue();
        assertThat(runtime.calls).isEmpty();
        assertThat(statusManager.getPodStatus(pod.getMetadata().getUid()).orElseThrow().getPhase()).isEqualTo("Failed");
    }

    @Test
    void terminatingAPodKillsItWithTheGracePeriodOverrideAndAsksForItsFinalStatusToBeWritten() throws Exception {
        Pod pod = pod("gone", app());
        podManager.addOrUpdate(pod);
        runtime.setPodStatus(exited(pod, 0));

        syncer.syncTerminatingPod(pod, exited(pod, 0), 5L, null);
        syncer.syncTerminatedPod(pod, RuntimePodStatus.empty(pod.getMetadata().getUid(), "gone", "default"));

        assertThat(runtime.calls).containsExactly("killPod gone 5");
        assertThat(statusWrites).containsExactly(pod.getMetadata().getUid());
        assertThat(statusManager.getPodStatus(pod.getMetadata().getUid())).isPresent();
    }
}
