package io.jkubelet.deviceplugin;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.stub.StreamObserver;
import io.jkubelet.deviceplugin.v1beta1.DevicePluginApi;
import io.jkubelet.deviceplugin.v1beta1.DevicePluginGrpc;
import io.jkubelet.deviceplugin.v1beta1.RegistrationGrpc;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/**
 * A device plugin served over gRPC on a unix socket, as upstream's stub ({@code device_plugin_stub.go}) serves one:
 * its device list on {@code ListAndWatch} (and again on each {@link #update}), a mount and an environment variable per
 * device on {@code Allocate}, or the error it is given, or no answer at all.
 */
final class TestDevicePlugin implements AutoCloseable {
    final Path socket;
    final String resource;
    private volatile List<DevicePluginApi.Device> devices;
    private final List<StreamObserver<DevicePluginApi.ListAndWatchResponse>> watchers = new CopyOnWriteArrayList<>();
    final List<List<String>> allocated = new CopyOnWriteArrayList<>();
    volatile String allocateError;
    /** While set, Allocate does not answer until it is counted down (or the kubelet gives up). */
    volatile CountDownLatch hangAllocate;
    private final Server server;

    /** What the kubelet told the plugin through the watcher's {@code NotifyRegistrationStatus}. */
    final List<String> registrationStatus = new CopyOnWriteArrayList<>();

    TestDevicePlugin(Path socket, String resource, String... healthyDevices) throws IOException {
        this.socket = socket;
        this.resource = resource;
        this.devices = java.util.Arrays.stream(healthyDevices).map(id -> device(id, "Healthy")).toList();
        // Both services on the one socket, as upstream's stub serves them: the watcher finds it by its Registration.
        this.server = UnixSockets.serve(socket, new Service(), new WatcherRegistration());
    }

    /** The plugin registration API's side of the plugin (upstream stub's {@code GetInfo}, {@code NotifyRegistrationStatus}). */
    private final class WatcherRegistration extends io.jkubelet.pluginregistration.v1.RegistrationGrpc.RegistrationImplBase {
        @Override
        public void getInfo(io.jkubelet.pluginregistration.v1.PluginRegistrationApi.InfoRequest request,
                            StreamObserver<io.jkubelet.pluginregistration.v1.PluginRegistrationApi.PluginInfo> answer) {
            answer.onNext(io.jkubelet.pluginregistration.v1.PluginRegistrationApi.PluginInfo.newBuilder()
                    .setType("DevicePlugin").setName(resource).addSupportedVersions("v1beta1").build());
            answer.onCompleted();
        }

        @Override
        public void notifyRegistrationStatus(io.jkubelet.pluginregistration.v1.PluginRegistrationApi.RegistrationStatus status,
                StreamObserver<io.jkubelet.pluginregistration.v1.PluginRegistrationApi.RegistrationStatusResponse> answer) {
            registrationStatus.add(status.getPluginRegistered() + ":" + status.getError());
            answer.onNext(io.jkubelet.pluginregistration.v1.PluginRegistrationApi.RegistrationStatusResponse.getDefaultInstance());
            answer.onCompleted();
        }
    }

    static DevicePluginApi.Device device(String id, String health) {
        return DevicePluginApi.Device.newBuilder().setID(id).setHealth(health).build();
    }

    /** Registers on the kubelet's socket (upstream stub's {@code Register}); the kubelet's error as a gRPC error. */
    void register(Path kubeletSocket, String version) {
        ManagedChannel ch = UnixSockets.channel(kubeletSocket);
        try {
            RegistrationGrpc.newBlockingStub(ch).register(DevicePluginApi.RegisterRequest.newBuilder()
                    .setVersion(version).setEndpoint(socket.getFileName().toString()).setResourceName(resource).build());
        } finally {
            UnixSockets.close(ch);
        }
    }

    void register(Path kubeletSocket) {
        register(kubeletSocket, "v1beta1");
    }

    /** Sends a new device list to every ListAndWatch stream. */
    void update(List<DevicePluginApi.Device> list) {
        this.devices = List.copyOf(list);
        for (var w : watchers) {
            w.onNext(DevicePluginApi.ListAndWatchResponse.newBuilder().addAllDevices(devices).build());
        }
    }

    @Override
    public void close() {
        server.shutdownNow();
    }

    /** Registers a plugin served elsewhere. */
    record Registrar(Path kubeletSocket) {
        void register(String endpoint, String resource) {
            ManagedChannel ch = UnixSockets.channel(kubeletSocket);
            try {
                RegistrationGrpc.newBlockingStub(ch).register(DevicePluginApi.RegisterRequest.newBuilder()
                        .setVersion("v1beta1").setEndpoint(endpoint).setResourceName(resource).build());
            } finally {
                UnixSockets.close(ch);
            }
        }
    }

    private final class Service extends DevicePluginGrpc.DevicePluginImplBase {
        @Override
        public void getDevicePluginOptions(DevicePluginApi.Empty request,
                                           StreamObserver<DevicePluginApi.DevicePluginOptions> answer) {
            answer.onNext(DevicePluginApi.DevicePluginOptions.getDefaultInstance());
            answer.onCompleted();
        }

        @Override
        public void listAndWatch(DevicePluginApi.Empty request,
                                 StreamObserver<DevicePluginApi.ListAndWatchResponse> answer) {
            watchers.add(answer);
            answer.onNext(DevicePluginApi.ListAndWatchResponse.newBuilder().addAllDevices(devices).build());
        }

        @Override
        public void allocate(DevicePluginApi.AllocateRequest request,
                             StreamObserver<DevicePluginApi.AllocateResponse> answer) {
            CountDownLatch hang = hangAllocate;
            if (hang != null) {
                try {
                    hang.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (allocateError != null) {
                answer.onError(GrpcErrors.unknown(allocateError));
                return;
            }
            var out = DevicePluginApi.AllocateResponse.newBuilder();
            for (var c : request.getContainerRequestsList()) {
                allocated.add(List.copyOf(c.getDevicesIDsList()));
                var r = DevicePluginApi.ContainerAllocateResponse.newBuilder()
                        .putEnvs("TEST_DEVICES", String.join(",", c.getDevicesIDsList()));
                for (String id : c.getDevicesIDsList()) {
                    r.addMounts(DevicePluginApi.Mount.newBuilder().setContainerPath("/tmp/" + id).setHostPath("/tmp/" + id));
                }
                r.addDevices(DevicePluginApi.DeviceSpec.newBuilder().setContainerPath("/dev/test0")
                        .setHostPath("/dev/null").setPermissions("rw"));
                r.putAnnotations("test.example.com/devices", String.join(",", c.getDevicesIDsList()));
                r.addCdiDevices(DevicePluginApi.CDIDevice.newBuilder().setName("example.com/test=" + c.getDevicesIDs(0)));
                out.addContainerResponses(r);
            }
            answer.onNext(out.build());
            answer.onCompleted();
        }
    }
}
