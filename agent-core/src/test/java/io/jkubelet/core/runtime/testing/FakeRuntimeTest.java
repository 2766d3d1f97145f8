package io.jkubelet.core.runtime.testing;

import io.jkubelet.core.runtime.ContainerConfig;
import io.jkubelet.core.runtime.ContainerMetadata;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.ImagePullException;
import io.jkubelet.core.runtime.LinuxContainerResources;
import io.jkubelet.core.runtime.LinuxContainerSecurityContext;
import io.jkubelet.core.runtime.NamespaceOptions;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PodSandboxMetadata;
import io.jkubelet.core.runtime.RuntimeEvent;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The fake's own test controls; its runtime behaviour is covered by {@link FakeRuntimeContractTest}. */
class FakeRuntimeTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
    private FakeRuntime runtime;

    @BeforeEach
    void setUp() {
        runtime = new FakeRuntime(clock);
        runtime.addImage("pause:3.9");
        runtime.addImage("busybox:1.0");
    }

    @Test
    void recordsCallsInOrder() {
        String sandbox = runtime.runPodSandbox(sandboxConfig());
        runtime.createContainer(sandbox, containerConfig(List.of("sleep", "1000")), sandboxConfig());

        assertThat(runtime.calls()).containsExactly("runPodSandbox", "createContainer");
        runtime.clearCalls();
        assertThat(runtime.calls()).isEmpty();
    }

    @Test
    void oneShotErrorFailsOnlyTheNextCall() {
        runtime.injectError("runPodSandbox", new RuntimeException("boom"));

        assertThatThrownBy(() -> runtime.runPodSandbox(sandboxConfig())).hasMessage("boom");
        assertThat(runtime.runPodSandbox(sandboxConfig())).isNotEmpty();
        assertThat(runtime.calls()).containsExactly("runPodSandbox", "runPodSandbox");
    }

    @Test
    void stickyErrorFailsUntilCleared() {
        runtime.injectStickyError("listImages", new IllegalStateException("down"));

        assertThatThrownBy(runtime::listImages).hasMessage("down");
        assertThatThrownBy(runtime::listImages).hasMessage("down");
        runtime.clearErrors();
        assertThat(runtime.listImages()).hasSize(2);
    }

    @Test
    void exitContainerEndsItWithTheGivenCodeAndReason() {
        String sandbox = runtime.runPodSandbox(sandboxConfig());
        String id = runtime.createContainer(sandbox, containerConfig(List.of("sleep", "1000")), sandboxConfig());
        runtime.startContainer(id);
        clock.advance(Duration.ofSeconds(5));

        runtime.exitContainer(id, 137, "OOMKilled");

        var status = runtime.containerStatus(id);
        assertThat(status.state()).isEqualTo(ContainerState.CONTAINER_EXITED);
        assertThat(status.exitCode()).isEqualTo(137);
        assertThat(status.reason()).isEqualTo("OOMKilled");
        assertThat(status.startedAt()).isEqualTo(Instant.parse("2026-12-01T10:00:00Z"));
        assertThat(status.finishedAt()).isEqualTo(Instant.parse("2026-12-01T10:00:05Z"));
    }

    @Test
    void scriptedProcessExitsOnceTheClockPassesItsDuration() {
        List<String> command = List.of("sh", "-c", "sleep 10; exit 2");
        runtime.scriptCommand(command, FakeRuntime.Script.exitsWith(2).lasting(Duration.ofSeconds(10)));
        String sandbox = runtime.runPodSandbox(sandboxConfig());
        String id = runtime.createContainer(sandbox, containerConfig(command), sandboxConfig());
        runtime.startContainer(id);

        clock.advance(Duration.ofSeconds(9));
        assertThat(runtime.containerStatus(id).state()).isEqualTo(ContainerState.CONTAINER_RUNNING);
        clock.advance(Duration.ofSeconds(1));
        assertThat(runtime.containerStatus(id).state()).isEqualTo(ContainerState.CONTAINER_EXITED);
        assertThat(runtime.containerStatus(id).reason()).isEqualTo("Error");
    }

    @Test
    void pullsSucceedOnlyForPullableReferences() {
        runtime.makePullable("registry.local/app:1");
        runtime.failPull("registry.local/private:1", "unauthorized: authentication required");

        assertThat(runtime.pullImage("registry.local/app:1", null)).startsWith("sha256:");
        assertThat(runtime.imageStatus("registry.local/app:1")).isPresent();
        assertThatThrownBy(() -> runtime.pullImage("registry.local/private:1", null))
                .isInstanceOf(ImagePullException.class).hasMessage("unauthorized: authentication required");
        assertThatThrownBy(() -> runtime.pullImage("registry.local/missing:1", null))
                .isInstanceOf(ImagePullException.class).hasMessageContaining("registry.local/missing:1");
    }

    @Test
    void listenersSeeEventsUntilClosed() throws Exception {
        List<RuntimeEvent> events = new ArrayList<>();
        AutoCloseable handle = runtime.watchEvents(events::add);
        String sandbox = runtime.runPodSandbox(sandboxConfig());
        handle.close();
        runtime.stopPodSandbox(sandbox);

        assertThat(events).containsExactly(
                new RuntimeEvent(sandbox, "uid-1", RuntimeEvent.Type.CREATED),
                new RuntimeEvent(sandbox, "uid-1", RuntimeEvent.Type.STARTED));
    }

    private static PodSandboxConfig sandboxConfig() {
        return new PodSandboxConfig(new PodSandboxMetadata("web", "uid-1", "default", 0), "web", "/var/log/pods/x",
                null, List.of(), Map.of("io.kubernetes.pod.uid", "uid-1"), Map.of(), "",
                NamespaceOptions.POD_DEFAULT, 0, "pause:3.9", false, Map.of());
    }

    private static ContainerConfig containerConfig(List<String> command) {
        return new ContainerConfig(new ContainerMetadata("app", 0), "busybox:1.0", command, List.of(), "",
                List.of(), List.of(), Map.of(), Map.of(), "app/0.log", false, false, false,
                new LinuxContainerResources(0, 0, 0, 0, 0),
                new LinuxContainerSecurityContext(null, null, List.of(), false, false, List.of(), List.of(),
                        NamespaceOptions.POD_DEFAULT, false));
    }

    /** A clock tests move by hand. */
    static final class MutableClock extends Clock {
        private volatile Instant now;

        MutableClock(Instant start) {
            this.now = start;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
