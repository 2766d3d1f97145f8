package io.jkubelet.server.http;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;

/**
 * Where a {@link BodyWriter} writes a streamed body. Bytes are buffered and sent as one chunk when the buffer
 * is full or at {@link #flush()}; a write or flush blocks while the connection's outgoing buffer is over its
 * high-water mark (the client reads slowly), and throws {@link ClientGoneException} once the client has gone.
 * Used by one writer thread; {@link #clientGone()} may be read from any thread.
 */
public abstract class ResponseStream extends OutputStream {

    /** Thrown by a write or flush after the client closed the connection or the server shut down. */
    public static final class ClientGoneException extends IOException {
        public ClientGoneException(String message) {
            super(message);
        }
    }

    /** Whether the client is gone (connection closed, or the server is closing it): stop writing. */
    public abstract boolean clientGone();

    /**
     * Waits up to {@code timeout} or until the client goes away, whichever comes first; returns whether the
     * client is gone. For writers that poll for new data: they wake at once when nobody reads anymore.
     */
    public abstract boolean awaitClientGone(Duration timeout) throws InterruptedException;
}
