package io.jkubelet.csi;

import io.grpc.Server;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.jkubelet.cadvisor.FsUsage;
import io.jkubelet.core.volume.util.LinuxMounts;
import io.jkubelet.csi.v1.CsiApi;
import io.jkubelet.csi.v1.IdentityGrpc;
import io.jkubelet.csi.v1.NodeGrpc;
import io.jkubelet.deviceplugin.UnixSockets;
import io.jkubelet.pluginregistration.v1.PluginRegistrationApi;
import io.jkubelet.pluginregistration.v1.RegistrationGrpc;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A CSI node plugin as it is deployed: the driver's Identity and Node services on its own socket ({@code csi.sock}),
 * and node-driver-registrar's registration server on {@code plugins_registry/<name>-reg.sock}, whose {@code GetInfo}
 * names the driver's socket as the endpoint. Each is a real gRPC server on a unix socket.
 *
 * <p>Its Node service is hostpath-style: a volume is the directory {@code <data root>/<volume id>}; with
 * {@code STAGE_UNSTAGE_VOLUME} ({@link #stageUnstage}) it is bind-mounted at the staging path, then the staging path at
 * each target; without, the directory at each target, read-only when asked. Mounts are real (the tests run as root);
 * publish and stage are idempotent as the spec requires. With {@code GET_VOLUME_STATS} ({@link #volumeStats}) it answers
 * {@code NodeGetVolumeStats} with the published directory's file system, as csi-driver-host-path does. With
 * {@code EXPAND_VOLUME} ({@link #expandVolume}) it answers {@code NodeExpandVolume} for a published volume with the size
 * asked for (a directory has no file system of its own to grow). A volume asked for with the {@code block} access type
 * is a 16 MiB file {@code <data root>/<volume id>.img} on a loop device ({@link #blockDevices}), which a publish
 * bind-mounts on the target file it makes, as csi-driver-host-path does for block volumes; its stage only makes the
 * device. Each request is recorded. A call can be made to answer an error ({@link #failIn}) or never to answer
 * ({@link #hangIn}), for every volume or one; {@link #stop()} makes the driver go as a driver process that dies does,
 * its socket with it.
 *
 * <p>Shared with agent-cmd's end-to-end tests (agent-deviceplugin's test-jar), where it is the node plugin of a real
 * cluster's node, jkubelet's or the upstream kubelet's.
 */
public final class TestCsiDriver implements AutoCloseable {
    public final String name;
    public final Path endpoint;
    public final Path registrationSocket;
    /** What the kubelet told the registrar through {@code NotifyRegistrationStatus}, as "registered:error". */
    public final List<String> registrationStatus = new CopyOnWriteArrayList<>();
    /**
     * The calls that answer an error instead, by the RPC's name for every volume ({@code "NodePublishVolume"}) or with
     * a volume ID for one ({@code "NodeGetVolumeStats vol-1"}).
     */
    public final Map<String, Status> failIn = new ConcurrentHashMap<>();
    /**
     * The calls that never answer (a driver that hangs), named as in {@link #failIn}: the call stays open until the
     * caller's deadline ends it or the driver goes.
     */
    public final Set<String> hangIn = ConcurrentHashMap.newKeySet();
    /** The calls left unanswered, as "{@code <rpc> <volume id>}", in the order they came. */
    public final List<String> hung = new CopyOnWriteArrayList<>();
    /** Whether {@code NodeGetCapabilities} announces {@code STAGE_UNSTAGE_VOLUME}. */
    public volatile boolean stageUnstage;
    /** Whether {@code NodeGetCapabilities} announces {@code GET_VOLUME_STATS}. */
    public volatile boolean volumeStats;
    /** Whether {@code NodeGetCapabilities} announces {@code EXPAND_VOLUME}. */
    public volatile boolean expandVolume;
    /**
     * Whether {@code NodeGetCapabilities} announces spec 1.5's {@code VOLUME_MOUNT_GROUP} (type 6, which the v1.2.0
     * proto does not name: sent by its number, as a newer driver's answer reaches this kubelet).
     */
    public volatile boolean volumeMountGroup;
    /** Where the volumes' directories are. */
    public final Path dataRoot;
    public final List<CsiApi.NodeStageVolumeRequest> stages = new CopyOnWriteArrayList<>();
    public final List<CsiApi.NodePublishVolumeRequest> publishes = new CopyOnWriteArrayList<>();
    /** Each {@code NodeExpandVolume}, those told to fail included. */
    public final List<CsiApi.NodeExpandVolumeRequest> expansions = new CopyOnWriteArrayList<>();
    /** Each {@code NodeGetVolumeStats} as "<volume id> <volume path>", and what it answered. */
    public final List<String> volumeStatsRequests = new CopyOnWriteArrayList<>();
    public final List<CsiApi.NodeGetVolumeStatsResponse> volumeStatsAnswers = new CopyOnWriteArrayList<>();
    /** "NodeUnpublishVolume <id> <target>" and "NodeUnstageVolume <id> <staging path>", in order. */
    public final List<String> teardowns = new CopyOnWriteArrayList<>();
    /** The loop device of each block volume, by volume ID: detached when the driver is closed. */
    public final Map<String, String> blockDevices = new ConcurrentHashMap<>();
    private final LinuxMounts mounts = new LinuxMounts();
    private final CsiApi.NodeGetInfoResponse nodeInfo;
    private final List<String> versions;
    private final Server driver;
    private final Server registrar;

    /**
     * @param serveDriver false for a registrar whose driver is not (yet) listening on {@code endpoint}
     */
    public TestCsiDriver(String name, Path endpoint, Path registrationSocket, List<String> versions, String nodeId,
                  long maxVolumes, Map<String, String> topology, boolean serveDriver) throws Exception {
        this.name = name;
        this.endpoint = endpoint;
        this.registrationSocket = registrationSocket;
        this.versions = versions;
        this.dataRoot = endpoint.getParent().resolve("data");
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
            if (misbehaves("NodeGetInfo", "", answer)) {
                return;
            }
            answer.onNext(nodeInfo);
            answer.onCompleted();
        }

        @Override
        public void nodeGetCapabilities(CsiApi.NodeGetCapabilitiesRequest request,
                                        StreamObserver<CsiApi.NodeGetCapabilitiesResponse> answer) {
            if (misbehaves("NodeGetCapabilities", "", answer)) {
                return;
            }
            var res = CsiApi.NodeGetCapabilitiesResponse.newBuilder();
            if (stageUnstage) {
                res.addCapabilities(rpc(CsiApi.NodeServiceCapability.RPC.Type.STAGE_UNSTAGE_VOLUME_VALUE));
            }
            if (volumeStats) {
                res.addCapabilities(rpc(CsiApi.NodeServiceCapability.RPC.Type.GET_VOLUME_STATS_VALUE));
            }
            if (volumeMountGroup) {
                res.addCapabilities(rpc(6));
            }
            if (expandVolume) {
                res.addCapabilities(rpc(CsiApi.NodeServiceCapability.RPC.Type.EXPAND_VOLUME_VALUE));
            }
            answer.onNext(res.build());
            answer.onCompleted();
        }

        private static CsiApi.NodeServiceCapability rpc(int type) {
            return CsiApi.NodeServiceCapability.newBuilder()
                    .setRpc(CsiApi.NodeServiceCapability.RPC.newBuilder().setTypeValue(type)).build();
        }

        /**
         * csi-driver-host-path's: the published directory's file system ({@code statvfs}), its bytes and inodes; an error
         * for a path where nothing is published.
         */
        @Override
        public void nodeGetVolumeStats(CsiApi.NodeGetVolumeStatsRequest r,
                                       StreamObserver<CsiApi.NodeGetVolumeStatsResponse> answer) {
            volumeStatsRequests.add(r.getVolumeId() + " " + r.getVolumePath());
            if (misbehaves("NodeGetVolumeStats", r.getVolumeId(), answer)) {
                return;
            }
            Path path = Path.of(r.getVolumePath());
            if (!mounts.isMountPoint(path)) {
                answer.onError(Status.NOT_FOUND.withDescription("Could not get file information from "
                        + r.getVolumePath()).asRuntimeException());
                return;
            }
            FsUsage fs = FsUsage.of(path);
            CsiApi.NodeGetVolumeStatsResponse res = CsiApi.NodeGetVolumeStatsResponse.newBuilder()
                    .addUsage(CsiApi.VolumeUsage.newBuilder().setUnit(CsiApi.VolumeUsage.Unit.BYTES)
                            .setTotal(fs.capacityBytes()).setAvailable(fs.availableBytes()).setUsed(fs.usedBytes()))
                    .addUsage(CsiApi.VolumeUsage.newBuilder().setUnit(CsiApi.VolumeUsage.Unit.INODES)
                            .setTotal(fs.inodes()).setAvailable(fs.inodesFree()).setUsed(fs.inodesUsed()))
                    .build();
            volumeStatsAnswers.add(res);
            answer.onNext(res);
            answer.onCompleted();
        }

        /**
         * As csi-driver-host-path: a volume path where nothing is mounted is {@code NotFound}; otherwise the volume has
         * the capacity asked for. A driver without the capability answers {@code Unimplemented}, should it be called.
         */
        @Override
        public void nodeExpandVolume(CsiApi.NodeExpandVolumeRequest r,
                                     StreamObserver<CsiApi.NodeExpandVolumeResponse> answer) {
            expansions.add(r);
            if (misbehaves("NodeExpandVolume", r.getVolumeId(), answer)) {
                return;
            }
            if (!expandVolume) {
                answer.onError(Status.UNIMPLEMENTED.withDescription("NodeExpandVolume is not supported")
                        .asRuntimeException());
                return;
            }
            if (!mounts.isMountPoint(Path.of(r.getVolumePath()))) {
                answer.onError(Status.NOT_FOUND.withDescription("Could not get file information from "
                        + r.getVolumePath()).asRuntimeException());
                return;
            }
            answer.onNext(CsiApi.NodeExpandVolumeResponse.newBuilder()
                    .setCapacityBytes(r.getCapacityRange().getRequiredBytes()).build());
            answer.onCompleted();
        }

        @Override
        public void nodeStageVolume(CsiApi.NodeStageVolumeRequest r, StreamObserver<CsiApi.NodeStageVolumeResponse> answer) {
            stages.add(r);
            if (misbehaves("NodeStageVolume", r.getVolumeId(), answer)) {
                return;
            }
            if (r.getVolumeCapability().hasBlock()) {
                reply(answer, CsiApi.NodeStageVolumeResponse.getDefaultInstance(), () -> blockDevice(r.getVolumeId()));
                return;
            }
            reply(answer, CsiApi.NodeStageVolumeResponse.getDefaultInstance(), () ->
                    bind(volumeDir(r.getVolumeId()), Path.of(r.getStagingTargetPath()), false));
        }

        @Override
        public void nodeUnstageVolume(CsiApi.NodeUnstageVolumeRequest r,
                                      StreamObserver<CsiApi.NodeUnstageVolumeResponse> answer) {
            teardowns.add("NodeUnstageVolume " + r.getVolumeId() + " " + r.getStagingTargetPath());
            if (misbehaves("NodeUnstageVolume", r.getVolumeId(), answer)) {
                return;
            }
            reply(answer, CsiApi.NodeUnstageVolumeResponse.getDefaultInstance(), () -> unmount(Path.of(r.getStagingTargetPath()), false));
        }

        @Override
        public void nodePublishVolume(CsiApi.NodePublishVolumeRequest r,
                                      StreamObserver<CsiApi.NodePublishVolumeResponse> answer) {
            publishes.add(r);
            if (misbehaves("NodePublishVolume", r.getVolumeId(), answer)) {
                return;
            }
            if (r.getVolumeCapability().hasBlock()) {
                reply(answer, CsiApi.NodePublishVolumeResponse.getDefaultInstance(), () ->
                        bindDevice(blockDevice(r.getVolumeId()), Path.of(r.getTargetPath()), r.getReadonly()));
                return;
            }
            Path source = r.getStagingTargetPath().isEmpty() ? volumeDir(r.getVolumeId()) : Path.of(r.getStagingTargetPath());
            reply(answer, CsiApi.NodePublishVolumeResponse.getDefaultInstance(), () ->
                    bind(source, Path.of(r.getTargetPath()), r.getReadonly()));
        }

        @Override
        public void nodeUnpublishVolume(CsiApi.NodeUnpublishVolumeRequest r,
                                        StreamObserver<CsiApi.NodeUnpublishVolumeResponse> answer) {
            teardowns.add("NodeUnpublishVolume " + r.getVolumeId() + " " + r.getTargetPath());
            if (misbehaves("NodeUnpublishVolume", r.getVolumeId(), answer)) {
                return;
            }
            reply(answer, CsiApi.NodeUnpublishVolumeResponse.getDefaultInstance(), () -> unmount(Path.of(r.getTargetPath()), true));
        }
    }

    /**
     * Whether the call is told to fail (then answered with its status) or to hang (then left open, recorded in
     * {@link #hung}), for this volume or every one.
     */
    private boolean misbehaves(String rpc, String volumeId, StreamObserver<?> answer) {
        String one = rpc + " " + volumeId;
        Status error = failIn.getOrDefault(one, failIn.get(rpc));
        if (error != null) {
            answer.onError(error.asRuntimeException());
            return true;
        }
        if (hangIn.contains(one) || hangIn.contains(rpc)) {
            hung.add(one);
            return true;
        }
        return false;
    }

    private interface Work {
        void run() throws Exception;
    }

    private static <T> void reply(StreamObserver<T> answer, T response, Work work) {
        try {
            work.run();
        } catch (Exception e) {
            answer.onError(Status.INTERNAL.withDescription(e.getMessage()).asRuntimeException());
            return;
        }
        answer.onNext(response);
        answer.onCompleted();
    }

    public Path volumeDir(String volumeId) {
        return dataRoot.resolve(volumeId);
    }

    private void bind(Path source, Path target, boolean readOnly) throws Exception {
        Files.createDirectories(source);
        Files.createDirectories(target);
        if (!mounts.isMountPoint(target)) {
            mounts.bindMount(source, target, readOnly ? List.of("ro") : List.of());
        }
    }

    /**
     * The block volume's loop device, made at its first use on a 16 MiB file ({@code losetup -f --show}).
     */
    public String blockDevice(String volumeId) throws Exception {
        String existing = blockDevices.get(volumeId);
        if (existing != null) {
            return existing;
        }
        Files.createDirectories(dataRoot);
        Path image = dataRoot.resolve(volumeId + ".img");
        try (var f = new java.io.RandomAccessFile(image.toFile(), "rw")) {
            f.setLength(16L << 20);
        }
        Process p = new ProcessBuilder("losetup", "-f", "--show", image.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
        if (p.waitFor() != 0 || !out.startsWith("/dev/loop")) {
            throw new Exception("losetup -f --show " + image + ": " + out);
        }
        blockDevices.put(volumeId, out);
        return out;
    }

    /** csi-driver-host-path's block publish: the target file made, the device bind-mounted on it. */
    private void bindDevice(String device, Path target, boolean readOnly) throws Exception {
        Files.createDirectories(target.getParent());
        if (!Files.exists(target)) {
            Files.createFile(target);
        }
        if (!mounts.isMountPoint(target)) {
            mounts.bindMount(Path.of(device), target, readOnly ? List.of("ro") : List.of());
        }
    }

    private void unmount(Path target, boolean remove) throws Exception {
        if (mounts.isMountPoint(target)) {
            mounts.unmount(target);
        }
        if (remove) {
            Files.deleteIfExists(target);
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

    /**
     * The driver's process dies: its server goes at once, the calls it has open fail, and its socket is removed (the
     * registrar's stays, as node-driver-registrar's container outlives the driver's).
     */
    public void stop() throws java.io.IOException {
        if (driver != null) {
            driver.shutdownNow();
        }
        Files.deleteIfExists(endpoint);
    }

    /** The servers go, and the block volumes' loop devices are detached (after whatever a test left on them). */
    @Override
    public void close() {
        registrar.shutdownNow();
        if (driver != null) {
            driver.shutdownNow();
        }
        for (String device : blockDevices.values()) {
            try {
                new ProcessBuilder("losetup", "-d", device).redirectErrorStream(true).start().waitFor();
            } catch (Exception e) {
                // Nothing more to do: the loop device stays until the machine's next clean-up.
            }
        }
        blockDevices.clear();
    }
}
