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
 * The cluster's node: jkubelet on Docker or on the system containerd, or the upstream kubelet v1.20.2 on Docker
 * (through its dockershim, with Docker's default runtime the test engines' runc wrapper while it runs:
 * {@link DockerDefaultRuntime}); its {@code --root-dir} is {@code root()}.
 */
final class ClusterKubelet implements AutoCloseable {
    private final Agent agent;
    private final boolean containerd;
    private final boolean upstream;
    private boolean wrapped;

    private ClusterKubelet(ControlPlane cluster, Path dir, String node, boolean containerd, boolean upstream) throws IOException {
        List<String> args = new ArrayList<>(List.of("--node-ip", "127.0.0.1", "--node-status-update-frequency", "2s"));
        if (containerd) {
            args.addAll(List.of("--container-runtime-endpoint", ContainerdTestBase.ENDPOINT));
        }
        Path kubeconfig = cluster.nodeKubeconfig(node);
        this.agent = upstream
                ? Agent.upstreamClusterNode(Files.createDirectories(dir), node, kubeconfig, false, args.toArray(String[]::new))
                : Agent.clusterNode(Files.createDirectories(dir), node, kubeconfig, args.toArray(String[]::new));
        this.containerd = containerd;
        this.upstream = upstream;
    }

    static ClusterKubelet onDocker(ControlPlane cluster, Path dir, String node) throws IOException {
        return new ClusterKubelet(cluster, dir, node, false, false);
    }

    static ClusterKubelet onContainerd(ControlPlane cluster, Path dir, String node) throws IOException {
        return new ClusterKubelet(cluster, dir, node, true, false);
    }

    static ClusterKubelet upstreamOnDocker(ControlPlane cluster, Path dir, String node) throws IOException {
        return new ClusterKubelet(cluster, dir, node, false, true);
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

    void start() throws IOException, InterruptedException {
        if (upstream && !wrapped) {
            DockerDefaultRuntime.wrapper();
            wrapped = true;
        }
        agent.start();
    }

    /** The agent's log so far, for a failed assertion's description. */
    String logText() {
        return agent.logText();
    }

    /** Waits for the node's {@code Ready} condition to be True. */
    void awaitReady(KubernetesClient client) {
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            Node n = client.nodes().withName(node()).get();
            return n != null && n.getStatus() != null && n.getStatus().getConditions() != null
                    && n.getStatus().getConditions().stream()
                    .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
        });
    }

    void stop() throws InterruptedException {
        agent.stop();
    }

    String exec(String containerId, String... command) {
        return containerd ? ContainerdTestBase.exec(containerId, command) : Docker.exec(containerId, command).out();
    }

    @Override
    public void close() throws Exception {
        try {
            agent.stop();
            if (containerd) {
                try (CriRuntime runtime = ContainerdTestBase.cri()) {
                    RuntimePods.removeAll(runtime, agent.nodeName);
                }
            } else if (upstream) {
                Docker.removeUpstreamPods();
            } else {
                Docker.removeAll(agent.nodeName);
            }
            agent.removeCgroups();
            RealClusterBase.unmountUnder(agent.dir);
        } finally {
            if (wrapped) {
                DockerDefaultRuntime.runc();
            }
        }
    }
}
