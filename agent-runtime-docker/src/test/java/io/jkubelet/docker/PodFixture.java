package io.jkubelet.docker;

import io.jkubelet.core.runtime.ContainerConfig;
import io.jkubelet.core.runtime.ContainerMetadata;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.ContainerStatus;
import io.jkubelet.core.runtime.KeyValue;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.LinuxContainerResources;
import io.jkubelet.core.runtime.LinuxContainerSecurityContext;
import io.jkubelet.core.runtime.NamespaceOptions;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PodSandboxMetadata;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.runtime.testing.RuntimePods;
import org.awaitility.Awaitility;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * Builds sandbox and container configs scoped to one test by {@code io.jkubelet.node.name=contract-test-<random>},
 * and removes everything so labelled afterwards, leaving other users' containers alone.
 */
final class PodFixture {
    static final List<String> LONG_RUNNING = List.of("sh", "-c", "trap 'exit 0' TERM; sleep 3600 & wait");

    final String nodeName = "contract-test-" + UUID.randomUUID().toString().substring(0, 8);
    final String logRoot;
    private final RuntimeService runtime;
    private final List<Path> logDirectories = new CopyOnWriteArrayList<>();

    PodFixture(RuntimeService runtime, String logRoot) {
        this.runtime = runtime;
        this.logRoot = logRoot;
    }

    PodSandboxConfig sandbox(String podName, UnaryOperator<PodSandboxConfig> customize) {
        String uid = UUID.randomUUID().toString();
        String namespace = "contract";
        PodSandboxConfig base = new PodSandboxConfig(new PodSandboxMetadata(podName, uid, namespace, 0), podName,
                logRoot + "/" + namespace + "_" + podName + "_" + uid, null, List.of(),
                Map.of(Labels.POD_NAME, podName, Labels.POD_NAMESPACE, namespace, Labels.POD_UID, uid,
                        Labels.NODE_NAME, nodeName),
                Map.of("kubernetes.io/config.source", "file"), "", NamespaceOptions.POD_DEFAULT, 0,
                DockerTestSupport.PAUSE, false, Map.of());
        PodSandboxConfig config = customize.apply(base);
        logDirectories.add(Path.of(config.logDirectory()));
        return config;
    }

    ContainerConfig container(String name, List<String> command, PodSandboxConfig sandbox,
                              UnaryOperator<ContainerConfig> customize) {
        ContainerConfig base = new ContainerConfig(new ContainerMetadata(name, 0), DockerTestSupport.BUSYBOX, command,
                List.of(), "", List.of(new KeyValue("GREETING", "hello")), List.of(),
                Map.of(Labels.POD_NAME, sandbox.metadata().name(), Labels.POD_NAMESPACE, sandbox.metadata().namespace(),
                        Labels.POD_UID, sandbox.metadata().uid(), Labels.CONTAINER_NAME, name, Labels.NODE_NAME, nodeName),
                Map.of(Labels.CONTAINER_HASH, "1a2b3c"), name + "/0.log", false, false, false,
                new LinuxContainerResources(0, 0, 0, 0, 0), security(null, null, List.of(), false));
        return customize.apply(base);
    }

    static LinuxContainerSecurityContext security(Long user, Long group, List<Long> groups, boolean readonlyRootfs) {
        return new LinuxContainerSecurityContext(user, group, groups, false, readonlyRootfs, List.of(), List.of(),
                NamespaceOptions.POD_DEFAULT, false);
    }

    String run(String sandboxId, ContainerConfig config, PodSandboxConfig sandbox) {
        String id = runtime.createContainer(sandboxId, config, sandbox);
        runtime.startContainer(id);
        return id;
    }

    ContainerStatus awaitExited(String containerId) {
        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> runtime.containerStatus(containerId).state() == ContainerState.CONTAINER_EXITED);
        return runtime.containerStatus(containerId);
    }

    void removeAll() {
        RuntimePods.removeAll(runtime, nodeName);
        for (Path dir : logDirectories) {
            if (Files.exists(dir)) {
                try (Stream<Path> paths = Files.walk(dir)) {
                    paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
    }

    static ContainerConfig withResources(ContainerConfig c, LinuxContainerResources r) {
        return new ContainerConfig(c.metadata(), c.image(), c.command(), c.args(), c.workingDir(), c.envs(), c.mounts(),
                c.labels(), c.annotations(), c.logPath(), c.stdin(), c.stdinOnce(), c.tty(), r, c.securityContext());
    }

    static ContainerConfig withSecurity(ContainerConfig c, LinuxContainerSecurityContext sc) {
        return new ContainerConfig(c.metadata(), c.image(), c.command(), c.args(), c.workingDir(), c.envs(), c.mounts(),
                c.labels(), c.annotations(), c.logPath(), c.stdin(), c.stdinOnce(), c.tty(), c.resources(), sc);
    }

    static ContainerConfig withArgsAndDir(ContainerConfig c, List<String> args, String workingDir) {
        return new ContainerConfig(c.metadata(), c.image(), c.command(), args, workingDir, c.envs(), c.mounts(),
                c.labels(), c.annotations(), c.logPath(), c.stdin(), c.stdinOnce(), c.tty(), c.resources(),
                c.securityContext());
    }
}
