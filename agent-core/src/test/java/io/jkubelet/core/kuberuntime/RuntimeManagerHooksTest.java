package io.jkubelet.core.kuberuntime;

import io.jkubelet.core.kuberuntime.testing.FakePodStates;
import io.jkubelet.core.prober.ProbeVerdicts;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jkubelet.core.container.RuntimePodStatus;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.images.ImageManager;
import io.jkubelet.core.lifecycle.HttpHookClient;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.runtimeclass.RuntimeClassManager;
import io.jkubelet.core.testing.FakeClock;
import io.jkubelet.core.volume.PodDirs;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.jkubelet.core.testing.Pods.container;
import static io.jkubelet.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Lifecycle hooks, grace periods, sidecars and the kill order of the runtime manager on the fake runtime. */
class RuntimeManagerHooksTest {
    @TempDir Path root;
    private final FakeClock clock = new FakeClock();
    private final FakeRuntime runtime = new FakeRuntime(clock);
    private final LoggingEventRecorder events = new LoggingEventRecorder(clock);
    /** What the fake HTTP hook client does for a path. */
    private final List<String> httpCalls = new CopyOnWriteArrayList<>();
    private volatile HttpHookClient httpBehaviour = (a, c, h, t) -> { };
    private TimedWait waits = TimedWait.REAL;
    private RuntimeManager manager;

    @BeforeEach
    void setUp() {
        runtime.addImage("busybox:1.36");
        runtime.addImage("jkubelet/pause:3.9");
        manager = newManager();
    }

    private RuntimeManager newManager() {
        NodeContext node = new NodeContext("node-a", List.of("192.168.1.10"), root.resolve("logs/pods"),
                root.resolve("logs/containers"), "jkubelet/pause:3.9", List.of(), "cluster.local", x -> Math.max(x, 0));
        PodDirs dirs = new PodDirs(root.resolve("kubelet"));
        return new RuntimeManager(runtime, new ImageManager(runtime, events, clock, true),
                new ContainerConfigFactory(node, (p, c) -> 1000), PodVolumes.NONE, dirs, node, events, clock,
                (action, c, host, timeout) -> {
                    httpCalls.add(c.getName() + action.getPath());
                    httpBehaviour.get(action, c, host, timeout);
                }, new FakePodStates(), RuntimeClassManager.standalone(), (latch, timeout) -> waits.await(latch, timeout));
    }

    private RuntimePodStatus status(Pod pod) {
        return manager.getPodStatus(pod.getMetadata().getUid(), pod.getMetadata().getName(), "default");
    }

    private SyncResult sync(Pod pod) {
        return manager.syncPod(pod, status(pod), ProbeVerdicts.NONE);
    }

    private String idOf(Pod pod, String name) {
        return status(pod).findContainerStatusByName(name).orElseThrow().id();
    }

    private List<String> events(String reason) {
        return events.events().stream().filter(e -> e.reason().equals(reason)).map(e -> e.message()).toList();
    }

    private static Container withPostStart(Container c, String... cmd) {
        return new ContainerBuilder(c).withNewLifecycle().withNewPostStart().withNewExec().withCommand(cmd).endExec()
                .endPostStart().endLifecycle().build();
    }

    private static Container withHttpPreStop(Container c) {
        return new ContainerBuilder(c).withNewLifecycle().withNewPreStop().withNewHttpGet().withPath("/stop")
                .withNewPort(8080).endHttpGet().endPreStop().endLifecycle().build();
    }

    private static Container sidecar(Container c) {
        return new ContainerBuilder(c).withRestartPolicy("Always").build();
    }

    // ---------------------------------------------------------------- postStart

    @Test
    void postStartHookRunsAfterStartAndBeforeTheNextContainer() {
        runtime.scriptCommand(List.of("sh", "-c", "hook"), FakeRuntime.Script.exitsWith(0));
        Pod pod = pod("p", withPostStart(container("a"), "sh", "-c", "hook"), container("b"));
        SyncResult r = sync(pod);
        assertThat(r.failed()).isFalse();
        List<String> calls = runtime.calls().stream()
                .filter(c -> c.equals("createContainer") || c.equals("startContainer") || c.equals("execSync")).toList();
        assertThat(calls).containsExactly("createContainer", "startContainer", "execSync", "createContainer", "startContainer");
    }

