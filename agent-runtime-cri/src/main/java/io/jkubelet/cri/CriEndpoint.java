package io.jkubelet.cri;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;

/**
 * A CRI endpoint as the kubelet takes it ({@code containerRuntimeEndpoint}, {@code imageServiceEndpoint}): a unix
 * socket, {@code unix:///run/containerd/containerd.sock}, or a bare absolute path, which upstream also accepts.
 */
public record CriEndpoint(String text, Path socket) {

    /** Upstream's default {@code containerRuntimeEndpoint} (containerd). */
    public static final String CONTAINERD_DEFAULT = "unix:///run/containerd/containerd.sock";

    /**
     * @throws IllegalArgumentException when {@code endpoint} is empty, not a URI, or not a unix socket; the message
     *     names it
     */
    public static CriEndpoint parse(String endpoint) {
        if (endpoint == null || endpoint.isBlank()) {
            throw new IllegalArgumentException("CRI endpoint is empty; expected e.g. " + CONTAINERD_DEFAULT);
        }
        String e = endpoint.strip();
        if (e.startsWith("/")) {
            return new CriEndpoint("unix://" + e, Path.of(e));
        }
        URI uri;
        try {
            uri = new URI(e);
        } catch (URISyntaxException ex) {
            throw new IllegalArgumentException("CRI endpoint \"" + endpoint + "\" is not a URI: " + ex.getMessage(), ex);
        }
        if (!"unix".equals(uri.getScheme())) {
            throw new IllegalArgumentException("CRI endpoint \"" + endpoint
                    + "\" has an unsupported scheme; only unix sockets are supported, e.g. " + CONTAINERD_DEFAULT);
        }
        if (uri.getPath() == null || uri.getPath().isEmpty() || !uri.getPath().startsWith("/")) {
            throw new IllegalArgumentException("CRI endpoint \"" + endpoint + "\" names no absolute socket path; expected e.g. "
                    + CONTAINERD_DEFAULT);
        }
        return new CriEndpoint(e, Path.of(uri.getPath()));
    }

    @Override
    public String toString() {
        return text;
    }
}
