package io.jkubelet.server.http;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * How an {@link HttpServer} listens and what it tolerates.
 *
 * @param name a short name for logs and thread names ({@code readonly}, {@code healthz})
 * @param bindAddress the address to listen on; {@code 0.0.0.0} or {@code ::} for every interface
 * @param port the TCP port; 0 picks a free one (read it back with {@link HttpServer#port()})
 * @param idleTimeout how long a connection may wait for its next request before it is closed
 * @param maxHeaderBytes the most bytes a request line or the header block may take (Go's {@code
 *     MaxHeaderBytes}, with Go's 4096 bytes of slack on top); more gets 431
 * @param maxContentLength the most bytes a request body may take; more gets 413
 * @param shutdownTimeout how long {@link HttpServer#close()} waits for requests in progress
 * @param ioThreads Netty event-loop threads (they accept, read, parse and write; never block)
 * @param clock the clock for the {@code Date} header
 */
public record HttpServerConfig(
        String name,
        InetAddress bindAddress,
        int port,
        Duration idleTimeout,
        int maxHeaderBytes,
        int maxContentLength,
        Duration shutdownTimeout,
        int ioThreads,
        Clock clock) {

    /** The kubelet's {@code IdleTimeout}: "matches http.DefaultTransport keep-alive timeout". */
    public static final Duration KUBELET_IDLE_TIMEOUT = Duration.ofSeconds(90);

    /** The kubelet's {@code MaxHeaderBytes}: 1 MiB. */
    public static final int KUBELET_MAX_HEADER_BYTES = 1 << 20;

    /**
     * Request bodies the kubelet's endpoints take are small (none of the read-only ones take any); 1 MiB
     * bounds memory per connection, since bodies are read whole before the handler runs.
     */
    public static final int DEFAULT_MAX_CONTENT_LENGTH = 1 << 20;

    public HttpServerConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(bindAddress, "bindAddress");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(shutdownTimeout, "shutdownTimeout");
        Objects.requireNonNull(clock, "clock");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(name + " server: port " + port + " is outside 0..65535");
        }
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException(name + " server: idleTimeout must be positive, got " + idleTimeout);
        }
        if (maxHeaderBytes < 1024) {
            throw new IllegalArgumentException(name + " server: maxHeaderBytes must be at least 1024, got " + maxHeaderBytes);
        }
        if (maxContentLength < 0) {
            throw new IllegalArgumentException(name + " server: maxContentLength must not be negative");
        }
        if (ioThreads < 1) {
            throw new IllegalArgumentException(name + " server: ioThreads must be at least 1, got " + ioThreads);
        }
    }

    /** The kubelet's settings (90 s idle, 1 MiB headers) on {@code bindAddress:port}. */
    public static HttpServerConfig kubeletDefaults(String name, InetAddress bindAddress, int port) {
        return new HttpServerConfig(
                name,
                bindAddress,
                port,
                KUBELET_IDLE_TIMEOUT,
                KUBELET_MAX_HEADER_BYTES,
                DEFAULT_MAX_CONTENT_LENGTH,
                Duration.ofSeconds(5),
                Math.min(2, Runtime.getRuntime().availableProcessors()),
                Clock.systemUTC());
    }

    public HttpServerConfig withIdleTimeout(Duration value) {
        return new HttpServerConfig(name, bindAddress, port, value, maxHeaderBytes, maxContentLength, shutdownTimeout, ioThreads, clock);
    }

    public HttpServerConfig withMaxHeaderBytes(int value) {
        return new HttpServerConfig(name, bindAddress, port, idleTimeout, value, maxContentLength, shutdownTimeout, ioThreads, clock);
    }

    public HttpServerConfig withMaxContentLength(int value) {
        return new HttpServerConfig(name, bindAddress, port, idleTimeout, maxHeaderBytes, value, shutdownTimeout, ioThreads, clock);
    }

    public HttpServerConfig withShutdownTimeout(Duration value) {
        return new HttpServerConfig(name, bindAddress, port, idleTimeout, maxHeaderBytes, maxContentLength, value, ioThreads, clock);
    }

    public HttpServerConfig withClock(Clock value) {
        return new HttpServerConfig(name, bindAddress, port, idleTimeout, maxHeaderBytes, maxContentLength, shutdownTimeout, ioThreads, value);
    }
}
