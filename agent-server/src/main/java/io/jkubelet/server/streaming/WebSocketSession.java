package io.jkubelet.server.streaming;

import io.jkubelet.server.http.HttpUpgrade;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.netty.handler.codec.http.websocketx.WebSocketServerHandshaker;
import io.netty.handler.timeout.IdleStateHandler;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One streaming session over WebSocket: completes the handshake on the connection the HTTP server hands
 * over, then runs the session's {@link Body} on its own virtual thread (it blocks on the runtime for the
 * session's whole life) and closes the connection when the body returns. When the client goes first,
 * every input ends and the body's thread is interrupted. The session's place among {@link
 * StreamingSessions} is given back when the connection has closed, whatever happened.
 */
final class WebSocketSession implements HttpUpgrade {

    private static final Logger log = LoggerFactory.getLogger(WebSocketSession.class);

    /** The largest client message; stdin chunks and resize events are far smaller. */
    static final int MAX_MESSAGE_BYTES = 1 << 20;

    /** What the session does once the connection speaks WebSocket. */
    @FunctionalInterface
    interface Body {
        void run(WebSocketChannels channels) throws InterruptedException, IOException;
    }

    private final String name;
    private final WebSocketServerHandshaker handshaker;
    private final FullHttpRequest handshakeRequest;
    private final ChannelProtocol protocol;
    private final boolean[] readable;
    private final StreamingSessions sessions;
    private final Body body;

    /**
     * @param name what the session is, for logs and its thread's name ({@code exec ns/pod/container})
     * @param handshakeRequest released by this session
     */
    WebSocketSession(String name, WebSocketServerHandshaker handshaker, FullHttpRequest handshakeRequest,
            ChannelProtocol protocol, boolean[] readable, StreamingSessions sessions, Body body) {
        this.name = name;
        this.handshaker = handshaker;
        this.handshakeRequest = handshakeRequest;
        this.protocol = protocol;
        this.readable = readable.clone();
        this.sessions = sessions;
        this.body = body;
    }

    @Override
    public void takeOver(Channel channel) {
        WebSocketChannels channels = new WebSocketChannels(channel, protocol, readable);
        AtomicReference<Thread> worker = SessionWorker.endWithConnection(name, channel, channels::finishInputs, sessions);
        if (!channel.isActive()) {
            handshakeRequest.release();
            return;
        }
        channel.pipeline().addLast("ws-aggregator", new WebSocketFrameAggregator(MAX_MESSAGE_BYTES));
        long idle = sessions.idleTimeout().toMillis();
        if (idle > 0) {
            channel.pipeline().addLast("stream-idle", new IdleStateHandler(0, 0, idle, TimeUnit.MILLISECONDS));
        }
        channel.pipeline().addLast("streams", channels);
        ChannelFuture handshake;
        try {
            handshake = handshaker.handshake(channel, handshakeRequest);
        } finally {
            handshakeRequest.release();
        }
        handshake.addListener(f -> {
            if (!f.isSuccess()) {
                log.debug("{}: WebSocket handshake failed: {}", name, f.cause().toString());
                channel.close();
                return;
            }
            log.debug("{}: WebSocket session open with subprotocol \"{}\"", name, protocol.wireName);
            SessionWorker.start(name, channel, worker, () -> body.run(channels), channels::close);
        });
    }

}
