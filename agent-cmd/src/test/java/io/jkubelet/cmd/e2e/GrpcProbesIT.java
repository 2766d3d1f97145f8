package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.Pod;
import io.grpc.Server;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * grpc probes run by the agent against grpc-java's own health service. A grpc probe always goes to the pod
 * IP, so the pod uses the host network and the node's IP is loopback ({@code --node-ip 127.0.0.1}): the
 * server in this test is then the pod's server, and no traffic leaves the machine.
 */
class GrpcProbesIT extends AgentTestBase {
    private final HealthStatusManager health = new HealthStatusManager();
    private Server server;

    @BeforeEach
    void startServer() throws Exception {
        server = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .addService(health.getHealthService()).build().start();
        health.setStatus("shop.Ready", ServingStatus.SERVING);
        health.setStatus("shop.Live", ServingStatus.SERVING);
    }

    @AfterEach
    void stopServer() throws InterruptedException {
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }

    @Test
    void grpcReadinessFlipsReadyAndGrpcLivenessRestarts() throws Exception {
        startAgent("--node-ip", "127.0.0.1");
        agent.writeManifest("grpc.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: grpc}
                spec:
                  hostNetwork: true
                  terminationGracePeriodSeconds: 2
                  containers:
                  - name: app
                    image: %s
                    command: ["sh", "-c", "sleep 3600"]
                    readinessProbe:
                      grpc: {port: %d, service: shop.Ready}
                      periodSeconds: 1
                    livenessProbe:
                      grpc: {port: %2$d, service: shop.Live}
                      periodSeconds: 1
                      failureThreshold: 2
                """.formatted(IMAGE, server.getPort()));
        Pod pod = awaitPod("grpc", Duration.ofSeconds(60), p -> ProbesIT.isReady(p, true));
        assertThat(pod.getStatus().getPodIP()).isEqualTo("127.0.0.1");

        health.setStatus("shop.Ready", ServingStatus.NOT_SERVING);
        pod = awaitPod("grpc", Duration.ofSeconds(30), p -> ProbesIT.isReady(p, false));
        assertThat(container(pod, "app").orElseThrow().getRestartCount()).isZero();
        assertThat(agent.logText())
                .contains("Readiness probe failed: service unhealthy (responded with \"NOT_SERVING\")");
        health.setStatus("shop.Ready", ServingStatus.SERVING);
        awaitPod("grpc", Duration.ofSeconds(30), p -> ProbesIT.isReady(p, true));

        health.setStatus("shop.Live", ServingStatus.NOT_SERVING);
        awaitPod("grpc", Duration.ofSeconds(60),
                p -> container(p, "app").map(c -> c.getRestartCount() >= 1).orElse(false));
        assertThat(agent.logText())
                .contains("Liveness probe failed: service unhealthy (responded with \"NOT_SERVING\")")
                .contains("Container app failed liveness probe, will be restarted");
    }
}
