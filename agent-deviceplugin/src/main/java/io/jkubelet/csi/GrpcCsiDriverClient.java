package io.jkubelet.csi;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.jkubelet.core.volume.csi.CsiDriverClient;
import io.jkubelet.csi.v1.CsiApi;
import io.jkubelet.csi.v1.NodeGrpc;
import io.jkubelet.deviceplugin.GrpcErrors;
import io.jkubelet.deviceplugin.UnixSockets;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The CSI spec v1 Node service of a driver, over its unix socket (upstream csi's {@code csiDriverClient} with
 * {@code newV1NodeClient}): each call dials the endpoint, makes one RPC within the caller's timeout and closes the
 * connection. As grpc-go's non-blocking dial, the call does not wait for a socket that is not there: it fails at once
 * with {@code Unavailable}.
 */
public final class GrpcCsiDriverClient implements CsiDriverClient {
    @Override
    public NodeInfo nodeGetInfo(String endpoint, Duration timeout) throws Exception {
        ManagedChannel ch = UnixSockets.channel(Path.of(endpoint));
        try {
            CsiApi.NodeGetInfoResponse res = NodeGrpc.newBlockingStub(ch)
                    .withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .nodeGetInfo(CsiApi.NodeGetInfoRequest.getDefaultInstance());
            Map<String, String> topology = res.hasAccessibleTopology()
                    ? Map.copyOf(res.getAccessibleTopology().getSegmentsMap()) : Map.of();
            return new NodeInfo(res.getNodeId(), res.getMaxVolumesPerNode(), topology);
        } catch (StatusRuntimeException e) {
            throw new Exception(message(e, endpoint), e);
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