    @Test
    void failedPostStartHookKillsTheContainerAndReportsPostStartHookError() {
        runtime.scriptCommand(List.of("sh", "-c", "hook"), FakeRuntime.Script.prints("", "boom", 2));
        Pod pod = pod("p", withPostStart(container("a"), "sh", "-c", "hook"));
        SyncResult r = sync(pod);
        SyncResult.StartResult start = r.starts().get(0);
        assertThat(start.reason()).isEqualTo("PostStartHookError");
        assertThat(start.message()).isEqualTo("Exec lifecycle hook ([sh -c hook]) for Container \"a\" in Pod "
                + "\"p_default(uid-p)\" failed - error: command 'sh -c hook' exited with 2: boom, message: \"boom\"");
        assertThat(events("FailedPostStartHook")).containsExactly("PostStartHook failed");
        assertThat(events("Killing")).containsExactly("FailedPostStartHook");
        assertThat(status(pod).runningContainers()).isEmpty();
    }

    // ---------------------------------------------------------------- preStop and grace

    @Test
    void preStopTimeIsTakenOffTheGracePeriod() {
        httpBehaviour = (a, c, h, t) -> clock.advance(Duration.ofSeconds(7));
        Pod pod = pod("p", withHttpPreStop(container("a")));
        sync(pod);
        manager.killPod(pod, status(pod), null);
        assertThat(httpCalls).containsExactly("a/stop");
        assertThat(runtime.stopCalls()).extracting(FakeRuntime.StopCall::timeout).containsExactly(Duration.ofSeconds(23));
        assertThat(events("FailedPreStopHook")).isEmpty();
    }

    @Test
    void preStopIsCutOffAtTheGracePeriod() throws InterruptedException {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        httpBehaviour = (a, c, h, t) -> {
            entered.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
        };
        // The grace period passes without waiting for it, once the hook is under way (an interrupt that came
        // earlier would stop it before its request and prove nothing).
        waits = (latch, timeout) -> {
            if (!entered.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("the hook never started its request");
            }
            clock.advance(timeout);
            return false;
        };
        Pod pod = pod("p", withHttpPreStop(container("a")));
        sync(pod);
        manager.killPod(pod, status(pod), null);
        assertThat(runtime.stopCalls()).extracting(FakeRuntime.StopCall::timeout)
                .containsExactly(Duration.ofSeconds(ContainerKiller.MINIMUM_GRACE_PERIOD_SECONDS));
        assertThat(interrupted.await(10, TimeUnit.SECONDS)).as("the hook was interrupted").isTrue();
        assertThat(events("FailedPreStopHook")).isEmpty();
    }

    @Test
    void failedPreStopHookIsAWarningAndTheContainerStillStops() {
        httpBehaviour = (a, c, h, t) -> {
            throw new IOException("connection refused");
        };
        Pod pod = pod("p", withHttpPreStop(container("a")));
        sync(pod);
        manager.killPod(pod, status(pod), null);
        assertThat(events("FailedPreStopHook")).containsExactly("PreStopHook failed");
        assertThat(events("Killing")).containsExactly("Stopping container a");
        assertThat(runtime.stopCalls()).hasSize(1);
    }

    @Test
    void preStopDoesNotRunForAContainerThatIsNotRunning() {
        Pod pod = pod("p", withHttpPreStop(container("a")));
        sync(pod);
        String id = idOf(pod, "a");
        runtime.exitContainer(id, 0, null);
        manager.killContainer(pod, id, "a", "", "", null);
        assertThat(httpCalls).isEmpty();
    }

    record GraceCase(String name, Long probeGrace, String reason, Long deletionGrace, Long override, long expected) {}

    @Test
    void gracePeriodOfAKill() {
        List<GraceCase> cases = List.of(
                new GraceCase("liveness failure uses the probe's grace", 5L, "Liveness", null, null, 5),
                new GraceCase("startup failure uses the probe's grace", 7L, "Startup", null, null, 7),
                new GraceCase("probe without its own grace: the pod's", null, "Liveness", null, null, 30),
                new GraceCase("another reason ignores the probe's grace", 5L, "", null, null, 30),
                new GraceCase("deletion grace wins over the probe's", 5L, "Liveness", 10L, null, 10),
                new GraceCase("override replaces everything", 5L, "Liveness", 10L, 12L, 12),
                new GraceCase("at least the minimum", 0L, "Liveness", null, null, 2));
        List<String> failures = new ArrayList<>();
        for (GraceCase gc : cases) {
            Container a = new ContainerBuilder(container("a"))
                    .withNewLivenessProbe().withNewExec().withCommand("true").endExec()
                    .withTerminationGracePeriodSeconds(gc.probeGrace()).endLivenessProbe()
                    .withNewStartupProbe().withNewExec().withCommand("true").endExec()
                    .withTerminationGracePeriodSeconds(gc.probeGrace()).endStartupProbe().build();
            Pod pod = new PodBuilder(pod("g" + failures.size() + cases.indexOf(gc), a)).editMetadata()
                    .withDeletionGracePeriodSeconds(gc.deletionGrace()).endMetadata().build();
            sync(pod);
            int before = runtime.stopCalls().size();
            manager.killContainer(pod, idOf(pod, "a"), "a", "", gc.reason(), gc.override());
            Duration got = runtime.stopCalls().get(before).timeout();
            if (!got.equals(Duration.ofSeconds(gc.expected()))) {
                failures.add(gc.name() + ": " + got);
            }
        }
        assertThat(failures).isEmpty();
    }

