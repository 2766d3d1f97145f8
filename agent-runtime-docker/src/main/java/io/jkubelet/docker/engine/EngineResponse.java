package io.jkubelet.docker.engine;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * An answer of the daemon: its head and its body, to be read to its end or closed. Reading to the end returns a
 * kept-alive connection to the pool; closing earlier drops it (a stream is stopped so).
 */
public final class EngineResponse implements AutoCloseable {
    /** How much of an error answer's body is read for its message. */
    private static final int MAX_ERROR_BODY = 64 * 1024;

    private final ResponseHead head;
    private final InputStream body;

    EngineResponse(ResponseHead head, InputStream body) {
        this.head = head;
        this.body = body;
    }

    public int status() {
        return head.status();
    }

    /** The first value of a header, or null. */
    public String header(String name) {
        return head.header(name);
    }

    public InputStream body() {
        return body;
    }

    /** The whole body as text (for error answers and small ones). */
    String text(int limit) throws IOException {
        byte[] bytes = body.readNBytes(limit);
        if (body.read() >= 0) {
            body.close();
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * Throws the exception that an error answer (status 300 and above) stands for, with the daemon's message;
     * returns this response otherwise.
     */
    EngineResponse requireSuccess(String call) throws IOException {
        if (head.status() < 300) {
            return this;
        }
        try {
            String text = text(MAX_ERROR_BODY);
            String message = text.isBlank() ? head.status() + " " + head.reason() : EngineJson.messageOf(text);
            throw EngineCallException.of(call, head.status(), message);
        } finally {
            close();
        }
    }

    @Override
    public void close() {
        try {
            body.close();
        } catch (IOException ignored) {
            // The body's own close drops or returns the connection; nothing else to release.
        }
    }
}
