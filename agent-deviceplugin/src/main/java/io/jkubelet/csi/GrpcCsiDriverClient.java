package io.jkubelet.csi;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.jkubelet.core.volume.VolumeMetrics;
import io.jkubelet.core.volume.csi.CsiDriverClient;
import io.jkubelet.csi.v1.CsiApi;
import io.jkubelet.csi.v1.NodeGrpc;
import io.jkubelet.deviceplugin.GrpcErrors;
import io.jkubelet.deviceplugin.UnixSockets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The CSI spec v1 Node service of a driver, over its unix socket (upstream csi's {@code csiDriverClient} with
 * {@code newV1NodeClient}: {@code NodeGetInfo}, {@code NodeGetCapabilities}, {@code NodeStageVolume},
 * {@code NodeUnstageVolume}, {@code NodePublishVolume}, {@code NodeUnpublishVolume}, {@code NodeGetVolumeStats},
 * {@code NodeExpandVolume}):
 * each call dials the endpoint, makes one RPC within the caller's timeout (its gRPC deadline) and closes the connection.
 * As grpc-go's non-blocking dial, the call does not wait for a socket that is not there: it fails at once with
 * {@code Unavailable}; a driver that never answers fails the call with {@code DeadlineExceeded} at its deadline, and one
 * that goes during the call fails it at once with the connection's end.
 */
public final class GrpcCsiDriverClient implements CsiDriverClient {
    private static final Logger log = LoggerFactory.getLogger(GrpcCsiDriverClient.class);

    /** {@code NodeServiceCapability.RPC.Type.VOLUME_MOUNT_GROUP} of CSI spec 1.5, which v1.2.0's enum lacks. */
    static final int VOLUME_MOUNT_GROUP = 6;

    @Override
    public NodeInfo nodeGetInfo(String endpoint, Duration timeout) throws Exception {
        CsiApi.NodeGetInfoResponse res = call(endpoint, timeout,
                node -> node.nodeGetInfo(CsiApi.NodeGetInfoRequest.getDefaultInstance()));
        Map<String, String> topology = res.hasAccessibleTopology()
                ? Map.copyOf(res.getAccessibleTopology().getSegmentsMap()) : Map.of();
        return new NodeInfo(res.getNodeId(), res.getMaxVolumesPerNode(), topology);
    }

    @Override
    public Set<NodeCapability> nodeGetCapabilities(String endpoint, Duration timeout) throws Exception {
        CsiApi.NodeGetCapabilitiesResponse res = call(endpoint, timeout,
                node -> node.nodeGetCapabilities(CsiApi.NodeGetCapabilitiesRequest.getDefaultInstance()));
        Set<NodeCapability> caps = EnumSet.noneOf(NodeCapability.class);
        for (CsiApi.NodeServiceCapability c : res.getCapabilitiesList()) {
            switch (c.getRpc().getType()) {
                case STAGE_UNSTAGE_VOLUME -> caps.add(NodeCapability.STAGE_UNSTAGE_VOLUME);
                case GET_VOLUME_STATS -> caps.add(NodeCapability.GET_VOLUME_STATS);
                case EXPAND_VOLUME -> caps.add(NodeCapability.EXPAND_VOLUME);
                default -> {
                    if (c.getRpc().getTypeValue() == VOLUME_MOUNT_GROUP) {
                        caps.add(NodeCapability.VOLUME_MOUNT_GROUP);
                    }
                }
            }
        }
        return caps;
    }

    @Override
    public void nodeStageVolume(String endpoint, Duration timeout, NodeStageRequest r) throws Exception {
        require(r.volumeId(), "missing volume id");
        require(r.stagingTargetPath(), "missing staging target path");
        call(endpoint, timeout, node -> node.nodeStageVolume(CsiApi.NodeStageVolumeRequest.newBuilder()
                .setVolumeId(r.volumeId()).putAllPublishContext(r.publishContext())
                .setStagingTargetPath(r.stagingTargetPath()).setVolumeCapability(capability(r.capability()))
                .putAllSecrets(r.secrets()).putAllVolumeContext(r.volumeContext()).build()));
    }

