package io.jkubelet.core.volume.csi;

import io.jkubelet.core.volume.VolumeMetrics;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The CSI calls the kubelet makes on a driver's Node service (upstream csi's {@code csiClient}), over the driver's unix
 * socket; the adapter (agent-deviceplugin) speaks CSI spec v1 over gRPC. Thread-safe; each call dials and closes its
 * own connection, as upstream's {@code newV1NodeClient}. Each call has {@code timeout} to succeed (its deadline, as
 * upstream's context): one that does not fails with {@link RpcException} {@code DeadlineExceeded}, the driver's own
 * error or a broken connection with theirs; a request the call refuses before any RPC (an empty volume ID) fails with a
 * plain exception in upstream's words.
 */
public interface CsiDriverClient {
    /**
     * A call that reached gRPC and failed: the driver's error, the deadline, or the connection's end. The message is
     * grpc-go's ({@code rpc error: code = DeadlineExceeded desc = context deadline exceeded}), since upstream puts it
     * in the pod's events as its client prints it.
     */
    final class RpcException extends Exception {
        private final String code;

        /** @param code grpc-go's name of the status code ({@code codes.Code.String()}), e.g. {@code Unavailable} */
        public RpcException(String code, String message, Throwable cause) {
            super(message, cause);
            this.code = code;
        }

        public String code() {
            return code;
        }
    }

    /**
     * What {@code NodeGetInfo} answered.
     *
     * @param maxVolumesPerNode 0 when the driver sets no limit
     * @param accessibleTopology the segments of {@code accessible_topology}; empty when it has none
     */
    record NodeInfo(String nodeId, long maxVolumesPerNode, Map<String, String> accessibleTopology) {}

    /**
     * The Node service capabilities the kubelet looks for, named as the spec's {@code NodeServiceCapability.RPC.Type}.
     * {@link #VOLUME_MOUNT_GROUP} (spec 1.5's type 6) is not in the v1.2.0 spec this kubelet speaks: the adapter tells it
     * by its number, so that the kubelet can say that it cannot delegate {@code fsGroup} to such a driver.
     */
    enum NodeCapability { STAGE_UNSTAGE_VOLUME, GET_VOLUME_STATS, EXPAND_VOLUME, VOLUME_MOUNT_GROUP }

    /**
     * What a volume is mounted as: a file system of {@code fsType} ("" for the driver's choice) with
     * {@code mountFlags}, or a raw block device ({@code block}: the spec's {@code BlockVolume} access type, upstream's
     * {@code fsTypeBlockName}), for {@code accessMode} (the Kubernetes name, e.g. {@code ReadWriteOnce}; the adapter
     * maps it to the spec's mode as upstream's {@code asCSIAccessModeV1}).
     */
    record MountCapability(String fsType, List<String> mountFlags, String accessMode, boolean block) {
        /** A file system. */
        public MountCapability(String fsType, List<String> mountFlags, String accessMode) {
            this(fsType, mountFlags, accessMode, false);
        }

        /** A raw block device, which has neither file system nor mount flags. */
        public static MountCapability block(String accessMode) {
            return new MountCapability("", List.of(), accessMode, true);
        }
    }

    /** {@code NodeStageVolume}'s request: the volume made ready once for the node at {@code stagingTargetPath}. */
    record NodeStageRequest(String volumeId, Map<String, String> publishContext, String stagingTargetPath,
                            MountCapability capability, Map<String, String> secrets, Map<String, String> volumeContext) {}

    /**
     * {@code NodePublishVolume}'s request: the volume mounted for one pod at {@code targetPath}, from
     * {@code stagingTargetPath} when it was staged ("" when not).
     */
    record NodePublishRequest(String volumeId, Map<String, String> publishContext, String stagingTargetPath,
                              String targetPath, MountCapability capability, boolean readOnly,
                              Map<String, String> secrets, Map<String, String> volumeContext) {}

