package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jkubelet.cmd.e2e.cluster.ControlPlane;
import io.jkubelet.core.runtime.testing.RuntimePods;
import io.jkubelet.cri.CriRuntime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.awaitility.Awaitility.await;

/**
 * jkubelet as a node of the real control plane, on Docker or on the system containerd; its {@code --root-dir} is
 * {@link #root()}. Closing it stops the agent and removes what it ran (containers, cgroups, mounts); the caller
 * deletes the Node.
 */
final class ClusterJkubelet implements AutoCloseable {
    private final Agent agent;
    private final boolean containerd;

    private ClusterJkubelet(ControlPlane cluster, Path dir, String node, boolean containerd) throws IOException {
        List<String> args = new ArrayList<>(List.of("--node-ip", "127.0.0.1", "--node-status-update-frequency", "2s"));
        if (containerd) {
            args.addAll(List.of("--container-runtime-endpoint", ContainerdTestBase.ENDPOINT));
        }
        this.agent = Agent.clusterNode(Files.createDirectories(dir), node, cluster.nodeKubeconfig(node),
                args.toArray(String[]::new));
        this.containerd = containerd;
    }

    static ClusterJkubelet onDocker(ControlPlane cluster, Path dir, String node) throws IOException {
        return new ClusterJkubelet(cluster, dir, node, false);
    }

    static ClusterJkubelet onContainerd(ControlPlane cluster, Path dir, String node) throws IOException {
        return new ClusterJkubelet(cluster, dir, node, true);
    }

    String node() {
        return agent.nodeName;
    }

    Path dir() {
        return agent.dir;
    }

    Path root() {
        return agent.dir.resolve("root");
    }

    /** The agent's log so far, for a failed assertion's description. */
    String logText() {
        return agent.logText();
    }

    void start() throws IOException {
        agent.start();
    }

    void stop() throws InterruptedException {
        agent.stop();
    }

    /** Waits until the apiserver shows this node {@code Ready}. */
    void awaitReady(KubernetesClient client) {
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            Node n = client.nodes().withName(node()).get();
            return n != null && n.getStatus() != null && n.getStatus().getConditions() != null
                    && n.getStatus().getConditions().stream()
                    .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
        });
    }

    String exec(String containerId, String... command) {
        return containerd ? ContainerdTestBase.exec(containerId, command) : Docker.exec(containerId, command).out();
    }

    @Override
    public void close() throws Exception {
        agent.stop();
        if (containerd) {
            try (CriRuntime runtime = ContainerdTestBase.cri()) {
                RuntimePods.removeAll(runtime, agent.nodeName);
            }
        } else {
            Docker.removeAll(agent.nodeName);
        }
        agent.removeCgroups();
        RealClusterBase.unmountUnder(agent.dir);
    }
}
