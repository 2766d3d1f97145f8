package io.jkubelet.server.http;

import io.netty.channel.Channel;

/**
 * Takes over a connection whose request a handler answered by switching protocols (WebSocket, SPDY), as
 * Go's {@code http.Hijacker} lets a handler do. Returned through {@link Response#upgrade(HttpUpgrade)}.
 */
@FunctionalInterface
public interface HttpUpgrade {

    /**
     * Called once, on the connection's event loop, after the server has stopped serving HTTP on it: the
     * pipeline still holds the TLS handler (if any), the HTTP codec ({@code "codec"}) and the aggregator
     * ({@code "aggregator"}), but no dispatcher and no HTTP idle timeout. The upgrade writes its own
     * answer ({@code 101 Switching Protocols} or an error), installs its handlers and from then on owns
     * the connection and closes it. Must not block. Also called when the client has already gone, so
     * that the upgrade can release what it holds (the channel is then inactive).
     */
    void takeOver(Channel channel);
}
