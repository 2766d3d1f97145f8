package io.jkubelet.core.volume.csi;

import java.time.Duration;
import java.util.Map;

/**
 * The CSI calls the kubelet makes on a driver's Node service (upstream csi's {@code csiClient}), over the driver's unix
 * socket; the adapter (agent-deviceplugin) speaks CSI spec v1 over gRPC. Thread-safe; each call dials and closes its
 * own connection, as upstream's {@code newV1NodeClient}.
 */
public interface CsiDriverClient {
    /**
     * What {@code NodeGetInfo} answered.
     *
     * @param maxVolumesPerNode 0 when the driver sets no limit
     * @param accessibleTopology the segments of {@code accessible_topology}; empty when it has none
     */
    record NodeInfo(String nodeId, long maxVolumesPerNode, Map<String, String> accessibleTopology) {}

    /**
     * {@code NodeGetInfo} on the driver at {@code endpoint} (a socket path), within {@code timeout}.
     *
     * @throws Exception the driver's or the connection's error, as grpc-go prints it ({@code rpc error: code = ...})
     */
    NodeInfo nodeGetInfo(String endpoint, Duration timeout) throws Exception;

    /** No client: every call fails (for kubelets that cannot dial CSI drivers, e.g. tests without sockets). */
    static CsiDriverClient none() {
        return (endpoint, timeout) -> {
            throw new Exception("this kubelet cannot call CSI drivers");
        };
    }
}
