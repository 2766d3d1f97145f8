package io.jkubelet.server.streaming;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Reads the runtime's streaming server's answer to a proxied upgrade request (upstream's {@code getResponse}) and
 * decides as the upgrade-aware proxy: {@code 101} switches the session to the byte relay, an error ({@code 4xx},
 * {@code 5xx}) is echoed to the client whole, any other status or a connection that ends first is the proxy's 500.
 * The bytes are kept as they came, so that the client gets the server's answer unchanged.
 */
final class BackendAnswer extends ChannelInboundHandlerAdapter {

    /** Go's default limit on a response's header ({@code http.Transport}'s MaxResponseHeaderBytes). */
    private static final int MAX_HEAD_BYTES = 1 << 20;
    /** The most of an error's body that is echoed. */
    private static final int MAX_ERROR_BODY_BYTES = 1 << 20;
    private static final byte[] END_OF_HEAD = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final StreamProxy proxy;
    private final Channel client;
    private ByteBuf received;
    private int status;
    private int headLength = -1;
    private long contentLength = -1;
    private boolean decided;

    BackendAnswer(StreamProxy proxy, Channel client) {
        this.proxy = proxy;
        this.client = client;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        received = ctx.alloc().buffer();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (!decided && received != null) {
            received.release();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf bytes = (ByteBuf) msg;
        try {
            if (decided) {
                return;
            }
            received.writeBytes(bytes);
        } finally {
            bytes.release();
        }
        if (headLength < 0 && !readHead(ctx)) {
            return;
        }
        if (status == 101) {
            decided = true;
            proxy.relay(client, ctx.channel(), received);
        } else if (status >= 400) {
            if (contentLength >= 0 && received.readableBytes() >= headLength + contentLength) {
                echo(ctx);
            } else if (received.readableBytes() - headLength > MAX_ERROR_BODY_BYTES) {
                echo(ctx);
            } else {
                ctx.read();
            }
        } else {
            fail(ctx, "invalid upgrade response: status code " + status);
        }
    }

    /** Parses the status line and Content-Length once the head is in; false while it is not. */
    private boolean readHead(ChannelHandlerContext ctx) {
        int end = ByteBufUtil.indexOf(Unpooled.wrappedBuffer(END_OF_HEAD), received);
        if (end < 0) {
            if (received.readableBytes() > MAX_HEAD_BYTES) {
                fail(ctx, "error reading the streaming server's answer: its header is longer than " + MAX_HEAD_BYTES
                        + " bytes");
            } else {
                ctx.read();
            }
            return false;
        }
        headLength = end - received.readerIndex() + END_OF_HEAD.length;
        String head = received.toString(received.readerIndex(), headLength, StandardCharsets.ISO_8859_1);
        String[] lines = head.split("\r\n");
        String[] statusLine = lines[0].split(" ", 3);
        try {
            if (statusLine.length < 2 || !statusLine[0].startsWith("HTTP/")) {
                throw new NumberFormatException();
            }
            status = Integer.parseInt(statusLine[1]);
        } catch (NumberFormatException e) {
            fail(ctx, "error reading the streaming server's answer: malformed HTTP response \"" + lines[0] + "\"");
            return false;
        }
        for (String line : lines) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().toLowerCase(Locale.ROOT).equals("content-length")) {
                try {
                    contentLength = Long.parseLong(line.substring(colon + 1).trim());
                } catch (NumberFormatException e) {
                    contentLength = -1;
                }
            }
        }
        return true;
    }

    private void echo(ChannelHandlerContext ctx) {
        decided = true;
        proxy.echo(client, ctx.channel(), received);
    }

    private void fail(ChannelHandlerContext ctx, String message) {
        decided = true;
        received.release();
        ctx.channel().close();
        proxy.answerError(client, message);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            ended(ctx);
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        ended(ctx);
    }

    /** The server hung up before its answer was complete: an error whose body ends there is echoed as it is. */
    private void ended(ChannelHandlerContext ctx) {
        if (decided) {
            return;
        }
        if (headLength >= 0 && status >= 400) {
            echo(ctx);
        } else {
            fail(ctx, "error reading the streaming server's answer from " + proxy.location().getRawAuthority()
                    + ": unexpected EOF");
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!decided) {
            fail(ctx, "error reading the streaming server's answer from " + proxy.location().getRawAuthority() + ": "
                    + cause.getMessage());
        } else {
            ctx.channel().close();
        }
    }
}
