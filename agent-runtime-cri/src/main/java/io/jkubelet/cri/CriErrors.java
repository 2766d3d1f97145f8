package io.jkubelet.cri;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.jkubelet.core.runtime.NotFoundException;

import java.time.Duration;

/**
 * Turns a failed CRI call into the runtime port's exceptions: NotFound into {@link NotFoundException}, a runtime
 * that does not answer into {@link CriUnavailableException} naming the endpoint, a deadline into a message naming
 * {@code runtimeRequestTimeout}; every message names the call and the object it was about.
 */
final class CriErrors {
    private CriErrors() {}

    /** Whether the call failed because its deadline passed, on our side or the runtime's. */
    static boolean isTimeout(RuntimeException e) {
        return e.getCause() instanceof StatusRuntimeException s && s.getStatus().getCode() == Status.Code.DEADLINE_EXCEEDED;
    }

    static RuntimeException translate(StatusRuntimeException e, String call, String subject, CriEndpoint endpoint,
                                      Duration timeout) {
        Status status = e.getStatus();
        String what = call + (subject == null || subject.isEmpty() ? "" : " " + subject);
        String detail = status.getDescription() == null ? status.getCode().toString() : status.getDescription();
        return switch (status.getCode()) {
            case NOT_FOUND -> new NotFoundException(what + ": " + detail);
            case UNAVAILABLE -> new CriUnavailableException("CRI runtime at " + endpoint + " is unavailable ("
                    + what + "): " + detail, e);
            case DEADLINE_EXCEEDED -> new CriCallException(what + " got no answer from " + endpoint + " within "
                    + timeout.toSeconds() + " s (runtimeRequestTimeout)", e);
            default -> new CriCallException(what + ": " + detail, e);
        };
    }
}
