package io.jkubelet.server.streaming;

import io.jkubelet.server.http.HttpUpgrade;
import io.jkubelet.server.http.Request;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.net.ConnectException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One exec, attach or port-forward session proxied raw to the runtime's streaming server, as upstream's {@code
 * proxyStream} with apimachinery's {@code UpgradeAwareHandler}: the client's upgrade request goes to the URL the
 * runtime handed out, the server's answer comes back as it was sent ({@code 101 Switching Protocols} and its headers,
 * or its error), and after a 101 the bytes are copied both ways ({@link ByteRelay}) until the session ends, whatever
 * protocol the two speak (SPDY/3.1, WebSocket). The kubelet thus never ends the session's protocol: a client's end of
 * stdin (a SPDY stream's FIN, a v5 close) reaches the runtime as the client sent it.
 *
 * <p>Everything runs on the client connection's event loop, the runtime's connection included.
 */
final class StreamProxy implements HttpUpgrade {

    private static final Logger log = LoggerFactory.getLogger(StreamProxy.class);

    /** How long to wait for the runtime's streaming server to accept the connection (Go's dialer: 30 s). */
    private static final int CONNECT_TIMEOUT_MILLIS = 30_000;

    private final String name;
    private final URI location;
    private final Request request;
    private final StreamingSessions sessions;

    /**
     * @param location the session's URL on the runtime's streaming server
     * @param request the client's upgrade request
     */
    StreamProxy(String name, URI location, Request request, StreamingSessions sessions) {
        this.name = name;
        this.location = location;
        this.request = request;
        this.sessions = sessions;
    }

    @Override
    public void takeOver(Channel client) {
        client.closeFuture().addListener(f -> {
            sessions.closed();
            log.debug("{}: connection closed", name);
        });
        if (!client.isActive()) {
            return;
        }
        client.config().setAutoRead(false);
        client.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
        int port = location.getPort() > 0 ? location.getPort() : "https".equalsIgnoreCase(location.getScheme()) ? 443 : 80;
        ChannelFuture connect = new Bootstrap().group(client.eventLoop()).channel(NioSocketChannel.class)
                .option(ChannelOption.AUTO_READ, false)
                .option(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MILLIS)
                .handler(new BackendAnswer(this, client))
                .connect(location.getHost(), port);
        Channel backend = connect.channel();
        client.closeFuture().addListener(f -> backend.close());
        connect.addListener((ChannelFutureListener) f -> {
            if (!f.isSuccess()) {
                answerError(client, "error dialing backend: dial tcp " + location.getHost() + ":" + port + ": "
                        + dialError(f.cause()));
                return;
            }
            backend.writeAndFlush(Unpooled.wrappedBuffer(ProxiedRequest.encode(request, location)))
                    .addListener((ChannelFutureListener) w -> {
                        if (w.isSuccess()) {
                            backend.read();
                        } else {
                            answerError(client, "error sending request: " + w.cause().getMessage());
                        }
                    });
        });
    }

    /** Go's wording for the common dial failure, the cause's message for the others. */
    private static String dialError(Throwable cause) {
        if (cause instanceof ConnectException && String.valueOf(cause.getMessage()).toLowerCase().contains("refused")) {
            return "connect: connection refused";
        }
        return String.valueOf(cause.getMessage());
    }

    /** The server switched protocols: its answer goes to the client as it came, then bytes flow both ways. */
    void relay(Channel client, Channel backend, ByteBuf answer) {
        log.debug("{}: proxied to {}", name, location);
        ByteRelay.Ends ends = new ByteRelay.Ends();
        backend.pipeline().replace(BackendAnswer.class, "relay", new ByteRelay(name, client, ends));
        ChannelPipeline p = client.pipeline();
        p.addLast("relay", new ByteRelay(name, backend, ends));
        // Written below the HTTP codec, as raw bytes; the codec leaves once they are out, passing on to the relay
        // whatever it had read beyond the request.
        p.context("codec").writeAndFlush(answer).addListener((ChannelFutureListener) f -> {
            if (!f.isSuccess() || !client.isActive()) {
                client.close();
                return;
            }
            p.remove("aggregator");
            p.remove("codec");
            client.read();
            backend.read();
        });
    }

    /** The server refused the upgrade: its answer goes to the client as it came, and both connections close. */
    void echo(Channel client, Channel backend, ByteBuf answer) {
        log.debug("{}: the streaming server at {} refused the session", name, location);
        backend.close();
        client.pipeline().context("codec").writeAndFlush(answer).addListener(ChannelFutureListener.CLOSE);
    }

    /**
     * An answer the kubelet's responder gives when proxying fails before the upgrade: 500 with the error, as Go's
     * {@code http.Error}; then both connections close.
     */
    void answerError(Channel client, String message) {
        log.warn("{}: error while proxying request to {}: {}", name, location, message);
        byte[] body = (message + "\n").getBytes(StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.INTERNAL_SERVER_ERROR, Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
                .set("X-Content-Type-Options", "nosniff")
                .set(HttpHeaderNames.CONTENT_LENGTH, body.length)
                .set(HttpHeaderNames.CONNECTION, "close");
        if (client.isActive()) {
            client.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        } else {
            response.release();
        }
    }

    URI location() {
        return location;
    }
}
