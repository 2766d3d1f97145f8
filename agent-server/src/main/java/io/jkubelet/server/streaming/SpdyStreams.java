package io.jkubelet.server.streaming;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.spdy.DefaultSpdyDataFrame;
import io.netty.handler.codec.spdy.DefaultSpdyGoAwayFrame;
import io.netty.handler.codec.spdy.DefaultSpdySynReplyFrame;
import io.netty.handler.codec.spdy.SpdyDataFrame;
import io.netty.handler.codec.spdy.SpdyGoAwayFrame;
import io.netty.handler.codec.spdy.SpdyRstStreamFrame;
import io.netty.handler.codec.spdy.SpdySynStreamFrame;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The streams of an SPDY/3.1 streaming session, as Kubernetes' {@code httpstream/spdy} uses them: the
 * client opens one SPDY stream per purpose, named by its {@code streamType} header (and, for
 * port-forward, {@code port} and {@code requestID}); the server replies to each, reads what the client
 * sends on it (a FIN ends it, as stdin's end) and writes on the others.
 *
 * <p>The frames' flow control and pings are Netty's {@code SpdySessionHandler}'s; this handler sits
 * after it. Event-loop confined, except {@link #output} writes and {@link #close}, which the session's
 * threads call.
 */
final class SpdyStreams extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(SpdyStreams.class);

    /** One client stream: its id, headers and, when the session reads it, its input. */
    record Stream(int id, String type, String port, String requestId, ChannelInput input) {}

    private final Channel channel;
    private final Map<Integer, Stream> streams = new ConcurrentHashMap<>();
    /** Streams as they arrive, for the session's thread. */
    final LinkedBlockingQueue<Stream> arrivals = new LinkedBlockingQueue<>();
    private final Predicate<String> readable;

    /** @param readable which stream types the session reads from the client */
    SpdyStreams(Channel channel, Predicate<String> readable) {
        this.channel = channel;
        this.readable = readable;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            switch (msg) {
                case SpdySynStreamFrame syn -> {
                    String type = header(syn, "streamtype");
                    ChannelInput input = readable.test(type) ? new ChannelInput(channel) : null;
                    Stream stream = new Stream(syn.streamId(), type, header(syn, "port"), header(syn, "requestid"), input);
                    streams.put(stream.id(), stream);
                    ctx.writeAndFlush(reply(stream));
                    if (syn.isLast() && input != null) {
                        input.finish();
                    }
                    arrivals.add(stream);
                }
                case SpdyDataFrame data -> {
                    Stream stream = streams.get(data.streamId());
                    if (stream != null && stream.input() != null) {
                        stream.input().offer(ByteBufUtil.getBytes(data.content()));
                        if (data.isLast()) {
                            stream.input().finish();
                        }
                    }
                }
                case SpdyRstStreamFrame rst -> {
                    Stream stream = streams.get(rst.streamId());
                    if (stream != null && stream.input() != null) {
                        stream.input().finish();
                    }
                }
                case SpdyGoAwayFrame goAway -> ctx.close();
                default -> { /* settings, window updates, pings: the session handler's */ }
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    /**
     * The reply that opens a stream for the client. It carries the stream's type back: Go's SPDY framer (every
     * Kubernetes client) cannot read a header block of no bytes, which is what Netty encodes for no headers, and
     * drops the connection ("lost connection to pod"); Go itself encodes an empty set as a count of 0.
     */
    private static DefaultSpdySynReplyFrame reply(Stream stream) {
        DefaultSpdySynReplyFrame reply = new DefaultSpdySynReplyFrame(stream.id());
        reply.headers().set("streamtype", stream.type());
        return reply;
    }

    private static String header(SpdySynStreamFrame syn, String name) {
        String value = syn.headers().getAsString(name);
        return value == null ? "" : value;
    }

    /** Writes to the client's stream {@code id}; closing it sends a FIN. */
    OutputStream output(int id) {
        return new OutputStream() {
            private boolean closed;

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                while (len > 0) {
                    int n = Math.min(len, ChannelOutput.MAX_MESSAGE);
                    send(new DefaultSpdyDataFrame(id, Unpooled.copiedBuffer(b, off, n)));
                    off += n;
                    len -= n;
                }
            }

            @Override
            public synchronized void close() throws IOException {
                if (!closed) {
                    closed = true;
                    DefaultSpdyDataFrame fin = new DefaultSpdyDataFrame(id);
                    fin.setLast(true);
                    send(fin);
                }
            }
        };
    }

    private void send(SpdyDataFrame frame) throws IOException {
        if (!channel.isActive()) {
            frame.release();
            throw new IOException("the client closed the connection");
        }
        ChannelFuture written = channel.writeAndFlush(frame);
        if (!channel.isWritable()) {
            try {
                written.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("streaming session ended");
            }
        }
    }

    /** Ends every input: the client can send nothing more. */
    void finishInputs() {
        streams.values().forEach(s -> {
            if (s.input() != null) {
                s.input().finish();
            }
        });
    }

    /** Ends the session: GOAWAY, then the connection is closed. */
    void close() {
        if (channel.isActive()) {
            channel.writeAndFlush(new DefaultSpdyGoAwayFrame(0)).addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent) {
            log.debug("closing streaming connection from {}: idle for longer than streamingConnectionIdleTimeout",
                    ctx.channel().remoteAddress());
            ctx.close();
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("SPDY streaming connection from {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }

}
