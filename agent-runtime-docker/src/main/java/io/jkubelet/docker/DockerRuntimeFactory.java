package io.jkubelet.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;
import com.github.dockerjava.transport.DockerHttpClient;
import io.jkubelet.docker.engine.DockerEngine;
import io.jkubelet.docker.engine.EngineEndpoint;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;

/**
 * Connects the adapter to a Docker daemon and checks that it answers, so that a wrong endpoint or a stopped
 * daemon stops the agent at start-up with one clear message.
 */
public final class DockerRuntimeFactory {
    /** Where dockerd listens by default. */
    public static final String DEFAULT_ENDPOINT = "unix:///var/run/docker.sock";
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);

    private DockerRuntimeFactory() {}

    /** {@link #connect(String, DockerRuntimeOptions, Clock)} with default options and the system clock. */
    public static DockerRuntime connect(String endpoint) {
        return connect(endpoint, DockerRuntimeOptions.DEFAULTS, Clock.systemUTC());
    }

    /**
     * Connects to the daemon at {@code endpoint} ({@code unix:///path} or {@code tcp://host:port}; a bare
     * absolute path means a unix socket) and pings it. The API version is left to negotiation.
     *
     * @throws IllegalArgumentException when the endpoint is malformed
     * @throws DockerUnavailableException when the daemon does not answer, with a message naming the endpoint
     */
    public static DockerRuntime connect(String endpoint, DockerRuntimeOptions options, Clock clock) {
        String normalized = normalize(endpoint);
        DockerClientConfig config = DefaultDockerClientConfig.createDefaultConfigBuilder()
                .withDockerHost(normalized)
                .withDockerTlsVerify(false)
                .build();
        DockerClient requests = client(config, options.requestTimeout());
        DockerClient streams = client(config, null);
        DockerEngine engine;
        try {
            requests.pingCmd().exec();
            engine = DockerEngine.connect(normalized, options.requestTimeout());
        } catch (RuntimeException e) {
            closeQuietly(requests);
            closeQuietly(streams);
            throw new DockerUnavailableException("cannot connect to the Docker daemon at " + normalized + ": "
                    + DockerErrors.message(e) + "; is dockerd running?", e);
        }
        return new DockerRuntime(requests, streams, engine, normalized, options, clock);
    }

    static String normalize(String endpoint) {
        return EngineEndpoint.parse(endpoint).uri();
    }

    private static DockerClient client(DockerClientConfig config, Duration responseTimeout) {
        ApacheDockerHttpClient.Builder builder = new ApacheDockerHttpClient.Builder()
                .dockerHost(config.getDockerHost())
                .sslConfig(config.getSSLConfig())
                .maxConnections(100)
                .connectionTimeout(CONNECT_TIMEOUT);
        if (responseTimeout == null) {
            return DockerClientImpl.getInstance(config, builder.build());
        }
        DockerHttpClient http = new RequestTimeouts(builder.responseTimeout(responseTimeout).build(), responseTimeout);
        return DockerClientImpl.getInstance(config, http);
    }

    private static void closeQuietly(DockerClient client) {
        try {
            client.close();
        } catch (IOException ignored) {
            // Closing a client that never connected; nothing to report.
        }
    }
}
