package io.jkubelet.server.streaming;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslHandler;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies the bytes one side of a proxied streaming session reads to the other side (the client's connection and the
 * runtime's streaming server's, one relay on each). Reads are explicit ({@code autoRead} off): the next read is asked
 * for only once the last bytes were written to the peer, so a slow reader slows its writer down and neither side's
 * bytes pile up in memory, without blocking the event loop. When one side's input ends (FIN), the peer's output is
 * shut down after the bytes before it (TLS: {@code close_notify}), so a client's end of its input reaches the
 * runtime; both connections close once both inputs ended, or at once when either fails or closes.
 */
final class ByteRelay extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(ByteRelay.class);

    /** What the two relays of one session share: how many inputs are still open. */
    static final class Ends {
        private final AtomicInteger openInputs = new AtomicInteger(2);
    }

    private final String name;
    private final Channel peer;
    private final Ends ends;
    private boolean inputEnded;

    ByteRelay(String name, Channel peer, Ends ends) {
        this.name = name;
        this.peer = peer;
        this.ends = ends;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Channel self = ctx.channel();
        peer.writeAndFlush(msg).addListener((ChannelFutureListener) f -> {
            if (f.isSuccess()) {
                self.read();
            } else {
                log.debug("{}: writing to {} failed: {}", name, peer.remoteAddress(), f.cause().toString());
                closeBoth(self);
            }
        });
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent && !inputEnded) {
            inputEnded = true;
            Channel self = ctx.channel();
            // Written after every byte already queued for the peer: a shut-down output fails writes still pending.
            peer.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener((ChannelFutureListener) f -> {
                if (!f.isSuccess() || ends.openInputs.decrementAndGet() == 0) {
                    closeBoth(self);
                } else {
                    shutdownOutput(peer);
                }
            });
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    private static void shutdownOutput(Channel channel) {
        SslHandler tls = channel.pipeline().get(SslHandler.class);
        if (tls != null) {
            tls.closeOutbound();
        } else if (channel instanceof SocketChannel socket) {
            socket.shutdownOutput();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        // What was read before is written first, then the peer closes.
        peer.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("{}: connection with {} failed: {}", name, ctx.channel().remoteAddress(), cause.toString());
        closeBoth(ctx.channel());
    }

    private void closeBoth(Channel self) {
        self.close();
        peer.close();
    }
}
