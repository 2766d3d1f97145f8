package io.jkubelet.deviceplugin;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import io.jkubelet.core.cm.devicemanager.ContainerAllocateResponse;
import io.jkubelet.core.cm.devicemanager.DevicePlugin;
import io.jkubelet.core.cm.devicemanager.DevicePluginException;
import io.jkubelet.core.cm.devicemanager.DevicePluginOptions;
import io.jkubelet.core.cm.devicemanager.PluginHandler;
import io.jkubelet.deviceplugin.v1beta1.DevicePluginApi;
import io.jkubelet.deviceplugin.v1beta1.DevicePluginGrpc;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The kubelet's client of one device plugin (upstream {@code plugin/v1beta1/client.go}): dials the plugin's socket,
 * hands itself to the manager, runs {@code ListAndWatch} and reports each answer, and disconnects when the stream
 * ends. Its calls carry {@code callTimeout} (see {@link RegistrationServer#CALL_TIMEOUT}).
 */
final class PluginClient implements DevicePlugin {
    private static final Logger log = LoggerFactory.getLogger(PluginClient.class);
    /** Upstream's dial deadline: the plugin's socket must answer within it. */
    static final Duration DIAL_TIMEOUT = Duration.ofSeconds(10);
    /** Upstream {@code KubeletPreStartContainerRPCTimeoutInSecs}. */
    static final Duration PRE_START_TIMEOUT = Duration.ofSeconds(30);

    private final String resource;
    private final Path socket;
    private final PluginHandler handler;
    private final Duration callTimeout;
    private final AtomicBoolean disconnected = new AtomicBoolean();
    private volatile ManagedChannel channel;

    PluginClient(String resource, Path socket, PluginHandler handler, Duration callTimeout) {
        this.resource = resource;
        this.socket = socket;
        this.handler = handler;
        this.callTimeout = callTimeout;
    }

    /**
     * Upstream {@code Connect}: dials, then the manager takes the plugin (asking its options).
     *
     * @throws DevicePluginException when the socket does not answer within {@link #DIAL_TIMEOUT}, or the manager
     *     refuses the plugin
     */
    void connect() throws DevicePluginException, InterruptedException {
        ManagedChannel c = UnixSockets.channel(socket);
        if (!UnixSockets.awaitReady(c, DIAL_TIMEOUT)) {
            UnixSockets.close(c);
            throw new DevicePluginException("failed to dial device plugin: context deadline exceeded");
        }
        channel = c;
        handler.pluginConnected(resource, this);
    }

    /**
     * Upstream {@code Run}: reads {@code ListAndWatch} until it ends, then calls {@code ended} once (on a gRPC thread).
     */
    void run(Runnable ended) {
        // Started while a Register call is answered: the stream must outlive that call's context.
        io.grpc.Context.ROOT.run(() -> listAndWatch(ended));
    }

    private void listAndWatch(Runnable ended) {
        DevicePluginGrpc.newStub(channel).listAndWatch(DevicePluginApi.Empty.getDefaultInstance(),
                new StreamObserver<>() {
                    @Override
                    public void onNext(DevicePluginApi.ListAndWatchResponse response) {
                        log.debug("State pushed for device plugin {}: {} devices", resource, response.getDevicesCount());
                        handler.pluginListAndWatchReceiver(resource, ProtoDevices.devices(response));
                    }

                    @Override
                    public void onError(Throwable t) {
                        String why = t instanceof StatusRuntimeException e ? GrpcErrors.message(e) : t.toString();
                        log.error("ListAndWatch ended unexpectedly for device plugin {}: {}", resource, why);
                        ended.run();
                    }

                    @Override
                    public void onCompleted() {
                        log.error("ListAndWatch ended unexpectedly for device plugin {}: EOF", resource);
                        ended.run();
                    }
                });
    }

    /** Upstream {@code Disconnect}: closes the connection and tells the manager, once. */
    void disconnect() {
        if (!disconnected.compareAndSet(false, true)) {
            return;
        }
        ManagedChannel c = channel;
        if (c != null) {
            UnixSockets.close(c);
        }
        handler.pluginDisconnected(resource, this);
        log.info("Device plugin disconnected: resource={}", resource);
    }

    @Override
    public String resource() {
        return resource;
    }

    @Override
    public String socketPath() {
        return socket.toString();
    }

    private DevicePluginGrpc.DevicePluginBlockingStub stub(Duration timeout) {
        return DevicePluginGrpc.newBlockingStub(channel).withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public DevicePluginOptions getDevicePluginOptions() throws DevicePluginException {
        try {
            var o = stub(callTimeout).getDevicePluginOptions(DevicePluginApi.Empty.getDefaultInstance());
            return new DevicePluginOptions(o.getPreStartRequired(), o.getGetPreferredAllocationAvailable());
        } catch (StatusRuntimeException e) {
            throw new DevicePluginException(GrpcErrors.message(e), e);
        }
    }

    @Override
    public List<List<String>> getPreferredAllocation(List<String> available, List<String> mustInclude, int size)
            throws DevicePluginException {
        try {
            var answer = stub(callTimeout).getPreferredAllocation(DevicePluginApi.PreferredAllocationRequest.newBuilder()
                    .addContainerRequests(DevicePluginApi.ContainerPreferredAllocationRequest.newBuilder()
                            .addAllAvailableDeviceIDs(available).addAllMustIncludeDeviceIDs(mustInclude)
                            .setAllocationSize(size))
                    .build());
            return answer.getContainerResponsesList().stream()
                    .map(r -> List.copyOf(r.getDeviceIDsList())).toList();
        } catch (StatusRuntimeException e) {
            throw new DevicePluginException(GrpcErrors.message(e), e);
        }
    }

    @Override
    public List<ContainerAllocateResponse> allocate(List<String> devices) throws DevicePluginException {
        try {
            var answer = stub(callTimeout).allocate(DevicePluginApi.AllocateRequest.newBuilder()
                    .addContainerRequests(DevicePluginApi.ContainerAllocateRequest.newBuilder().addAllDevicesIDs(devices))
                    .build());
            return answer.getContainerResponsesList().stream().map(ProtoDevices::allocateResponse).toList();
        } catch (StatusRuntimeException e) {
            throw new DevicePluginException(GrpcErrors.message(e), e);
        }
    }

    @Override
    public void preStartContainer(List<String> devices) throws DevicePluginException {
        try {
            stub(PRE_START_TIMEOUT).preStartContainer(DevicePluginApi.PreStartContainerRequest.newBuilder()
                    .addAllDevicesIDs(devices).build());
        } catch (StatusRuntimeException e) {
            throw new DevicePluginException(GrpcErrors.message(e), e);
        }
    }

    @Override
    public String toString() {
        return resource + " at " + socket;
    }
}
