package io.jkubelet.core.probe;

import io.grpc.BindableService;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.stub.StreamObserver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Against real in-process gRPC servers on 127.0.0.1 with grpc-java's own health service. */
class GrpcProberTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final GrpcProber prober = new GrpcProber("v1.30.0");
    private final List<String> userAgents = new CopyOnWriteArrayList<>();
    private Server server;

    @AfterEach
    void stop() throws InterruptedException {
        if (server != null) {
            server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    private int serve(BindableService... services) throws IOException {
        NettyServerBuilder builder = NettyServerBuilder.forAddress(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        ServerInterceptor recordUserAgent = new ServerInterceptor() {
            @Override
            public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                               ServerCallHandler<Q, R> next) {
                userAgents.add(headers.get(Metadata.Key.of("user-agent", Metadata.ASCII_STRING_MARSHALLER)));
                return next.startCall(call, headers);
            }
        };
        for (BindableService s : services) {
            builder.addService(ServerInterceptors.intercept(s, recordUserAgent));
        }
        server = builder.build().start();
        return server.getPort();
    }

    @Test
    void servingIsSuccessAndTheUserAgentNamesTheProbe() throws IOException {
        HealthStatusManager health = new HealthStatusManager(); // "" is SERVING from the start
        int port = serve(health.getHealthService());

        assertThat(prober.probe("127.0.0.1", "", port, TIMEOUT)).isEqualTo(ProbeOutcome.success("service healthy"));
        assertThat(userAgents).singleElement().asString().startsWith("kube-probe/1.30 grpc-java-netty/");
    }

    @Test
    void theServiceIsSentAndAnyOtherStatusFails() throws IOException {
        HealthStatusManager health = new HealthStatusManager();
        health.setStatus("shop.Cart", HealthCheckResponse.ServingStatus.SERVING);
        health.setStatus("shop.Payments", HealthCheckResponse.ServingStatus.NOT_SERVING);
        int port = serve(health.getHealthService());

        assertThat(prober.probe("127.0.0.1", "shop.Cart", port, TIMEOUT).result()).isEqualTo(ProbeResult.SUCCESS);
        assertThat(prober.probe("127.0.0.1", "shop.Payments", port, TIMEOUT))
                .isEqualTo(ProbeOutcome.failure("service unhealthy (responded with \"NOT_SERVING\")"));
        assertThat(prober.probe("127.0.0.1", "shop.Unknown", port, TIMEOUT))
                .isEqualTo(ProbeOutcome.failure("error: health rpc probe failed: rpc error: code = NotFound desc = unknown service shop.Unknown"));
    }

    @Test
    void aServerWithoutTheHealthServiceSaysSo() throws IOException {
        int port = serve(otherService());

        assertThat(prober.probe("127.0.0.1", "", port, TIMEOUT).output()).startsWith(
                "error: this server does not implement the grpc health protocol (grpc.health.v1.Health): ");
    }

    @Test
    void anRpcThatDoesNotFinishTimesOut() throws IOException {
        int port = serve(new HealthGrpc.HealthImplBase() {
            @Override
            public void check(HealthCheckRequest request, StreamObserver<HealthCheckResponse> response) {
                // never answers
            }
        });

        // The budget covers the connection too: 500 ms was seen spent on connecting alone on a loaded machine.
        assertThat(prober.probe("127.0.0.1", "", port, Duration.ofSeconds(3)))
                .isEqualTo(ProbeOutcome.failure("timeout: health rpc did not complete within 3s"));
    }

    @Test
    void noServerIsAConnectTimeout() throws IOException {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }

        assertThat(prober.probe("127.0.0.1", "", closed, Duration.ofMillis(300))).isEqualTo(ProbeOutcome.failure(
                "timeout: failed to connect service \"127.0.0.1:" + closed + "\" within 300ms: context deadline exceeded"));
    }

    /** A server must serve something; this is not grpc.health.v1.Health. */
    private static BindableService otherService() {
        return () -> io.grpc.ServerServiceDefinition.builder("example.Other").build();
    }
}