    /**
     * {@code NodeExpandVolume}'s request: the file system of the volume published at {@code volumePath} grown to
     * {@code requiredBytes} ({@code capacity_range.required_bytes}), its global mount {@code stagingTargetPath} ("" when
     * there is none). Spec v1.2.0 has no {@code secrets} in this request.
     */
    record NodeExpandRequest(String volumeId, String volumePath, long requiredBytes, String stagingTargetPath,
                             MountCapability capability) {}

    /** {@code NodeGetInfo} on the driver at {@code endpoint} (a socket path). */
    NodeInfo nodeGetInfo(String endpoint, Duration timeout) throws Exception;

    /** {@code NodeGetCapabilities}: the RPC capabilities the driver announces that this kubelet knows. */
    Set<NodeCapability> nodeGetCapabilities(String endpoint, Duration timeout) throws Exception;

    void nodeStageVolume(String endpoint, Duration timeout, NodeStageRequest request) throws Exception;

    void nodeUnstageVolume(String endpoint, Duration timeout, String volumeId, String stagingTargetPath) throws Exception;

    void nodePublishVolume(String endpoint, Duration timeout, NodePublishRequest request) throws Exception;

    void nodeUnpublishVolume(String endpoint, Duration timeout, String volumeId, String targetPath) throws Exception;

    /**
     * {@code NodeGetVolumeStats} of the volume published at {@code volumePath} (upstream's {@code NodeGetVolumeStats}):
     * the {@code BYTES} usage as capacity, available and used bytes, the {@code INODES} usage as inodes, free and used;
     * 0 for a unit the driver does not report.
     *
     * @throws Exception {@code failed to get usage from response. usage is nil} when the driver reports no usage
     */
    VolumeMetrics.Metrics nodeGetVolumeStats(String endpoint, Duration timeout, String volumeId, String volumePath)
            throws Exception;

    /**
     * {@code NodeExpandVolume} (upstream's): the capacity the driver answered ({@code capacity_bytes}, 0 when unknown).
     *
     * @throws Exception {@code missing volume id}, {@code missing volume path}, {@code size can not be less than 0}
     *     before any RPC, as upstream's client checks; {@link RpcException} with the driver's code ({@code
     *     FailedPrecondition}: it cannot expand the volume while it is in use)
     */
    long nodeExpandVolume(String endpoint, Duration timeout, NodeExpandRequest request) throws Exception;

    /** No client: every call fails (for kubelets that cannot dial CSI drivers, e.g. tests without sockets). */
    static CsiDriverClient none() {
        return new CsiDriverClient() {
            private Exception cannot() {
                return new Exception("this kubelet cannot call CSI drivers");
            }

            @Override
            public NodeInfo nodeGetInfo(String endpoint, Duration timeout) throws Exception {
                throw cannot();
            }

            @Override
            public Set<NodeCapability> nodeGetCapabilities(String endpoint, Duration timeout) throws Exception {
                throw cannot();
            }

            @Override
            public void nodeStageVolume(String endpoint, Duration timeout, NodeStageRequest request) throws Exception {
                throw cannot();
            }

            @Override
            public void nodeUnstageVolume(String endpoint, Duration timeout, String volumeId, String path) throws Exception {
                throw cannot();
            }

            @Override
            public void nodePublishVolume(String endpoint, Duration timeout, NodePublishRequest request) throws Exception {
                throw cannot();
            }

            @Override
            public void nodeUnpublishVolume(String endpoint, Duration timeout, String volumeId, String path)
                    throws Exception {
                throw cannot();
            }

            @Override
            public VolumeMetrics.Metrics nodeGetVolumeStats(String endpoint, Duration timeout, String volumeId,
                                                            String volumePath) throws Exception {
                throw cannot();
            }

            @Override
            public long nodeExpandVolume(String endpoint, Duration timeout, NodeExpandRequest request) throws Exception {
                throw cannot();
            }
        };
    }
}
