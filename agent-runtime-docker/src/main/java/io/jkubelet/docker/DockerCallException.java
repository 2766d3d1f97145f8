package io.jkubelet.docker;

/**
 * A Docker call failed for a reason other than a missing object. The message names the call and its object
 * and carries Docker's own message, e.g. {@code create container k8s_app_web_default_...: Conflict. ...}.
 */
public class DockerCallException extends RuntimeException {
    private final int httpStatus;

    DockerCallException(String message, int httpStatus, Throwable cause) {
        super(message, cause);
        this.httpStatus = httpStatus;
    }

    /** The HTTP status Docker answered with, or 0 when there was no answer (e.g. the daemon is down). */
    public int httpStatus() {
        return httpStatus;
    }
}
