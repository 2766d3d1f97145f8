package io.jkubelet.docker;

import io.jkubelet.core.container.GCPolicy;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.kuberuntime.NodeContext;
import io.jkubelet.core.kuberuntime.RuntimeManager;
import io.jkubelet.core.kuberuntime.testing.FakePodStates;
import io.jkubelet.core.kuberuntime.testing.RuntimeManagers;
import io.jkubelet.core.runtime.Container;
import io.jkubelet.core.runtime.ContainerConfig;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.ContainerMetadata;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.PodSandbox;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PodSandboxFilter;
import io.jkubelet.core.runtime.PodSandboxMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Container GC on the real engine: dead instances and sandboxes that Docker lists as a failing pod leaves them, and
 * the log files and links that go with the containers. Everything is scoped to this test's node name.
 */
class DockerContainerGcTest extends DockerPodsTestBase {
    @TempDir Path root;

    private RuntimeManager manager() {
        NodeContext node = new NodeContext(pods.nodeName, List.of("127.0.0.1"), Path.of(pods.logRoot),
                root.resolve("containers"), DockerTestSupport.PAUSE, List.of(), "cluster.local", x -> Math.max(x, 0));
        return RuntimeManagers.of(runtime, node, root.resolve("kubelet"), new FakePodStates(),
                new LoggingEventRecorder(Clock.systemUTC()), Clock.systemUTC());
    }

    /** Instance {@code attempt} of container {@code a}, run to its end, with its legacy log link as the kubelet makes it. */
    private String deadInstance(String sandboxId, PodSandboxConfig sandbox, int attempt) throws IOException {
        ContainerConfig base = pods.container("a", List.of("true"), sandbox, c -> c);
        Map<String, String> annotations = new java.util.HashMap<>(base.annotations());
        annotations.put(Labels.CONTAINER_RESTART_COUNT, String.valueOf(attempt));
        ContainerConfig config = new ContainerConfig(new ContainerMetadata("a", attempt), base.image(), base.command(),
                base.args(), base.workingDir(), base.envs(), base.mounts(), base.labels(), annotations,
                "a/" + attempt + ".log", false, false, false, base.resources(), base.securityContext());
        String id = pods.run(sandboxId, config, sandbox);
        pods.awaitExited(id);
        Path links = Files.createDirectories(root.resolve("containers"));
        Files.createSymbolicLink(links.resolve(sandbox.metadata().name() + "_contract_a-" + id + ".log"),
                Path.of(sandbox.logDirectory(), "a", attempt + ".log"));
        return id;
    }

    private static PodSandboxConfig withAttempt(PodSandboxConfig c, int attempt) {
        var m = c.metadata();
        return new PodSandboxConfig(new PodSandboxMetadata(m.name(), m.uid(), m.namespace(), attempt), c.hostname(),
                c.logDirectory(), c.dnsConfig(), c.portMappings(), c.labels(), c.annotations(), c.cgroupParent(),
                c.namespaceOptions(), c.oomScoreAdj(), c.image(), c.privileged(), c.sysctls());
    }

    @Test
    void theNewestDeadInstanceAndTheNewestSandboxStayAndTheRestGoWithTheirLogs() throws Exception {
        List<String> deadSandboxes = new ArrayList<>();
        PodSandboxConfig sandbox = pods.sandbox("gc", c -> c);
        for (int attempt = 0; attempt < 2; attempt++) {
            // Earlier sandboxes of the same pod that died: what a pod whose sandbox cannot start leaves.
            String old = runtime.runPodSandbox(withAttempt(sandbox, attempt));
            runtime.stopPodSandbox(old);
            deadSandboxes.add(old);
        }
        sandbox = withAttempt(sandbox, 2);
        String sandboxId = runtime.runPodSandbox(sandbox);
        List<String> instances = new ArrayList<>();
        for (int attempt = 0; attempt < 3; attempt++) {
            instances.add(deadInstance(sandboxId, sandbox, attempt));
        }
        Path logDir = Path.of(sandbox.logDirectory(), "a");
        assertThat(Files.isSymbolicLink(logDir.resolve("0.log"))).as("the runtime links each log").isTrue();

        manager().garbageCollect(GCPolicy.DEFAULT, true, false);

        Map<String, String> mine = Map.of(Labels.NODE_NAME, pods.nodeName);
        assertThat(runtime.listContainers(new ContainerFilter(null, null, null, mine))).extracting(Container::id)
                .containsExactly(instances.get(2));
        assertThat(runtime.listPodSandbox(new PodSandboxFilter(null, null, mine))).extracting(PodSandbox::id)
                .containsExactly(sandboxId).doesNotContainAnyElementsOf(deadSandboxes);
        assertThat(Files.exists(logDir.resolve("0.log"), java.nio.file.LinkOption.NOFOLLOW_LINKS)).isFalse();
        assertThat(Files.exists(logDir.resolve("1.log"), java.nio.file.LinkOption.NOFOLLOW_LINKS)).isFalse();
        assertThat(logDir.resolve("2.log")).exists();
        try (var links = Files.list(root.resolve("containers"))) {
            assertThat(links.map(p -> p.getFileName().toString()))
                    .containsExactly("gc_contract_a-" + instances.get(2) + ".log");
        }
    }
}