    // ---------------------------------------------------------------- sidecars

    private Pod sidecarPod(String restartPolicy) {
        return pod("sc", restartPolicy, List.of(sidecar(withHttpPreStop(container("s1"))),
                sidecar(withHttpPreStop(container("s2")))), List.of(container("app")));
    }

    private void startAll(Pod pod) {
        for (int i = 0; i < 5 && status(pod).runningContainers().size() < 3; i++) {
            sync(pod);
        }
        assertThat(status(pod).runningContainers()).hasSize(3);
    }

    @Test
    void sidecarsStartInOrderThenTheApp() {
        Pod pod = sidecarPod("Always");
        sync(pod);
        assertThat(status(pod).runningContainers()).extracting(c -> c.name()).containsExactly("s1");
        sync(pod);
        assertThat(status(pod).runningContainers()).extracting(c -> c.name()).containsExactlyInAnyOrder("s1", "s2");
        sync(pod);
        assertThat(status(pod).runningContainers()).extracting(c -> c.name()).containsExactlyInAnyOrder("s1", "s2", "app");
    }

    @Test
    void sidecarsStopAfterTheAppInReverseOrderButRunTheirPreStopAtOnce() throws Exception {
        Pod pod = sidecarPod("Always");
        startAll(pod);
        String app = idOf(pod, "app"), s1 = idOf(pod, "s1"), s2 = idOf(pod, "s2");
        CountDownLatch appStop = runtime.holdStops(app);
        Thread killer = Thread.ofVirtual().start(() -> manager.killPod(pod, status(pod), null));
        // The sidecars' preStop hooks do not wait for the app ...
        await().atMost(Duration.ofSeconds(10)).until(() -> httpCalls.containsAll(List.of("s1/stop", "s2/stop")));
        // ... but their stop signal does.
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> runtime.stopCalls().isEmpty());
        appStop.countDown();
        killer.join(Duration.ofSeconds(10));
        assertThat(runtime.stopCalls()).extracting(FakeRuntime.StopCall::containerId).containsExactly(app, s2, s1);
    }

    @Test
    void aSidecarThatFailsToStartDoesNotHoldUpTheOthers() {
        Pod pod = sidecarPod("Always");
        startAll(pod);
        runtime.exitContainer(idOf(pod, "s1"), 1, null);
        runtime.exitContainer(idOf(pod, "s2"), 1, null);
        runtime.injectError("createContainer", new IllegalStateException("no space left on device"));
        SyncResult r = sync(pod);
        assertThat(r.starts()).extracting(SyncResult.StartResult::containerName, SyncResult.StartResult::reason)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("s1", "CreateContainerError"),
                        org.assertj.core.groups.Tuple.tuple("s2", ""));
    }

    @Test
    void neverPodCompletesWhenItsAppSucceeds() {
        Pod pod = sidecarPod("Never");
        startAll(pod);
        runtime.exitContainer(idOf(pod, "app"), 0, null);
        sync(pod);
        assertThat(status(pod).runningContainers()).isEmpty();
    }

    // ---------------------------------------------------------------- termination messages

    @Test
    void terminationMessageKeepsTheLastFourKiB() throws IOException {
        Pod pod = pod("tm", container("a"));
        sync(pod);
        String id = idOf(pod, "a");
        Path file = Path.of(runtime.containerConfig(id).mounts().stream()
                .filter(m -> m.containerPath().equals("/dev/termination-log")).findFirst().orElseThrow().hostPath());
        Files.writeString(file, "x".repeat(100) + "y".repeat(4096));
        runtime.exitContainer(id, 1, null);
        assertThat(status(pod).findContainerStatusByName("a").orElseThrow().message()).isEqualTo("y".repeat(4096));
    }
}
