package io.jkubelet.core.kuberuntime;

import io.jkubelet.core.container.GCPolicy;
import io.jkubelet.core.kuberuntime.testing.FakePodStates;
import io.jkubelet.core.runtime.Container;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.PodSandbox;
import io.jkubelet.core.runtime.PodSandboxFilter;
import io.jkubelet.core.runtime.testing.RuntimePods;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.testing.FakeClock;
import io.jkubelet.core.util.Backoff;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Container GC's passes against the fake runtime: what goes, what stays, and the logs that go with it. */
class RuntimeGcTest {
    private static final String IMAGE = "busybox:1.36";
    @TempDir Path root;
    private final FakeClock clock = new FakeClock();
    private final FakeRuntime runtime = new FakeRuntime(clock);
    private final RuntimePods pods = new RuntimePods(runtime, "node-a", "pause:3.9");
    private final RuntimePods otherNode = new RuntimePods(runtime, "node-b", "pause:3.9");
    private final FakePodStates states = new FakePodStates();
    private Path podLogs;
    private Path legacyLogs;
    private RuntimeGc gc;
    private int attempts;

    @BeforeEach
    void setUp() {
        runtime.addImage(IMAGE);
        runtime.addImage("pause:3.9");
        runtime.scriptCommand(RuntimePods.TRUE, FakeRuntime.Script.exitsWith(1));
        podLogs = root.resolve("pods");
        legacyLogs = root.resolve("containers");
        gc = new RuntimeGc(runtime, new NodeScope("node-a"), new Backoff(clock, Duration.ofSeconds(10),
                Duration.ofSeconds(300)), states, new PodLogsGc(podLogs, legacyLogs, runtime), clock);
    }

    private List<String> containers() {
        return runtime.listContainers(ContainerFilter.ALL).stream().map(Container::id).toList();
    }

    private List<String> sandboxes() {
        return runtime.listPodSandbox(PodSandboxFilter.ALL).stream().map(PodSandbox::id).toList();
    }

    /** Each instance created a second after the previous, so that "newest" is well defined. */
    private String deadInstance(RuntimePods.Sandbox sandbox, String name) {
        clock.advance(Duration.ofSeconds(1));
        return sandbox.dead(name, attempts++, IMAGE);
    }

    /** The legacy {@code /var/log/containers} link of a container, pointing at its (absent) log. */
    private Path legacyLink(String podName, String container, String id) throws IOException {
        Files.createDirectories(legacyLogs);
        return Files.createSymbolicLink(legacyLogs.resolve(podName + "_default_" + container + "-" + id + ".log"),
                podLogs.resolve("default_" + podName + "_uid-" + podName + "/" + container + "/0.log"));
    }

    @Test
    void theNewestDeadInstanceOfEachContainerStaysBesideTheRunningOneAndTheOthersGoWithTheirLogLinks() throws Exception {
        RuntimePods.Sandbox web = pods.sandbox("web");
        String a1 = deadInstance(web, "a");
        String a2 = deadInstance(web, "a");
        String a3 = deadInstance(web, "a");
        clock.advance(Duration.ofSeconds(1));
        String a4 = web.running("a", attempts++, IMAGE);
        Path goneLink = legacyLink("web", "a", a1);
        Path runningLink = legacyLink("web", "a", a4);

        gc.garbageCollect(GCPolicy.DEFAULT, true, false);

        assertThat(containers()).containsExactlyInAnyOrder(a3, a4);
        assertThat(runtime.calls().stream().filter("removeContainer"::equals)).hasSize(2);
        assertThat(goneLink).doesNotExist();
        assertThat(Files.isSymbolicLink(goneLink)).isFalse();
        assertThat(Files.isSymbolicLink(runningLink)).as("dangling, but its container runs").isTrue();
        assertThat(containers()).doesNotContain(a1, a2);
    }

    @Test
    void deadContainersYoungerThanTheMinimumAgeStayUntilTheyAreOldEnough() {
        RuntimePods.Sandbox web = pods.sandbox("web");
        String a1 = deadInstance(web, "a");
        String a2 = deadInstance(web, "a");
        String a3 = deadInstance(web, "a");
        GCPolicy policy = new GCPolicy(Duration.ofMinutes(1), 1, -1);

        gc.garbageCollect(policy, true, false);
        assertThat(containers()).containsExactlyInAnyOrder(a1, a2, a3);

        clock.advance(Duration.ofSeconds(59));
        gc.garbageCollect(policy, true, false);
        assertThat(containers()).as("a1 and a2 are a minute old; a2 is the newest evictable")
                .containsExactlyInAnyOrder(a2, a3);
    }

    @Test
    void aPodsDeadSandboxesGoButTheNewest() {
        // As a pod whose sandbox runc refuses: each try leaves a dead sandbox.
        runtime.failSandboxStarts("unable to apply caps: operation not permitted");
        for (int i = 0; i < 4; i++) {
            clock.advance(Duration.ofSeconds(15));
            try {
                pods.sandbox("priv");
            } catch (IllegalStateException expected) {
                // the sandbox is left behind, not ready
            }
        }
        List<String> tries = sandboxes();

        gc.garbageCollect(GCPolicy.DEFAULT, true, false);

        assertThat(sandboxes()).containsExactly(tries.get(3));
    }

    @Test
    void everythingOfAPodGoneForGoodGoesWithItsLogDirectoryOnceEverySourceHasReported() throws Exception {
        RuntimePods.Sandbox gone = pods.sandbox("gone");
        deadInstance(gone, "a");
        runtime.stopPodSandbox(gone.id);
        RuntimePods.Sandbox stays = pods.sandbox("stays");
        String kept = deadInstance(stays, "a");
        Path goneLogs = Files.createDirectories(podLogs.resolve("default_gone_uid-gone/a"));
        Path staysLogs = Files.createDirectories(podLogs.resolve("default_stays_uid-stays/a"));
        states.contentRemovable.add("uid-gone");

        // Before every source has reported, a pod no source wants may just be late: only the policy applies.
        gc.garbageCollect(GCPolicy.DEFAULT, false, false);
        assertThat(containers()).hasSize(2);
        assertThat(goneLogs).exists();

        gc.garbageCollect(GCPolicy.DEFAULT, true, false);
        assertThat(containers()).containsExactly(kept);
        assertThat(sandboxes()).containsExactly(stays.id);
        assertThat(goneLogs.getParent()).doesNotExist();
        assertThat(staysLogs).exists();
    }

    @Test
    void aTerminatedPodThatIsStillWantedLosesItsRuntimePartsOnlyWhenTheNodeNeedsDisk() {
        RuntimePods.Sandbox job = pods.sandbox("job");
        String done = deadInstance(job, "a");
        runtime.stopPodSandbox(job.id);
        states.runtimeRemovable.add("uid-job");

        gc.garbageCollect(GCPolicy.DEFAULT, true, false);
        assertThat(containers()).containsExactly(done);

        gc.garbageCollect(GCPolicy.DEFAULT, true, true);
        assertThat(containers()).isEmpty();
        assertThat(sandboxes()).isEmpty();
    }

    @Test
    void anotherNodesContainersOnTheSameRuntimeAreLeftAlone() {
        RuntimePods.Sandbox theirs = otherNode.sandbox("theirs");
        String t1 = deadInstance(theirs, "a");
        String t2 = deadInstance(theirs, "a");
        states.contentRemovable.add("uid-theirs");

        gc.garbageCollect(new GCPolicy(Duration.ZERO, 0, 0), true, true);

        assertThat(containers()).containsExactlyInAnyOrder(t1, t2);
        assertThat(sandboxes()).containsExactly(theirs.id);
    }
}
