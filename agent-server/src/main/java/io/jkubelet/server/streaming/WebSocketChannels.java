package io.jkubelet.server.streaming;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.timeout.IdleStateEvent;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The inbound side of a WebSocket session with channel framing: routes each client message to the
 * {@link ChannelInput} of its channel (messages for a channel the session does not read are dropped, as
 * upstream does), answers pings, ends every input when the client closes the connection, and closes a
 * connection idle for longer than the session's idle timeout.
 *
 * <p>Event-loop confined, except {@link #input}, {@link #output} and {@link #close}, which the
 * session's thread calls.
 */
final class WebSocketChannels extends SimpleChannelInboundHandler<WebSocketFrame> {

    private static final Logger log = LoggerFactory.getLogger(WebSocketChannels.class);

    private final Channel channel;
    private final ChannelProtocol protocol;
    private final ChannelInput[] inputs;

    /**
     * @param readable for each channel number, whether the session reads what the client sends on it
     */
    WebSocketChannels(Channel channel, ChannelProtocol protocol, boolean[] readable) {
        this.channel = channel;
        this.protocol = protocol;
        this.inputs = new ChannelInput[readable.length];
        for (int i = 0; i < readable.length; i++) {
            inputs[i] = readable[i] ? new ChannelInput(channel) : null;
        }
    }

    ChannelProtocol protocol() {
        return protocol;
    }

    /** What the client sends on channel {@code number}; null when the session does not read it. */
    ChannelInput input(int number) {
        return inputs[number];
    }

    /** Writes to channel {@code number}. */
    ChannelOutput output(int number) {
        return new ChannelOutput(channel, number, protocol.base64);
    }

    /** Ends the session: a normal closure message, then the connection is closed. */
    void close() {
        if (channel.isActive()) {
            channel.writeAndFlush(new CloseWebSocketFrame(1000, "")).addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, WebSocketFrame frame) {
        switch (frame) {
            case BinaryWebSocketFrame binary -> message(ByteBufUtil.getBytes(binary.content()));
            case TextWebSocketFrame text -> message(ByteBufUtil.getBytes(text.content()));
            case PingWebSocketFrame ping -> ctx.writeAndFlush(new PongWebSocketFrame(ping.content().retain()));
            case CloseWebSocketFrame close -> {
                ByteBuf reply = close.content().retain();
                ctx.writeAndFlush(new CloseWebSocketFrame(true, 0, reply)).addListener(ChannelFutureListener.CLOSE);
            }
            default -> { /* pong or a stray continuation: nothing to do */ }
        }
    }

    private void message(byte[] data) {
        if (data.length == 0) {
            return;
        }
        int number = data[0] & 0xFF;
        if (protocol.base64) {
            number = number - '0';
        }
        if (protocol.closeSignals && number == ChannelProtocol.CLOSE_CHANNEL) {
            if (data.length > 1 && (data[1] & 0xFF) < inputs.length && inputs[data[1] & 0xFF] != null) {
                inputs[data[1] & 0xFF].finish();
            }
            return;
        }
        if (number < 0 || number >= inputs.length || inputs[number] == null) {
            log.trace("dropping a message for channel {}, which this session does not read", number);
            return;
        }
        byte[] payload = Arrays.copyOfRange(data, 1, data.length);
        if (protocol.base64) {
            try {
                payload = Base64.getDecoder().decode(new String(payload, StandardCharsets.US_ASCII).strip());
            } catch (IllegalArgumentException e) {
                log.debug("dropping a message on channel {} that is not base64: {}", number, e.getMessage());
                return;
            }
        }
        inputs[number].offer(payload);
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

    /** Ends every input: the client can send nothing more. Idempotent, any thread. */
    void finishInputs() {
        for (ChannelInput input : inputs) {
            if (input != null) {
                input.finish();
            }
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("streaming connection from {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
