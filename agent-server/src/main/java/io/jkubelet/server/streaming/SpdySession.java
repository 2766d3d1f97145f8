package io.jkubelet.server.streaming;

import io.jkubelet.server.http.HttpUpgrade;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.spdy.SpdyFrameCodec;
import io.netty.handler.codec.spdy.SpdySessionHandler;
import io.netty.handler.codec.spdy.SpdyVersion;
import io.netty.handler.timeout.IdleStateHandler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One streaming session over SPDY/3.1, as {@code httpstream/spdy}'s response upgrader serves it: {@code
 * 101 Switching Protocols} with {@code Upgrade: SPDY/3.1} and the negotiated {@code
 * X-Stream-Protocol-Version}, then SPDY frames on the connection (Netty's codec and session handler,
 * then {@link SpdyStreams}). The session's {@link Body} runs on its own virtual thread; the connection is
 * closed when it returns, and its place among {@link StreamingSessions} given back when it has closed.
 */
final class SpdySession implements HttpUpgrade {

    private static final Logger log = LoggerFactory.getLogger(SpdySession.class);
    private static final DateTimeFormatter HTTP_DATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);

    @FunctionalInterface
    interface Body {
        void run(SpdyStreams streams) throws InterruptedException, IOException;
    }

    private final String name;
    private final String protocolVersion;
    private final Predicate<String> readable;
    private final StreamingSessions sessions;
    private final Body body;

    /**
     * @param protocolVersion the negotiated {@code X-Stream-Protocol-Version}
     * @param readable which stream types the session reads from the client
     */
    SpdySession(String name, String protocolVersion, Predicate<String> readable, StreamingSessions sessions, Body body) {
        this.name = name;
        this.protocolVersion = protocolVersion;
        this.readable = readable;
        this.sessions = sessions;
        this.body = body;
    }

    @Override
    public void takeOver(Channel channel) {
        SpdyStreams streams = new SpdyStreams(channel, readable);
        AtomicReference<Thread> worker = SessionWorker.endWithConnection(name, channel, streams::finishInputs, sessions);
        if (!channel.isActive()) {
            return;
        }
        ChannelPipeline p = channel.pipeline();
        String answer = "HTTP/1.1 101 Switching Protocols\r\n"
                + "Connection: Upgrade\r\n"
                + "Upgrade: SPDY/3.1\r\n"
                + "X-Stream-Protocol-Version: " + protocolVersion + "\r\n"
                + "Date: " + HTTP_DATE.format(ZonedDateTime.now(ZoneOffset.UTC)) + "\r\n\r\n";
        // Written below the HTTP codec, as raw bytes; the SPDY handlers replace the codec once it is out (the
        // client sends no frame before it has read the answer), so that no SPDY frame can precede it.
        p.context("codec").writeAndFlush(Unpooled.copiedBuffer(answer, StandardCharsets.US_ASCII)).addListener(f -> {
            if (!f.isSuccess() || !channel.isActive()) {
                channel.close();
                return;
            }
            p.remove("aggregator");
            p.remove("codec");
            p.addLast("spdy-codec", new SpdyFrameCodec(SpdyVersion.SPDY_3_1));
            p.addLast("spdy-session", new SpdySessionHandler(SpdyVersion.SPDY_3_1, true));
            long idle = sessions.idleTimeout().toMillis();
            if (idle > 0) {
                p.addLast("stream-idle", new IdleStateHandler(0, 0, idle, TimeUnit.MILLISECONDS));
            }
            p.addLast("spdy-streams", streams);
            log.debug("{}: SPDY session open with protocol {}", name, protocolVersion);
            SessionWorker.start(name, channel, worker, () -> body.run(streams), streams::close);
        });
    }


}
