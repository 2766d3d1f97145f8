package io.jkubelet.podresources;

import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.jkubelet.core.podresources.PodResourcesV1;
import io.jkubelet.core.podresources.PodResourcesLister;
import io.jkubelet.core.util.TokenBucket;
import io.jkubelet.deviceplugin.GrpcErrors;
import io.jkubelet.deviceplugin.UnixSockets;
import io.jkubelet.podresources.v1.PodResourcesApi;
import io.jkubelet.podresources.v1.PodResourcesListerGrpc;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * The pod-resources API v1 on its unix socket (upstream {@code ListenAndServePodResources} with the
 * {@code v1PodResourcesServer}): {@code List}, {@code GetAllocatableResources} and {@code Get}, behind upstream's rate
 * limit of 100 calls a second with bursts of 10 ("rejected by rate limit", {@code ResourceExhausted}).
 */
public final class PodResourcesServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PodResourcesServer.class);
    /** Upstream {@code podresources.Socket}, in {@code <root-dir>/pod-resources}. */
    public static final String SOCKET = "kubelet.sock";
    /** Upstream {@code apisgrpc.DefaultQPS} and {@code DefaultBurstTokens}. */
    static final double QPS = 100;
    static final int BURST = 10;

    private final Server server;
    private final Path socket;

    private PodResourcesServer(Server server, Path socket) {
        this.server = server;
        this.socket = socket;
    }

    /**
     * Serves on {@code <dir>/kubelet.sock}, made afresh (the directory too, if need be).
     *
     * @throws IOException when the socket cannot be made (upstream's kubelet exits then)
     */
    public static PodResourcesServer start(Path dir, PodResourcesLister lister, Clock clock) throws IOException {
        Files.createDirectories(dir);
        Path socket = dir.resolve(SOCKET);
        TokenBucket limit = new TokenBucket(QPS, BURST, clock);
        Server s = UnixSockets.serve(socket, () -> ServerInterceptors.intercept(new Service(lister), rateLimited(limit)));
        log.info("Starting to serve the podresources API on unix://{}", socket);
        return new PodResourcesServer(s, socket);
    }

    public Path socket() {
        return socket;
    }

    @Override
    public void close() {
        server.shutdownNow();
        try {
            Files.deleteIfExists(socket);
        } catch (IOException e) {
            log.debug("Cannot remove {}: {}", socket, e.getMessage());
        }
    }

    /** Upstream {@code apisgrpc.WithRateLimiter}: a call past the limit is refused before it is handled. */
    private static ServerInterceptor rateLimited(TokenBucket limit) {
        return new ServerInterceptor() {
            @Override
            public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
                                                               ServerCallHandler<Q, A> next) {
                if (!limit.tryAccept()) {
                    call.close(Status.RESOURCE_EXHAUSTED.withDescription("rejected by rate limit"), new Metadata());
                    return new ServerCall.Listener<>() {};
                }
                return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(next.startCall(call, headers)) {};
            }
        };
    }

    private static final class Service extends PodResourcesListerGrpc.PodResourcesListerImplBase {
        private final PodResourcesLister lister;

        Service(PodResourcesLister lister) {
            this.lister = lister;
        }

        @Override
        public void list(PodResourcesApi.ListPodResourcesRequest request,
                         StreamObserver<PodResourcesApi.ListPodResourcesResponse> answer) {
            var out = PodResourcesApi.ListPodResourcesResponse.newBuilder();
            lister.list().forEach(p -> out.addPodResources(pod(p)));
            answer.onNext(out.build());
            answer.onCompleted();
        }

        @Override
        public void getAllocatableResources(PodResourcesApi.AllocatableResourcesRequest request,
                                            StreamObserver<PodResourcesApi.AllocatableResourcesResponse> answer) {
            PodResourcesV1.Allocatable a = lister.allocatable();
            answer.onNext(PodResourcesApi.AllocatableResourcesResponse.newBuilder()
                    .addAllDevices(devices(a.devices())).addAllCpuIds(a.cpuIds()).addAllMemory(memory(a.memory())).build());
            answer.onCompleted();
        }

        @Override
        public void get(PodResourcesApi.GetPodResourcesRequest request,
                        StreamObserver<PodResourcesApi.GetPodResourcesResponse> answer) {
            PodResourcesV1 p;
            try {
                p = lister.get(request.getPodNamespace(), request.getPodName());
            } catch (IllegalStateException | IllegalArgumentException e) {
                // A plain Go error: grpc-go answers it as Unknown.
                answer.onError(GrpcErrors.unknown(e.getMessage()));
                return;
            }
            answer.onNext(PodResourcesApi.GetPodResourcesResponse.newBuilder().setPodResources(pod(p)).build());
            answer.onCompleted();
        }
    }

    static PodResourcesApi.PodResources pod(PodResourcesV1 p) {
        var b = PodResourcesApi.PodResources.newBuilder().setName(p.name()).setNamespace(p.namespace());
        for (var c : p.containers()) {
            b.addContainers(PodResourcesApi.ContainerResources.newBuilder().setName(c.name())
                    .addAllDevices(devices(c.devices())).addAllCpuIds(c.cpuIds()).addAllMemory(memory(c.memory())));
        }
        return b.build();
    }

    static List<PodResourcesApi.ContainerDevices> devices(List<PodResourcesV1.ContainerDevices> devices) {
        return devices.stream().map(d -> {
            var b = PodResourcesApi.ContainerDevices.newBuilder().setResourceName(d.resourceName())
                    .addAllDeviceIds(d.deviceIds());
            if (d.numaNodes() != null) {
                b.setTopology(topology(d.numaNodes()));
            }
            return b.build();
        }).toList();
    }

    /** Upstream {@code containerMemoryFromBlock}: a memory block always carries its topology. */
    static List<PodResourcesApi.ContainerMemory> memory(List<PodResourcesV1.ContainerMemory> memory) {
        return memory.stream().map(m -> PodResourcesApi.ContainerMemory.newBuilder().setMemoryType(m.memoryType())
                .setSize(m.size()).setTopology(topology(m.numaNodes())).build()).toList();
    }

    private static PodResourcesApi.TopologyInfo topology(List<Long> numaNodes) {
        var t = PodResourcesApi.TopologyInfo.newBuilder();
        numaNodes.forEach(n -> t.addNodes(PodResourcesApi.NUMANode.newBuilder().setID(n)));
        return t.build();
    }
}
