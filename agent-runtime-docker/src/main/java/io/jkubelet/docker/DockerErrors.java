package io.jkubelet.docker;

import io.jkubelet.core.runtime.NotFoundException;
import io.jkubelet.docker.engine.EngineCallException;

/** Turns the engine client's exceptions into the port's: {@link NotFoundException} or {@link DockerCallException}. */
final class DockerErrors {
    private DockerErrors() {}

    /**
     * The exception the port throws for a failed call.
     *
     * @param what the call and its object, e.g. {@code inspect container 3f2a...}
     */
    static RuntimeException translate(String what, Throwable failure) {
        if (failure instanceof EngineCallException.NotFound e) {
            return new NotFoundException(what + ": " + e.daemonMessage());
        }
        if (failure instanceof EngineCallException e) {
            return new DockerCallException(what + ": " + e.daemonMessage(), e.status(), e);
        }
        return new DockerCallException(what + ": " + message(failure), 0, failure);
    }

    static boolean isNotFound(Throwable failure) {
        return failure instanceof EngineCallException.NotFound;
    }

    static boolean isConflict(Throwable failure) {
        return failure instanceof EngineCallException.Conflict;
    }

    /** Docker's own message from an error answer, or the causes' messages when Docker did not answer. */
    static String message(Throwable failure) {
        if (failure instanceof EngineCallException e) {
            return e.daemonMessage();
        }
        StringBuilder text = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            String part = t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
            if (text.indexOf(part) < 0) {
                if (!text.isEmpty()) {
                    text.append(": ");
                }
                text.append(part);
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return text.toString();
    }
}
