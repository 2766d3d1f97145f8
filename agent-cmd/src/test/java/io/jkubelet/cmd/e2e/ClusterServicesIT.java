package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.Endpoints;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * This node's pods as a cluster serves them: a Service's ClusterIP leads to its pod through the cluster's kube-proxy,
 * and a pod finds the Service by its name through the cluster DNS the node's {@code --cluster-dns} names (the resolv.conf
 * the node writes into the pod).
 */
class ClusterServicesIT extends RealClusterBase {
    static String clusterIp;

    /**
     * A web server pod {@code backend} behind the Service {@code backend} (port 80 to its 8080), and a client pod
     * {@code frontend}, both on this node.
     */
    @BeforeAll
    static void aServiceAndAClient() {
        kubectl.runWithInput("""
                apiVersion: v1
                kind: Pod
                metadata: {name: backend, namespace: default, labels: {app: backend}}
                spec:
                %s
                ---
                apiVersion: v1
                kind: Service
                metadata: {name: backend, namespace: default}
                spec:
                  selector: {app: backend}
                  ports: [{name: http, port: 80, targetPort: 8080, protocol: TCP}]
                """.formatted(shellPodSpec(agent.nodeName,
                "mkdir -p /www && echo served-by-backend >/www/index.html && exec httpd -f -p 8080 -h /www")),
                "create", "-f", "-").ok();
        createShellPod("frontend", "trap 'exit 0' TERM; while true; do sleep 1; done");
        awaitRunning("backend");
        awaitRunning("frontend");
        clusterIp = client.services().inNamespace("default").withName("backend").get().getSpec().getClusterIP();
        await("the Service's endpoint").atMost(Duration.ofSeconds(60)).until(() -> {
            Endpoints e = client.endpoints().inNamespace("default").withName("backend").get();
            return e != null && !e.getSubsets().isEmpty() && !e.getSubsets().getFirst().getAddresses().isEmpty();
        });
    }

    /** What {@code wget} in the client pod {@code frontend} gets from {@code url} (empty when nothing answers in 5 seconds). */
    static String fetch(String url) {
        return kubectl.run("exec", "frontend", "--", "sh", "-c", "timeout 5 wget -qO- " + url).out();
    }

    @Test
    void aPodReachesAnotherThroughItsServicesClusterIp() {
        // kube-proxy's rules for the Service appear after the endpoint does: wait for them.
        await("GET http://" + clusterIp + "/ from the client pod").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofSeconds(1)).until(() -> fetch("http://" + clusterIp + "/").equals("served-by-backend\n"));
    }

    @Test
    void aPodFindsAServiceByItsNameThroughTheClusterDns() {
        assertThat(exec("frontend", "cat /etc/resolv.conf")).contains("nameserver 10.0.0.10")
                .contains("search default.svc.cluster.local svc.cluster.local cluster.local");
        assertThat(exec("frontend", "nslookup backend.default.svc.cluster.local")).contains("Address: " + clusterIp);
        // The short name, by the search path the node wrote.
        await("GET http://backend/ from the client pod").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
                .until(() -> fetch("http://backend/").equals("served-by-backend\n"));
    }
}
