package io.jkubelet.core.apierrors;

import io.fabric8.kubernetes.api.model.Status;

import java.util.Optional;

/**
 * A request to the apiserver that failed: refused with an HTTP status ({@link #code()}, and the {@link Status} the
 * apiserver sent, as upstream's {@code StatusError}), or without an answer ({@link #NO_ANSWER}: unreachable, timed
 * out, interrupted). Unchecked, like the client exceptions it stands for: each loop catches it where it has a retry
 * of its own, and a loop that does not expect it still logs it as any other runtime failure.
 */
public final class ApiException extends RuntimeException {
    /** The code of a request that got no answer. */
    public static final int NO_ANSWER = 0;

    private final int code;
    private final Status status;

    /**
     * @param code the HTTP status the apiserver answered with; {@link #NO_ANSWER} when there was none
     * @param status the apiserver's Status, when it sent one
     * @param cause why no answer came (an {@code IOException}, say); null for a refusal
     */
    public ApiException(String message, int code, Status status, Throwable cause) {
        super(message, cause);
        this.code = code;
        this.status = status;
    }

    /** The HTTP status of the answer; {@link #NO_ANSWER} when the apiserver gave none. */
    public int code() {
        return code;
    }

    /** The Status the apiserver answered with (its message is meant for users), when it sent one. */
    public Optional<Status> status() {
        return Optional.ofNullable(status);
    }
}
