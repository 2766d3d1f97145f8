package io.jkubelet.deviceplugin;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;

import java.util.Locale;

/**
 * gRPC errors as grpc-go prints them ({@code rpc error: code = Unknown desc = ...}): upstream puts a plugin's error in
 * the pod's admission message and its logs as its client prints it, so the kubelet's messages read the same here.
 */
public final class GrpcErrors {
    private GrpcErrors() {}

    /** grpc-go's {@code status.Error} text of {@code e}. */
    public static String message(StatusRuntimeException e) {
        Status s = e.getStatus();
        String desc = s.getDescription() == null ? "" : s.getDescription();
        if (s.getCode() == Status.Code.DEADLINE_EXCEEDED && (desc.contains("deadline exceeded after")
                || desc.startsWith("ClientCall started after"))) {
            // The client's own deadline: grpc-go reports its context's error.
            desc = "context deadline exceeded";
        }
        return "rpc error: code = " + codeName(s.getCode()) + " desc = " + desc;
    }

    /** grpc-go's {@code codes.Code.String()}: CamelCase, and "Canceled" with one l. */
    public static String codeName(Status.Code code) {
        if (code == Status.Code.CANCELLED) {
            return "Canceled";
        }
        if (code == Status.Code.OK) {
            return "OK";
        }
        StringBuilder out = new StringBuilder();
        for (String part : code.name().split("_")) {
            out.append(part.charAt(0)).append(part.substring(1).toLowerCase(Locale.ROOT));
        }
        return out.toString();
    }

    /** What a server handler answers for an error of its own, as grpc-go answers a plain Go error: code Unknown. */
    public static StatusRuntimeException unknown(String message) {
        return Status.UNKNOWN.withDescription(message).asRuntimeException();
    }
}
