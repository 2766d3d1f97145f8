package io.jkubelet.docker;

/** The Docker daemon at the configured endpoint does not answer; the agent cannot start without it. */
public class DockerUnavailableException extends RuntimeException {
    DockerUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
