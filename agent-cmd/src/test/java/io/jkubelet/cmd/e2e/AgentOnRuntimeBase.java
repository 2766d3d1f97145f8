package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;

import static org.awaitility.Awaitility.await;

/**
 * One agent per test on a real runtime, with what it made there removed afterwards; the runtime is the subclass's
 * ({@link AgentTestBase}: Docker, {@link ContainerdTestBase}: containerd), which also tags the tests with it.
 */
abstract class AgentOnRuntimeBase {
    static final String IMAGE = "jkubelet/busybox:1.0";

    @TempDir Path dir;
    Agent agent;

    /** The flags that put the agent on this runtime (none: Docker is the agent's default). */
    abstract List<String> runtimeArgs();

    /** Removes the containers and sandboxes the stopped agent of node {@code nodeName} left on the runtime. */
    abstract void removeFromRuntime(String nodeName) throws Exception;

    /** The node's name prefix, so that what a test left behind tells its runtime. */
    String nodePrefix() {
        return "e2e-";
    }

    Agent startAgent(String... extraArgs) throws Exception {
        List<String> args = new ArrayList<>(runtimeArgs());
        args.addAll(List.of(extraArgs));
        agent = new Agent(dir, nodePrefix() + UUID.randomUUID().toString().substring(0, 8), args);
        return agent.start();
    }

    /**
     * A KubeletConfiguration file with these fields (YAML lines), serving its ports without webhook authentication
     * (which a configuration file would otherwise turn on, and which needs an apiserver).
     */
    Path configFile(String fields) throws java.io.IOException {
        return java.nio.file.Files.writeString(dir.resolve("kubelet.yaml"), """
                apiVersion: kubelet.config.k8s.io/v1beta1
                kind: KubeletConfiguration
                authentication: {anonymous: {enabled: true}, webhook: {enabled: false}}
                authorization: {mode: AlwaysAllow}
                """ + fields);
    }

    /**
     * Stops the agent and removes what it made: its pods on the runtime, its cgroups, and every mount under the test's
     * folder (its root directory, which its start bind-mounted on itself to make it rshared, its pods' volumes; also
     * those of an agent of the test that is no longer {@link #agent}), without which the folder cannot be deleted.
     */
    @AfterEach
    void tearDown() throws Exception {
        if (agent != null) {
            agent.stop();
            removeFromRuntime(agent.nodeName);
            agent.removeCgroups();
            if (System.getenv("JK_E2E_SHOW_LOGS") != null) {
                System.out.println(agent.logText());
            }
        }
        RealClusterBase.unmountUnder(dir);
    }

    Pod awaitPod(String name, Duration timeout, Predicate<Pod> condition) {
        return await().atMost(timeout).pollInterval(Duration.ofMillis(250)).until(() -> agent.pod(name),
                p -> p.isPresent() && p.get().getStatus() != null && condition.test(p.get())).orElseThrow();
    }

    static boolean running(Pod p) {
        return "Running".equals(p.getStatus().getPhase()) && p.getStatus().getContainerStatuses().stream()
                .allMatch(c -> c.getState() != null && c.getState().getRunning() != null);
    }

    static Optional<ContainerStatus> container(Pod p, String name) {
        return p.getStatus().getContainerStatuses().stream().filter(c -> c.getName().equals(name)).findFirst();
    }

    static Optional<ContainerStatus> initContainer(Pod p, String name) {
        return p.getStatus().getInitContainerStatuses().stream().filter(c -> c.getName().equals(name)).findFirst();
    }

    /** The runtime's id of the container: its {@code containerID} without the {@code <runtime>://} prefix. */
    static String id(ContainerStatus c) {
        return c.getContainerID().substring(c.getContainerID().indexOf("://") + 3);
    }
}