    @Override
    public void nodeUnstageVolume(String endpoint, Duration timeout, String volumeId, String stagingTargetPath)
            throws Exception {
        require(volumeId, "missing volume id");
        require(stagingTargetPath, "missing staging target path");
        call(endpoint, timeout, node -> node.nodeUnstageVolume(CsiApi.NodeUnstageVolumeRequest.newBuilder()
                .setVolumeId(volumeId).setStagingTargetPath(stagingTargetPath).build()));
    }

    @Override
    public void nodePublishVolume(String endpoint, Duration timeout, NodePublishRequest r) throws Exception {
        require(r.volumeId(), "missing volume id");
        require(r.targetPath(), "missing target path");
        call(endpoint, timeout, node -> node.nodePublishVolume(CsiApi.NodePublishVolumeRequest.newBuilder()
                .setVolumeId(r.volumeId()).putAllPublishContext(r.publishContext())
                .setStagingTargetPath(r.stagingTargetPath()).setTargetPath(r.targetPath())
                .setVolumeCapability(capability(r.capability())).setReadonly(r.readOnly())
                .putAllSecrets(r.secrets()).putAllVolumeContext(r.volumeContext()).build()));
    }

    @Override
    public void nodeUnpublishVolume(String endpoint, Duration timeout, String volumeId, String targetPath)
            throws Exception {
        require(volumeId, "missing volume id");
        require(targetPath, "missing target path");
        call(endpoint, timeout, node -> node.nodeUnpublishVolume(CsiApi.NodeUnpublishVolumeRequest.newBuilder()
                .setVolumeId(volumeId).setTargetPath(targetPath).build()));
    }

    @Override
    public VolumeMetrics.Metrics nodeGetVolumeStats(String endpoint, Duration timeout, String volumeId, String volumePath)
            throws Exception {
        require(volumeId, "missing volume id");
        require(volumePath, "missing target path");
        CsiApi.NodeGetVolumeStatsResponse res = call(endpoint, timeout, node -> node.nodeGetVolumeStats(
                CsiApi.NodeGetVolumeStatsRequest.newBuilder().setVolumeId(volumeId).setVolumePath(volumePath).build()));
        // Go's GetUsage is nil for an empty list too.
        if (res.getUsageCount() == 0) {
            throw new Exception("failed to get usage from response. usage is nil");
        }
        long[] bytes = {0, 0, 0};
        long[] inodes = {0, 0, 0};
        for (CsiApi.VolumeUsage u : res.getUsageList()) {
            switch (u.getUnit()) {
                case BYTES -> bytes = new long[] {u.getTotal(), u.getAvailable(), u.getUsed()};
                case INODES -> inodes = new long[] {u.getTotal(), u.getAvailable(), u.getUsed()};
                default -> log.error("unknown unit in VolumeUsage unit=\"{}\"", u.getUnit());
            }
        }
        return new VolumeMetrics.Metrics(bytes[0], bytes[1], bytes[2], inodes[0], inodes[1], inodes[2]);
    }

    @Override
    public long nodeExpandVolume(String endpoint, Duration timeout, NodeExpandRequest r) throws Exception {
        require(r.volumeId(), "missing volume id");
        require(r.volumePath(), "missing volume path");
        if (r.requiredBytes() < 0) {
            throw new Exception("size can not be less than 0");
        }
        var req = CsiApi.NodeExpandVolumeRequest.newBuilder().setVolumeId(r.volumeId()).setVolumePath(r.volumePath())
                .setCapacityRange(CsiApi.CapacityRange.newBuilder().setRequiredBytes(r.requiredBytes()))
                .setVolumeCapability(capability(r.capability()));
        // As upstream's client: set only when there is one.
        if (!r.stagingTargetPath().isEmpty()) {
            req.setStagingTargetPath(r.stagingTargetPath());
        }
        return call(endpoint, timeout, node -> node.nodeExpandVolume(req.build())).getCapacityBytes();
    }

