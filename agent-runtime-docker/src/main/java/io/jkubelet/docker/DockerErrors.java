package io.jkubelet.docker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.exception.DockerException;
import io.jkubelet.core.runtime.NotFoundException;
import io.jkubelet.docker.engine.EngineCallException;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Turns docker-java's exceptions into the port's: {@link NotFoundException} or {@link DockerCallException}. */
final class DockerErrors {
    private DockerErrors() {}

    private static final ObjectMapper JSON = new ObjectMapper();
    /** docker-java's message for an error answer: {@code Status 404: {"message":"No such container: x"}}. */
    private static final Pattern STATUS_BODY = Pattern.compile("(?s)^Status \\d+: (.*)$");

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
        if (failure instanceof com.github.dockerjava.api.exception.NotFoundException) {
            return new NotFoundException(what + ": " + message(failure));
        }
        int status = failure instanceof DockerException de ? de.getHttpStatus() : 0;
        return new DockerCallException(what + ": " + message(failure), status, failure);
    }

    static boolean isNotFound(Throwable failure) {
        return failure instanceof com.github.dockerjava.api.exception.NotFoundException
                || failure instanceof EngineCallException.NotFound;
    }

    static boolean isConflict(Throwable failure) {
        return failure instanceof com.github.dockerjava.api.exception.ConflictException
                || failure instanceof EngineCallException.Conflict;
    }

    /** Docker's own message from an error answer, or the causes' messages when Docker did not answer. */
    static String message(Throwable failure) {
        if (failure instanceof EngineCallException e) {
            return e.daemonMessage();
        }
        if (failure instanceof DockerException && failure.getMessage() != null) {
            String raw = failure.getMessage().strip();
            Matcher m = STATUS_BODY.matcher(raw);
            String body = m.matches() ? m.group(1).strip() : raw;
            try {
                JsonNode node = JSON.readTree(body);
                if (node != null && node.hasNonNull("message")) {
                    return node.get("message").asText().strip();
                }
            } catch (Exception notJson) {
                // Docker answered with plain text; use it as it is.
            }
            return body;
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
