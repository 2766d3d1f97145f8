package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.node.v1.RuntimeClass;
import io.fabric8.kubernetes.api.model.node.v1.RuntimeClassBuilder;
import io.jkubelet.core.events.Event;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.kuberuntime.testing.FakePodStates;
import io.jkubelet.core.kuberuntime.testing.RuntimeManagers;
import io.jkubelet.core.prober.ProbeVerdicts;
import io.jkubelet.core.runtime.PodSandbox;
import io.jkubelet.core.runtime.PodSandboxFilter;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.runtimeclass.RuntimeClassManager;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import static io.jkubelet.core.testing.Pods.container;
import static io.jkubelet.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pod's RuntimeClass on the runtime manager (upstream's {@code createPodSandbox}): its handler is what the sandbox is
 * run with; a RuntimeClass that cannot be found, or a handler the runtime refuses, fails the sandbox with upstream's
 * {@code FailedCreatePodSandBox} warning, nothing is made, and the pod's sync fails so that it is tried again.
 */
class RuntimeManagerRuntimeClassTest {
    @TempDir Path root;
    private final FakeClock clock = new FakeClock();
    private final FakeRuntime runtime = new FakeRuntime(clock);
    private final LoggingEventRecorder events = new LoggingEventRecorder(clock);
    private final Map<String, RuntimeClass> cluster = new ConcurrentHashMap<>();
    private RuntimeManager manager;

    @BeforeEach
    void setUp() {
        runtime.addImage("busybox:1.36");
        runtime.addImage("jkubelet/pause:3.9");
        runtime.addRuntimeHandler("runsc");
        NodeContext node = new NodeContext("node-a", List.of("192.168.1.10"), root.resolve("logs/pods"),
                root.resolve("logs/containers"), "jkubelet/pause:3.9", List.of(), "cluster.local", x -> Math.max(x, 0));
        manager = RuntimeManagers.of(runtime, node, root.resolve("kubelet"), new FakePodStates(), events, clock,
                RuntimeClassManager.of(name -> Optional.ofNullable(cluster.get(name))));
    }

    private void runtimeClass(String name, String handler) {
        cluster.put(name, new RuntimeClassBuilder().withNewMetadata().withName(name).endMetadata().withHandler(handler)
                .build());
    }

    private static Pod withRuntimeClass(String runtimeClassName) {
        return new PodBuilder(pod("p", container("a"))).editSpec().withRuntimeClassName(runtimeClassName).endSpec()
                .build();
    }

    private SyncResult sync(Pod pod) {
        var m = pod.getMetadata();
        return manager.syncPod(pod, manager.getPodStatus(m.getUid(), m.getName(), m.getNamespace()), ProbeVerdicts.NONE);
    }

    private List<PodSandbox> sandboxes() {
        return runtime.listPodSandbox(PodSandboxFilter.ALL);
    }

    private List<Event> warnings() {
        return events.events().stream().filter(e -> e.type().equals("Warning")).toList();
    }

    @Test
    void theSandboxRunsWithTheHandlerOfThePodsRuntimeClass() {
        runtimeClass("sandboxed", "runsc");

        SyncResult result = sync(withRuntimeClass("sandboxed"));

        assertThat(result.failed()).isFalse();
        assertThat(sandboxes()).singleElement()
                .satisfies(s -> assertThat(runtime.sandboxRuntimeHandler(s.id())).isEqualTo("runsc"));
        assertThat(warnings()).isEmpty();
    }

    @Test
    void aPodWithoutRuntimeClassRunsWithTheRuntimesDefault() {
        assertThat(sync(pod("p", container("a"))).failed()).isFalse();

        assertThat(sandboxes()).singleElement()
                .satisfies(s -> assertThat(runtime.sandboxRuntimeHandler(s.id())).isEmpty());
    }

    @Test
    void aMissingRuntimeClassFailsTheSandboxWithUpstreamsEventAndMakesNothing() {
        SyncResult result = sync(withRuntimeClass("deleted"));

        assertThat(result.failed()).isTrue();
        assertThat(result.error()).isEqualTo("Failed to create pod sandbox: runtimeclasses.node.k8s.io \"deleted\" not found");
        assertThat(warnings()).singleElement().satisfies(e -> {
            assertThat(e.reason()).isEqualTo("FailedCreatePodSandBox");
            assertThat(e.message()).isEqualTo("Failed to create pod sandbox: runtimeclasses.node.k8s.io \"deleted\" not found");
            assertThat(e.involvedObject().getName()).isEqualTo("p");
        });
        assertThat(runtime.calls()).doesNotContain("runPodSandbox");
        assertThat(sandboxes()).isEmpty();
    }

    @Test
    void aHandlerTheRuntimeRefusesFailsTheSandboxWithAnEventNamingIt() {
        runtimeClass("unconfigured", "jk-unconfigured");

        SyncResult result = sync(withRuntimeClass("unconfigured"));

        assertThat(result.failed()).isTrue();
        assertThat(warnings()).singleElement().satisfies(e -> {
            assertThat(e.reason()).isEqualTo("FailedCreatePodSandBox");
            assertThat(e.message()).isEqualTo("Failed to create pod sandbox: failed to get sandbox runtime: "
                    + "no runtime for \"jk-unconfigured\" is configured");
        });
        assertThat(sandboxes()).isEmpty();
    }

    @Test
    void theRuntimeClassMadeAfterAFailureRunsTheNextTry() {
        assertThat(sync(withRuntimeClass("late")).failed()).isTrue();

        runtimeClass("late", "runsc");

        assertThat(sync(withRuntimeClass("late")).failed()).isFalse();
        assertThat(sandboxes()).singleElement()
                .satisfies(s -> assertThat(runtime.sandboxRuntimeHandler(s.id())).isEqualTo("runsc"));
    }
}