    /** Upstream's request checks before the call (csi_client.go): the same words. */
    private static void require(String value, String message) throws Exception {
        if (value == null || value.isEmpty()) {
            throw new Exception(message);
        }
    }

    /**
     * A mounted file system, or a raw block device (upstream's {@code fsTypeBlockName}: the {@code block} access type),
     * its access mode as upstream maps it.
     */
    static CsiApi.VolumeCapability capability(MountCapability c) {
        CsiApi.VolumeCapability.Builder b = CsiApi.VolumeCapability.newBuilder()
                .setAccessMode(CsiApi.VolumeCapability.AccessMode.newBuilder().setMode(accessMode(c.accessMode())));
        if (c.block()) {
            return b.setBlock(CsiApi.VolumeCapability.BlockVolume.getDefaultInstance()).build();
        }
        return b.setMount(CsiApi.VolumeCapability.MountVolume.newBuilder().setFsType(c.fsType())
                .addAllMountFlags(c.mountFlags())).build();
    }

    /**
     * Upstream {@code asCSIAccessModeV1} for a driver without {@code SINGLE_NODE_MULTI_WRITER} (spec v1.2 has none):
     * ReadWriteOncePod is a single node's writer as ReadWriteOnce.
     */
    static CsiApi.VolumeCapability.AccessMode.Mode accessMode(String mode) {
        return switch (mode) {
            case "ReadWriteOnce", "ReadWriteOncePod" -> CsiApi.VolumeCapability.AccessMode.Mode.SINGLE_NODE_WRITER;
            case "ReadOnlyMany" -> CsiApi.VolumeCapability.AccessMode.Mode.MULTI_NODE_READER_ONLY;
            case "ReadWriteMany" -> CsiApi.VolumeCapability.AccessMode.Mode.MULTI_NODE_MULTI_WRITER;
            default -> CsiApi.VolumeCapability.AccessMode.Mode.UNKNOWN;
        };
    }

    private interface Rpc<T> {
        T call(NodeGrpc.NodeBlockingStub node);
    }

    /**
     * One RPC on a connection of its own, with {@code timeout} as its deadline (none left: it fails at once, as a call
     * on an expired context); its error in grpc-go's words and code.
     */
    private static <T> T call(String endpoint, Duration timeout, Rpc<T> rpc) throws RpcException {
        ManagedChannel ch = UnixSockets.channel(Path.of(endpoint));
        try {
            return rpc.call(NodeGrpc.newBlockingStub(ch).withDeadlineAfter(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS));
        } catch (StatusRuntimeException e) {
            throw new RpcException(GrpcErrors.codeName(e.getStatus().getCode()), message(e, endpoint), e);
        } finally {
            UnixSockets.close(ch);
        }
    }

    /**
     * grpc-go's words for the error; a socket that cannot be dialled as grpc-go says it ({@code connection error:
     * desc = "transport: Error while dialing dial unix <endpoint>: ..."}) rather than grpc-java's bare "io exception",
     * so that the registrar's log names the socket.
     */
    static String message(StatusRuntimeException e, String endpoint) {
        if (e.getStatus().getCode() == Status.Code.UNAVAILABLE && e.getCause() != null) {
            return "rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing dial unix "
                    + endpoint + ": " + causeMessage(e.getCause()) + "\"";
        }
        return GrpcErrors.message(e);
    }

    /**
     * The first message down the chain of causes; a missing socket (Netty's bare {@code FileNotFoundException}) in
     * Go's words.
     */
    private static String causeMessage(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof java.io.FileNotFoundException && t.getMessage() == null) {
                return "connect: no such file or directory";
            }
            if (t.getMessage() != null) {
                return t.getMessage();
            }
        }
        return cause.getClass().getSimpleName();
    }
}
