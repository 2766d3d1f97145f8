package io.jkubelet.core.probe;

import java.time.Duration;

/**
 * The {@code grpc} handler (upstream {@code pkg/probe/grpc}): calls {@code grpc.health.v1.Health/Check}
 * with the probe's {@code service} over plaintext, with the timeout as deadline for connecting and
 * calling, and {@code User-Agent: kube-probe/<major>.<minor>}. {@code SERVING} is success; everything else
 * (another status, no health service, no connection, the deadline) is a {@link ProbeResult#FAILURE} with
 * upstream's message.
 *
 * <p>This class holds no gRPC type: the gRPC runtime (Netty, its event loops) is loaded only when the
 * first grpc probe runs, since most nodes never run one and the agent's start-up time and memory matter.
 * Thread-safe.
 */
public final class GrpcProber {
    private final String userAgent;

    /** @param kubeVersion as for {@link HttpGetRequests#HttpGetRequests(String)}, e.g. {@code "v1.30.0"} */
    public GrpcProber(String kubeVersion) {
        this.userAgent = "kube-probe/" + HttpGetRequests.majorMinor(kubeVersion);
    }

    public ProbeOutcome probe(String host, String service, int port, Duration timeout) {
        return GrpcHealthCheck.check(host, service == null ? "" : service, port, timeout, userAgent);
    }
}
