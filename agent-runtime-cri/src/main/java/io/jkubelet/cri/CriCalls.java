package io.jkubelet.cri;

import io.grpc.StatusRuntimeException;
import io.jkubelet.cri.v1.ImageServiceGrpc;
import io.jkubelet.cri.v1.RuntimeServiceGrpc;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The blocking stubs of one runtime (and its image service, which may be another endpoint), each call with its
 * deadline: {@code runtimeRequestTimeout} for the short ones, as upstream's remote runtime; errors through
 * {@link CriErrors}.
 */
final class CriCalls implements AutoCloseable {
    private final CriChannel runtimeChannel;
    private final CriChannel imageChannel;
    private final Duration requestTimeout;

    CriCalls(CriChannel runtimeChannel, CriChannel imageChannel, Duration requestTimeout) {
        this.runtimeChannel = runtimeChannel;
        this.imageChannel = imageChannel;
        this.requestTimeout = requestTimeout;
    }

    Duration requestTimeout() {
        return requestTimeout;
    }

    CriEndpoint endpoint() {
        return runtimeChannel.endpoint();
    }

    CriEndpoint imageEndpoint() {
        return imageChannel.endpoint();
    }

    /** A RuntimeService call within {@code runtimeRequestTimeout}. */
    <T> T runtime(String call, String subject, Function<RuntimeServiceGrpc.RuntimeServiceBlockingStub, T> body) {
        return runtime(call, subject, requestTimeout, body);
    }

    /**
     * A RuntimeService call within {@code deadline} (a stop's grace period, an exec's timeout, plus the timeout), or
     * without one when it is null (an exec without a timeout: a lifecycle hook's).
     */
    <T> T runtime(String call, String subject, Duration deadline,
                  Function<RuntimeServiceGrpc.RuntimeServiceBlockingStub, T> body) {
        RuntimeServiceGrpc.RuntimeServiceBlockingStub stub = RuntimeServiceGrpc.newBlockingStub(runtimeChannel.channel());
        if (deadline != null) {
            stub = stub.withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS);
        }
        try {
            return body.apply(stub);
        } catch (StatusRuntimeException e) {
            throw CriErrors.translate(e, call, subject, runtimeChannel.endpoint(), deadline);
        }
    }

    /** An ImageService call within {@code deadline}, or without one when it is null (pulls: the runtime paces them). */
    <T> T image(String call, String subject, Duration deadline,
                Function<ImageServiceGrpc.ImageServiceBlockingStub, T> body) {
        ImageServiceGrpc.ImageServiceBlockingStub stub = ImageServiceGrpc.newBlockingStub(imageChannel.channel());
        if (deadline != null) {
            stub = stub.withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS);
        }
        try {
            return body.apply(stub);
        } catch (StatusRuntimeException e) {
            throw CriErrors.translate(e, call, subject, imageChannel.endpoint(), deadline);
        }
    }

    <T> T image(String call, String subject, Function<ImageServiceGrpc.ImageServiceBlockingStub, T> body) {
        return image(call, subject, requestTimeout, body);
    }

    @Override
    public void close() {
        if (imageChannel != runtimeChannel) {
            imageChannel.close();
        }
        runtimeChannel.close();
    }
}
