package io.jkubelet.server.http;

import io.netty.handler.codec.http.FullHttpRequest;
import java.util.ArrayDeque;

/** One connection's state in the {@link RequestDispatcher}; confined to the connection's event loop. */
final class HttpConnection {
    /** A request is being answered: further (pipelined) requests wait in {@link #pending}, as Go serves serially. */
    boolean busy;
    /** The server is shutting down: close once the current response is out. */
    boolean closeWhenIdle;
    /** Handed to an {@link HttpUpgrade}: no HTTP request will finish on it, so a shutdown need not wait. */
    boolean upgraded;
    final ArrayDeque<FullHttpRequest> pending = new ArrayDeque<>();
    /** The body being streamed on this connection, if any. */
    ChannelResponseStream stream;

    /** Drops the pipelined requests that will not be answered (the connection closes or is handed over). */
    void releasePending() {
        pending.forEach(FullHttpRequest::release);
        pending.clear();
    }
}
