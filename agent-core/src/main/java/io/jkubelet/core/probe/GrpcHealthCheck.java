package io.jkubelet.core.probe;

import io.grpc.CallOptions;
import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.jkubelet.core.apis.config.GoDuration;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * One {@code grpc.health.v1.Health/Check} call on a channel of its own (upstream dials per probe too),
 * the part of {@link GrpcProber} that touches gRPC classes.
 *
 * <p>The two health messages have one field each ({@code HealthCheckRequest.service = 1},
 * {@code HealthCheckResponse.status = 1}), so they are encoded here by hand rather than with generated
 * protobuf classes: that keeps protobuf-java (about 2 MB) out of the agent. The tests check the encoding
 * against grpc-java's own health service.
 */
final class GrpcHealthCheck {
    private GrpcHealthCheck() {}

    static final MethodDescriptor<String, Integer> CHECK = MethodDescriptor.<String, Integer>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName("grpc.health.v1.Health/Check")
            .setRequestMarshaller(new RequestMarshaller())
            .setResponseMarshaller(new ResponseMarshaller())
            .build();

    /** {@code HealthCheckResponse.ServingStatus} names, as Go's {@code String()} prints them. */
    private static final String[] STATUS_NAMES = {"UNKNOWN", "SERVING", "NOT_SERVING", "SERVICE_UNKNOWN"};
    private static final int SERVING = 1;

    static ProbeOutcome check(String host, String service, int port, Duration timeout, String userAgent) {
        String addr = GoFormat.joinHostPort(host, port);
        String within = GoDuration.format(timeout);
        InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            return ProbeOutcome.failure("error: failed to connect service at " + GoFormat.quote(addr)
                    + ": lookup " + host + ": no such host");
        }
        ManagedChannel channel = NettyChannelBuilder.forAddress(new InetSocketAddress(address, port))
                .usePlaintext()
                .userAgent(userAgent)
                .proxyDetector(target -> null) // probes go straight to the pod, as upstream's dialer
                .disableRetry()
                .build();
        try {
            // waitForReady: keep trying to connect until the deadline, as upstream's grpc.WithBlock()
            CallOptions options = CallOptions.DEFAULT.withWaitForReady()
                    .withDeadlineAfter(Math.max(1, timeout.toNanos()), TimeUnit.NANOSECONDS);
            int status = ClientCalls.blockingUnaryCall(channel, CHECK, options, service);
            if (status != SERVING) {
                return ProbeOutcome.failure("service unhealthy (responded with " + GoFormat.quote(statusName(status))
                        + ")");
            }
            return ProbeOutcome.success("service healthy");
        } catch (StatusRuntimeException e) {
            Status s = e.getStatus();
            return switch (s.getCode()) {
                case UNIMPLEMENTED -> ProbeOutcome.failure(
                        "error: this server does not implement the grpc health protocol (grpc.health.v1.Health): "
                                + description(s));
                case DEADLINE_EXCEEDED -> channel.getState(false) == ConnectivityState.READY
                        ? ProbeOutcome.failure("timeout: health rpc did not complete within " + within)
                        : ProbeOutcome.failure("timeout: failed to connect service " + GoFormat.quote(addr)
                                + " within " + within + ": context deadline exceeded");
                default -> ProbeOutcome.failure("error: health rpc probe failed: rpc error: code = "
                        + goCodeName(s.getCode()) + " desc = " + description(s));
            };
        } finally {
            channel.shutdownNow();
        }
    }

    private static String statusName(int status) {
        return status >= 0 && status < STATUS_NAMES.length ? STATUS_NAMES[status] : Integer.toString(status);
    }

    private static String description(Status s) {
        return s.getDescription() == null ? "" : s.getDescription();
    }

    /** {@code DEADLINE_EXCEEDED} → {@code DeadlineExceeded}, as grpc-go prints codes. */
    static String goCodeName(Status.Code code) {
        StringBuilder out = new StringBuilder();
        for (String part : code.name().split("_")) {
            out.append(part.charAt(0)).append(part.substring(1).toLowerCase(Locale.ROOT));
        }
        return code == Status.Code.OK ? "OK" : out.toString();
    }

    /** {@code HealthCheckRequest { string service = 1; }} */
    private static final class RequestMarshaller implements MethodDescriptor.Marshaller<String> {
        @Override
        public InputStream stream(String service) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            if (!service.isEmpty()) { // proto3 leaves a default value out
                byte[] utf8 = service.getBytes(StandardCharsets.UTF_8);
                out.write(0x0a); // field 1, wire type 2 (length-delimited)
                writeVarint(out, utf8.length);
                out.writeBytes(utf8);
            }
            return new ByteArrayInputStream(out.toByteArray());
        }

        @Override
        public String parse(InputStream stream) {
            throw new UnsupportedOperationException("the prober only sends health check requests");
        }
    }

    /** {@code HealthCheckResponse { ServingStatus status = 1; }}; other fields are skipped. */
    private static final class ResponseMarshaller implements MethodDescriptor.Marshaller<Integer> {
        @Override
        public InputStream stream(Integer value) {
            throw new UnsupportedOperationException("the prober only reads health check responses");
        }

        @Override
        public Integer parse(InputStream stream) {
            try {
                int status = 0;
                while (true) {
                    long tag = readVarint(stream, true);
                    if (tag < 0) {
                        return status;
                    }
                    int field = (int) (tag >>> 3);
                    int wireType = (int) (tag & 7);
                    switch (wireType) {
                        case 0 -> {
                            long v = readVarint(stream, false);
                            if (field == 1) {
                                status = (int) v;
                            }
                        }
                        case 1 -> skip(stream, 8);
                        case 2 -> skip(stream, readVarint(stream, false));
                        case 5 -> skip(stream, 4);
                        default -> throw new IOException("unsupported protobuf wire type " + wireType);
                    }
                }
            } catch (IOException e) {
                throw Status.INTERNAL.withDescription("malformed HealthCheckResponse: " + e.getMessage())
                        .asRuntimeException();
            }
        }
    }

    private static void writeVarint(ByteArrayOutputStream out, int value) {
        int v = value;
        while ((v & ~0x7f) != 0) {
            out.write((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        out.write(v);
    }

    /** A varint, or -1 at a clean end of the message when {@code eofAllowed}. */
    private static long readVarint(InputStream in, boolean eofAllowed) throws IOException {
        long result = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = in.read();
            if (b < 0) {
                if (shift == 0 && eofAllowed) {
                    return -1;
                }
                throw new IOException("truncated varint");
            }
            result |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return result;
            }
        }
        throw new IOException("varint too long");
    }

    private static void skip(InputStream in, long n) throws IOException {
        in.skipNBytes(n); // throws EOFException on a truncated message
    }
}
