package io.jkubelet.docker.engine;

/**
 * A Docker Engine API call failed. The message names the call and its object and carries the daemon's own
 * {@code message}; the subclasses say which of the answers a caller acts on it was ({@link NotFound},
 * {@link Conflict}, {@link NotModified}), or that no answer came ({@link Unreachable}, {@link Timeout}).
 */
public class EngineCallException extends RuntimeException {
    private final int status;
    private final String daemonMessage;

    EngineCallException(String call, int status, String daemonMessage, Throwable cause) {
        super(call + ": " + daemonMessage, cause);
        this.status = status;
        this.daemonMessage = daemonMessage;
    }

    /** The HTTP status the daemon answered with, or 0 when it did not answer. */
    public int status() {
        return status;
    }

    /** What the daemon said ({@code {"message": ...}}), or why there was no answer. */
    public String daemonMessage() {
        return daemonMessage;
    }

    /** The exception for an error answer, by its status. */
    static EngineCallException of(String call, int status, String daemonMessage) {
        return switch (status) {
            case 404 -> new NotFound(call, daemonMessage);
            case 409 -> new Conflict(call, daemonMessage);
            case 304 -> new NotModified(call, daemonMessage);
            default -> new EngineCallException(call, status, daemonMessage, null);
        };
    }

    /** 404: no such container, image or exec. */
    public static final class NotFound extends EngineCallException {
        NotFound(String call, String daemonMessage) {
            super(call, 404, daemonMessage, null);
        }
    }

    /** 409: e.g. a container name in use, or removing a running container without force. */
    public static final class Conflict extends EngineCallException {
        Conflict(String call, String daemonMessage) {
            super(call, 409, daemonMessage, null);
        }
    }

    /** 304: the container was already started or already stopped. */
    public static final class NotModified extends EngineCallException {
        NotModified(String call, String daemonMessage) {
            super(call, 304, daemonMessage, null);
        }
    }

    /** The daemon could not be reached at its endpoint, or the connection broke. */
    public static final class Unreachable extends EngineCallException {
        Unreachable(String call, String reason, Throwable cause) {
            super(call, 0, reason, cause);
        }
    }

    /** The daemon did not answer within the call's timeout. */
    public static final class Timeout extends EngineCallException {
        Timeout(String call, String reason, Throwable cause) {
            super(call, 0, reason, cause);
        }
    }
}
