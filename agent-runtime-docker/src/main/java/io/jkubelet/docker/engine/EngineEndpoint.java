package io.jkubelet.docker.engine;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;

/**
 * Where dockerd listens: {@code unix:///path/to/docker.sock} (a bare absolute path means the same) or
 * {@code tcp://host:port} (plain TCP; dockerd's TLS port is not supported).
 *
 * @param uri the endpoint as the errors name it
 */
public record EngineEndpoint(String uri, SocketAddress address) {

    /** Reads an endpoint; a malformed one is refused with a message naming it and the accepted forms. */
    public static EngineEndpoint parse(String endpoint) {
        if (endpoint == null || endpoint.isBlank()) {
            throw new IllegalArgumentException("Docker endpoint is empty; expected e.g. unix:///var/run/docker.sock");
        }
        String e = endpoint.strip();
        if (e.startsWith("/")) {
            e = "unix://" + e;
        }
        URI uri;
        try {
            uri = new URI(e);
        } catch (URISyntaxException ex) {
            throw new IllegalArgumentException("Docker endpoint \"" + endpoint + "\" is not a URI: " + ex.getMessage(), ex);
        }
        if ("unix".equals(uri.getScheme())) {
            if (uri.getPath() == null || uri.getPath().isEmpty()) {
                throw new IllegalArgumentException("Docker endpoint \"" + endpoint
                        + "\" names no socket path; expected e.g. unix:///var/run/docker.sock");
            }
            return new EngineEndpoint(e, UnixDomainSocketAddress.of(uri.getPath()));
        }
        if ("tcp".equals(uri.getScheme())) {
            if (uri.getHost() == null || uri.getPort() < 0) {
                throw new IllegalArgumentException("Docker endpoint \"" + endpoint
                        + "\" needs a host and a port, e.g. tcp://127.0.0.1:2375");
            }
            return new EngineEndpoint(e, InetSocketAddress.createUnresolved(uri.getHost(), uri.getPort()));
        }
        throw new IllegalArgumentException("Docker endpoint \"" + endpoint
                + "\" has an unsupported scheme; expected unix:///path/to/docker.sock or tcp://host:port");
    }

    /** A new blocking connection to the daemon. */
    SocketChannel connect() throws IOException {
        SocketAddress target = address instanceof InetSocketAddress inet && inet.isUnresolved()
                ? new InetSocketAddress(inet.getHostString(), inet.getPort()) : address;
        return SocketChannel.open(target);
    }

    @Override
    public String toString() {
        return uri;
    }
}
