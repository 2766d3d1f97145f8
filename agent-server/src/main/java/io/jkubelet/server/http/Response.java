package io.jkubelet.server.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One complete HTTP response: status, headers in insertion order, body. Immutable and thread-safe.
 *
 * <p>The factories reproduce what the kubelet's Go stack sends for the same case, so clients that
 * compare texts or content types see no difference: {@link #goError} is Go's {@code http.Error}, {@link
 * #restfulError} is go-restful's {@code WriteErrorString}, {@link #json} is go-restful's {@code
 * writeJSON}.
 */
public final class Response {

    /** Go's content type for text it writes or sniffs as text. */
    public static final String TEXT_PLAIN_UTF8 = "text/plain; charset=utf-8";

    /** go-restful's {@code MIME_JSON}. */
    public static final String APPLICATION_JSON = "application/json";

    private final int status;
    private final Map<String, List<String>> headers;
    private final byte[] body;
    private final HttpUpgrade upgrade;

    private Response(int status, Map<String, List<String>> headers, byte[] body) {
        this(status, headers, body, null);
    }

    private Response(int status, Map<String, List<String>> headers, byte[] body, HttpUpgrade upgrade) {
        this.status = status;
        this.headers = headers;
        this.body = body;
        this.upgrade = upgrade;
    }

    /**
     * Not an HTTP answer: the connection is handed to {@code upgrade}, which answers (101 or an error)
     * and serves the new protocol on it. No further request is read from that connection.
     */
    public static Response upgrade(HttpUpgrade upgrade) {
        return new Response(101, new LinkedHashMap<>(), new byte[0], java.util.Objects.requireNonNull(upgrade, "upgrade"));
    }

    /** What takes over the connection, or null for an ordinary response. */
    HttpUpgrade upgradeHandler() {
        return upgrade;
    }

    /** A response with the given status, content type (null for none) and body. */
    public static Response of(int status, String contentType, byte[] body) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        if (contentType != null) {
            headers.put("Content-Type", List.of(contentType));
        }
        return new Response(status, headers, body.clone());
    }

    /** {@code text} as {@code text/plain; charset=utf-8}. */
    public static Response text(int status, String text) {
        return of(status, TEXT_PLAIN_UTF8, text.getBytes(StandardCharsets.UTF_8));
    }

    /** A 200 JSON answer, as go-restful's {@code writeJSON} sends it. */
    public static Response json(byte[] json) {
        return of(200, APPLICATION_JSON, json);
    }

    /** Go's {@code http.Error}: the message and a newline, text/plain, and {@code nosniff}. */
    public static Response goError(int status, String message) {
        return text(status, message + "\n").withHeader("X-Content-Type-Options", "nosniff");
    }

    /** go-restful's {@code WriteErrorString}: the bare message, which Go sniffs as text/plain. */
    public static Response restfulError(int status, String message) {
        return text(status, message);
    }

    /** This response with one more value for header {@code name}. */
    public Response withHeader(String name, String value) {
        Map<String, List<String>> copy = new LinkedHashMap<>(headers);
        List<String> values = new ArrayList<>(copy.getOrDefault(name, List.of()));
        values.add(value);
        copy.put(name, List.copyOf(values));
        return new Response(status, copy, body, upgrade);
    }

    public int status() {
        return status;
    }

    /** The headers, in insertion order; the server adds Content-Length, Date and Connection. */
    public Map<String, List<String>> headers() {
        return java.util.Collections.unmodifiableMap(headers);
    }

    /** A copy of the body. */
    public byte[] body() {
        return body.clone();
    }

    int bodyLength() {
        return body.length;
    }

    byte[] bodyUnsafe() {
        return body;
    }
}
