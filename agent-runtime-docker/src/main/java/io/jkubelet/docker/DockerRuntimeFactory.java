package io.jkubelet.docker;

import io.jkubelet.docker.engine.DockerEngine;
import io.jkubelet.docker.engine.EngineEndpoint;

import java.time.Clock;

/**
 * Connects the adapter to a Docker daemon and checks that it answers, so that a wrong endpoint or a stopped
 * daemon stops the agent at start-up with one clear message.
 */
public final class DockerRuntimeFactory {
    /** Where dockerd listens by default. */
    public static final String DEFAULT_ENDPOINT = "unix:///var/run/docker.sock";

    private DockerRuntimeFactory() {}

    /** {@link #connect(String, DockerRuntimeOptions, Clock)} with default options and the system clock. */
    public static DockerRuntime connect(String endpoint) {
        return connect(endpoint, DockerRuntimeOptions.DEFAULTS, Clock.systemUTC());
    }

    /**
     * Connects to the daemon at {@code endpoint} ({@code unix:///path} or {@code tcp://host:port}; a bare
     * absolute path means a unix socket) and pings it, which settles the API version.
     *
     * @throws IllegalArgumentException when the endpoint is malformed
     * @throws DockerUnavailableException when the daemon does not answer, with a message naming the endpoint
     */
    public static DockerRuntime connect(String endpoint, DockerRuntimeOptions options, Clock clock) {
        String normalized = normalize(endpoint);
        DockerEngine engine;
        try {
            engine = DockerEngine.connect(normalized, options.requestTimeout());
        } catch (RuntimeException e) {
            throw new DockerUnavailableException("cannot connect to the Docker daemon at " + normalized + ": "
                    + DockerErrors.message(e) + "; is dockerd running?", e);
        }
        return new DockerRuntime(engine, normalized, options, clock);
    }

    static String normalize(String endpoint) {
        return EngineEndpoint.parse(endpoint).uri();
    }
}
