package io.jkubelet.server.streaming;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * Writes to one channel of a WebSocket session: each write is one message, prefixed with the channel
 * number (base64-encoded in a text message under the {@code base64} subprotocols). A write waits while
 * the connection's outbound buffer is full, so a slow client slows the process's output down instead of
 * growing the agent's memory.
 */
final class ChannelOutput extends OutputStream {

    /** The largest payload per message; bigger writes are split. */
    static final int MAX_MESSAGE = 32 * 1024;

    private final Channel channel;
    private final int number;
    private final boolean base64;

    ChannelOutput(Channel channel, int number, boolean base64) {
        this.channel = channel;
        this.number = number;
        this.base64 = base64;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        do {
            int n = Math.min(len, MAX_MESSAGE);
            send(b, off, n);
            off += n;
            len -= n;
        } while (len > 0);
    }

    /** One message with {@code len} bytes (zero for the empty message that tells a client the session is up). */
    void send(byte[] b, int off, int len) throws IOException {
        if (!channel.isActive()) {
            throw new IOException("the client closed the connection");
        }
        Object frame;
        if (base64) {
            String text = (char) ('0' + number) + Base64.getEncoder().encodeToString(Arrays.copyOfRange(b, off, off + len));
            frame = new TextWebSocketFrame(Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII));
        } else {
            ByteBuf buf = Unpooled.buffer(len + 1);
            buf.writeByte(number);
            buf.writeBytes(b, off, len);
            frame = new BinaryWebSocketFrame(buf);
        }
        ChannelFuture written = channel.writeAndFlush(frame);
        if (!channel.isWritable()) {
            try {
                written.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("streaming session ended");
            }
            if (!written.isSuccess()) {
                throw new IOException("writing to the client failed: " + written.cause(), written.cause());
            }
        }
    }
}
