package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.jkubelet.cmd.e2e.apiserver.Kubectl;
import io.jkubelet.cmd.e2e.cluster.ControlPlane;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A test class that starts its nodes itself ({@link ClusterKubelet}s, one after the other) on the shared
 * control plane ({@link ControlPlane#shared()}): the operator's kubectl and client (cluster-admin), and a directory for
 * the nodes, removed after the class.
 */
@Tag("control-plane")
abstract class ClusterNodesTestBase {
    static ControlPlane cluster;
    static Kubectl kubectl;
    static KubernetesClient client;
    static Path dir;

    @BeforeAll
    static void openTheSharedControlPlane() throws IOException {
        cluster = ControlPlane.shared();
        kubectl = cluster.kubectl();
        client = cluster.adminClient();
        // Short: device plugin and pod-resources sockets go below it, and a socket's path has at most 107 bytes.
        dir = Files.createTempDirectory("jk-cluster-nodes");
    }

    @AfterAll
    static void closeTheAdminClient() throws IOException {
        if (client != null) {
            client.close();
        }
        ControlPlane.deleteTree(dir);
    }
}
