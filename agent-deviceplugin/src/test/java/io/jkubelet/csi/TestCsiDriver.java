package io.jkubelet.csi;

import io.grpc.Server;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.jkubelet.csi.v1.CsiApi;
import io.jkubelet.csi.v1.IdentityGrpc;
import io.jkubelet.csi.v1.NodeGrpc;
import io.jkubelet.deviceplugin.UnixSockets;
import io.jkubelet.pluginregistration.v1.PluginRegistrationApi;
import io.jkubelet.pluginregistration.v1.RegistrationGrpc;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A CSI node plugin as it is deployed: the driver's Identity and Node services on its own socket ({@code csi.sock}),
 * and node-driver-registrar's registration server on {@code plugins_registry/<name>-reg.sock}, whose {@code GetInfo}
 * names the driver's socket as the endpoint. Each is a real gRPC server on a unix socket.
 */
final class TestCsiDriver implements AutoCloseable {
    final String name;
    final Path endpoint;
    final Path registrationSocket;
    /** What the kubelet told the registrar through {@code NotifyRegistrationStatus}, as "registered:error". */
    final List<String> registrationStatus = new CopyOnWriteArrayList<>();
    /** {@code NodeGetInfo} fails with this status while it is set. */
    volatile Status nodeGetInfoError;
    private final CsiApi.NodeGetInfoResponse nodeInfo;
    private final List<String> versions;
    private final Server driver;
    private final Server registrar;

    /**
     * @param serveDriver false for a registrar whose driver is not (yet) listening on {@code endpoint}
     */
    TestCsiDriver(String name, Path endpoint, Path registrationSocket, List<String> versions, String nodeId,
                  long maxVolumes, Map<String, String> topology, boolean serveDriver) throws Exception {
        this.name = name;
        this.endpoint = endpoint;
        this.registrationSocket = registrationSocket;
        this.versions = versions;
        CsiApi.NodeGetInfoResponse.Builder info = CsiApi.NodeGetInfoResponse.newBuilder().setNodeId(nodeId)
                .setMaxVolumesPerNode(maxVolumes);
        if (!topology.isEmpty()) {
            info.setAccessibleTopology(CsiApi.Topology.newBuilder().putAllSegments(topology));
        }
        this.nodeInfo = info.build();
        this.driver = serveDriver ? UnixSockets.serve(endpoint, new Identity(), new Node()) : null;
        this.registrar = UnixSockets.serve(registrationSocket, new Registrar());
    }

    private final class Identity extends IdentityGrpc.IdentityImplBase {
        @Override
        public void getPluginInfo(CsiApi.GetPluginInfoRequest request, StreamObserver<CsiApi.GetPluginInfoResponse> answer) {
            answer.onNext(CsiApi.GetPluginInfoResponse.newBuilder().setName(name).setVendorVersion("0.1.0").build());
            answer.onCompleted();
        }
    }

    private final class Node extends NodeGrpc.NodeImplBase {
        @Override
        public void nodeGetInfo(CsiApi.NodeGetInfoRequest request, StreamObserver<CsiApi.NodeGetInfoResponse> answer) {
            Status error = nodeGetInfoError;
            if (error != null) {
                answer.onError(error.asRuntimeException());
                return;
            }
            answer.onNext(nodeInfo);
            answer.onCompleted();
        }
    }

    /** node-driver-registrar's side: {@code GetInfo} says CSIPlugin, the driver's name, socket and versions. */
    private final class Registrar extends RegistrationGrpc.RegistrationImplBase {
        @Override
        public void getInfo(PluginRegistrationApi.InfoRequest request, StreamObserver<PluginRegistrationApi.PluginInfo> answer) {
            answer.onNext(PluginRegistrationApi.PluginInfo.newBuilder().setType("CSIPlugin").setName(name)
                    .setEndpoint(endpoint.toString()).addAllSupportedVersions(versions).build());
            answer.onCompleted();
        }

        @Override
        public void notifyRegistrationStatus(PluginRegistrationApi.RegistrationStatus status,
                                             StreamObserver<PluginRegistrationApi.RegistrationStatusResponse> answer) {
            registrationStatus.add(status.getPluginRegistered() + ":" + status.getError());
            answer.onNext(PluginRegistrationApi.RegistrationStatusResponse.getDefaultInstance());
            answer.onCompleted();
        }
    }

    @Override
    public void close() {
        registrar.shutdownNow();
        if (driver != null) {
            driver.shutdownNow();
        }
    }
}
