package io.jkubelet.server.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One HTTP response: status, headers in insertion order, and either a complete body or a {@link BodyWriter}
 * that streams it ({@link #streaming}). Immutable and thread-safe.
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
    private final BodyWriter writer;
    private final HttpUpgrade upgrade;

    private Response(int status, Map<String, List<String>> headers, byte[] body, BodyWriter writer) {
        this(status, headers, body, writer, null);
    }

    private Response(int status, Map<String, List<String>> headers, byte[] body, BodyWriter writer, HttpUpgrade upgrade) {
        this.status = status;
        this.headers = headers;
        this.body = body;
        this.writer = writer;
        this.upgrade = upgrade;
    }

    /**
     * Not an HTTP answer: the connection is handed to {@code upgrade}, which answers (101 or an error)
     * and serves the new protocol on it. No further request is read from that connection.
     */
    public static Response upgrade(HttpUpgrade upgrade) {
        return new Response(101, new LinkedHashMap<>(), new byte[0], null, Objects.requireNonNull(upgrade, "upgrade"));
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
        return new Response(status, headers, body.clone(), null);
    }

    /**
     * A response whose body {@code writer} produces while it is sent, as Go's handlers that write and flush
     * as they go: HTTP/1.1 clients get it with {@code Transfer-Encoding: chunked} (the connection stays
     * usable afterwards), HTTP/1.0 clients get the bare bytes and the connection closes at the end. The
     * writer runs on a virtual thread of its own after the status and headers are sent; see {@link
     * BodyWriter} for how it learns that the client went away.
     *
     * @param contentType the content type, or null to send none (Go sends none when a handler set
     *     {@code Transfer-Encoding} itself and no type)
     */
    public static Response streaming(int status, String contentType, BodyWriter writer) {
        Objects.requireNonNull(writer, "writer");
        Map<String, List<String>> headers = new LinkedHashMap<>();
        if (contentType != null) {
            headers.put("Content-Type", List.of(contentType));
        }
        return new Response(status, headers, new byte[0], writer);
    }

    /** {@code text} as {@code text/plain; charset=utf-8}. */
    public static Response text(int status, String text) {
        return of(status, TEXT_PLAIN_UTF8, text.getBytes(StandardCharsets.UTF_8));
    }

    /** A 200 JSON answer, as go-restful's {@code writeJSON} sends it. */
    public static Response json(byte[] json) {
        return of(200, APPLICATION_JSON, json);
    }

    /**
     * As {@link #json(byte[])} without copying {@code json}, for cached encodings that many requests answer
     * with at once (a 220 KB pod list copied per request was a large part of its cost). The caller must
     * never change the array afterwards.
     */
    public static Response sharedJson(byte[] json) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("Content-Type", List.of(APPLICATION_JSON));
        return new Response(200, headers, json, null);
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
        return new Response(status, copy, body, writer, upgrade);
    }

    public int status() {
        return status;
    }

    /** The headers, in insertion order; the server adds Content-Length, Date and Connection. */
    public Map<String, List<String>> headers() {
        return Collections.unmodifiableMap(headers);
    }

    /** Whether the body is streamed by a {@link BodyWriter} rather than held whole. */
    public boolean isStreaming() {
        return writer != null;
    }

    /** The writer of a {@linkplain #isStreaming() streaming} response; null for a complete one. */
    BodyWriter writer() {
        return writer;
    }

    /** A copy of the body; empty for a streaming response. */
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
