package io.jkubelet.core.probe;

import java.util.List;
import java.util.Objects;

/**
 * A GET to send for an {@code httpGet} probe or lifecycle hook, as built by {@link HttpGetRequests}.
 *
 * @param scheme {@code http} or {@code https} (lower case)
 * @param host the host to connect to (an IPv6 literal without brackets)
 * @param port 1–65535
 * @param target the request target: path (starting with {@code /}) and optional {@code ?query}, already
 *     escaped for the request line
 * @param hostHeader the {@code Host} header value: {@code host:port}, or the {@code Host} given in
 *     {@code httpHeaders}
 * @param headers the other headers, in the order they are sent ({@code User-Agent}, {@code Accept} and the
 *     action's {@code httpHeaders})
 */
public record HttpGetRequest(String scheme, String host, int port, String target, String hostHeader,
                             List<HttpHeader> headers) {
    public HttpGetRequest {
        Objects.requireNonNull(scheme, "scheme");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(hostHeader, "hostHeader");
        headers = List.copyOf(headers);
    }

    /** The URL as upstream prints it in messages, e.g. {@code http://10.0.0.5:8080/healthz}. */
    public String url() {
        return scheme + "://" + GoFormat.joinHostPort(host, port) + target;
    }

    /** The first value of a header (case-insensitive name), or null. */
    public String header(String name) {
        for (HttpHeader h : headers) {
            if (h.name().equalsIgnoreCase(name)) {
                return h.value();
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return "GET " + url();
    }
}
