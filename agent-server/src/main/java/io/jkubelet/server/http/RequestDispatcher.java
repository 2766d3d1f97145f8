package io.jkubelet.server.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.group.ChannelGroup;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.AttributeKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last pipeline stage: turns each aggregated request into a {@link Request}, routes it, runs the
 * handler (inline or on a virtual thread) and writes the response. One instance serves every connection
 * of a server; per-connection state lives in a channel attribute and is only touched on that channel's
 * event loop.
 */
@ChannelHandler.Sharable
final class RequestDispatcher extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(RequestDispatcher.class);

    private static final AttributeKey<HttpConnection> CONNECTION = AttributeKey.valueOf("jk.connection");

    private final HttpServerConfig config;
    private final Router router;
    private final ExecutorService handlerExecutor;
    private final RequestFilter filter;
    private volatile boolean shuttingDown;

    RequestDispatcher(HttpServerConfig config, Router router, ExecutorService handlerExecutor) {
        this(config, router, handlerExecutor, null);
    }

    /** @param filter runs before routing on every request; null for none */
    RequestDispatcher(HttpServerConfig config, Router router, ExecutorService handlerExecutor, RequestFilter filter) {
        this.config = config;
        this.router = router;
        this.handlerExecutor = handlerExecutor;
        this.filter = filter;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        ctx.channel().attr(CONNECTION).set(new HttpConnection());
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        HttpConnection conn = ctx.channel().attr(CONNECTION).get();
        if (conn != null) {
            conn.releasePending();
            if (conn.stream != null) {
                conn.stream.cancel();
            }
        }
        super.channelInactive(ctx);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        HttpConnection conn = ctx.channel().attr(CONNECTION).get();
        if (conn != null && conn.stream != null) {
            conn.stream.writabilityChanged();
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof FullHttpRequest request)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        HttpConnection conn = ctx.channel().attr(CONNECTION).get();
        if (conn.busy) {
            // A pipelined request: answer it after the one in progress, as Go serves a connection serially.
            conn.pending.add(request);
            return;
        }
        serve(ctx, conn, request);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent) {
            HttpConnection conn = ctx.channel().attr(CONNECTION).get();
            if (conn == null || !conn.busy) {
                log.debug("{} server: closing idle connection from {}", config.name(), ctx.channel().remoteAddress());
                ctx.close();
            }
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("{} server: connection from {} failed: {}", config.name(), ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }

    /**
     * Closes idle connections now and the busy ones after their current response. Upgraded connections
     * (streaming sessions) are closed now: Go's {@code Shutdown} does not wait for hijacked connections.
     */
    void beginShutdown(ChannelGroup connections) {
        shuttingDown = true;
        for (Channel channel : connections) {
            channel.eventLoop().execute(() -> {
                HttpConnection conn = channel.attr(CONNECTION).get();
                if (conn == null || !conn.busy || conn.upgraded) {
                    channel.close();
                } else {
                    conn.closeWhenIdle = true;
                }
            });
        }
    }

    private void serve(ChannelHandlerContext ctx, HttpConnection conn, FullHttpRequest msg) {
        conn.busy = true;
        Exchange exchange;
        Request request;
        try {
            boolean keepAlive = HttpUtil.isKeepAlive(msg);
            String method = msg.method().name();
            exchange = new Exchange(method, msg.uri(), msg.protocolVersion(), keepAlive);
            DecoderResult result = msg.decoderResult();
            if (result.isFailure()) {
                rejectMalformed(ctx, conn, exchange, result.cause());
                return;
            }
            if (msg.protocolVersion().equals(HttpVersion.HTTP_1_1) && !msg.headers().contains(HttpHeaderNames.HOST)) {
                write(ctx, conn, exchange, GoAnswers.plainError(400, "400 Bad Request: missing required Host header"), true);
                return;
            }
            try {
                request = NettyRequests.toRequest(ctx, msg);
            } catch (IllegalArgumentException e) {
                write(ctx, conn, exchange, GoAnswers.plainError(400, "400 Bad Request"), true);
                return;
            }
            exchange = new Exchange(method, request.path(), msg.protocolVersion(), keepAlive);
        } finally {
            msg.release();
        }
        dispatch(ctx, conn, exchange, request);
    }

    private void dispatch(ChannelHandlerContext ctx, HttpConnection conn, Exchange exchange, Request request) {
        if (filter == null) {
            route(ctx, conn, exchange, request, router.match(request.method(), request.path()));
            return;
        }
        List<X509Certificate> peer = NettyRequests.peerCertificates(ctx);
        try {
            handlerExecutor.execute(() -> {
                Response answer;
                try {
                    answer = filter.filter(request, peer);
                } catch (Exception | LinkageError | AssertionError e) {
                    log.warn("{} server: request filter for {} {} failed", config.name(), request.method(), request.path(), e);
                    answer = Response.goError(500, "Internal Server Error");
                }
                if (answer != null) {
                    Response denied = answer;
                    ctx.channel().eventLoop().execute(() -> write(ctx, conn, exchange, denied, false));
                    return;
                }
                Router.Match match = router.match(request.method(), request.path());
                if (match instanceof Router.Found found && found.handler().mayBlock()) {
                    // Already on a handler thread: run a blocking handler here instead of going through the
                    // event loop to another handler thread.
                    Response response = invoke(found.handler(), request.withPathParams(found.pathParams()));
                    ctx.channel().eventLoop().execute(() -> write(ctx, conn, exchange, response, false));
                } else {
                    ctx.channel().eventLoop().execute(() -> route(ctx, conn, exchange, request, match));
                }
            });
        } catch (RejectedExecutionException e) {
            write(ctx, conn, exchange, Response.goError(503, "Service Unavailable"), true);
        }
    }

    private void route(ChannelHandlerContext ctx, HttpConnection conn, Exchange exchange, Request request, Router.Match match) {
        switch (match) {
            case Router.Found found -> {
                Request routed = request.withPathParams(found.pathParams());
                Handler handler = found.handler();
                if (handler.mayBlock()) {
                    try {
                        handlerExecutor.execute(() -> {
                            Response response = invoke(handler, routed);
                            ctx.channel().eventLoop().execute(() -> write(ctx, conn, exchange, response, false));
                        });
                    } catch (RejectedExecutionException e) {
                        write(ctx, conn, exchange, Response.goError(503, "Service Unavailable"), true);
                    }
                } else {
                    write(ctx, conn, exchange, invoke(handler, routed), false);
                }
            }
            case Router.MethodNotAllowed notAllowed ->
                    write(ctx, conn, exchange,
                            Response.restfulError(405, "405: Method Not Allowed").withHeader("Allow", String.join(", ", notAllowed.allowed())),
                            false);
            case Router.Redirect redirect -> write(ctx, conn, exchange, GoAnswers.redirect(request, redirect.location()), false);
            case Router.NotFound notFound ->
                    write(ctx, conn, exchange,
                            notFound.restful() ? Response.restfulError(404, "404: Page Not Found") : Response.goError(404, "404 page not found"),
                            false);
        }
    }

    private Response invoke(Handler handler, Request request) {
        try {
            Response response = handler.handle(request);
            if (response == null) {
                throw new IllegalStateException("handler returned no response");
            }
            return response;
        } catch (Exception | LinkageError | AssertionError e) {
            log.warn("{} server: handler for {} {} failed", config.name(), request.method(), request.path(), e);
            return Response.goError(500, "Internal Server Error");
        }
    }

    private void rejectMalformed(ChannelHandlerContext ctx, HttpConnection conn, Exchange exchange, Throwable cause) {
        boolean tooLarge = cause instanceof TooLongHttpHeaderException || cause instanceof TooLongHttpLineException;
        log.debug("{} server: bad request from {}: {}", config.name(), ctx.channel().remoteAddress(), cause.toString());
        // Go writes these two answers itself, before any handler, and hangs up.
        write(ctx, conn, exchange,
                GoAnswers.plainError(tooLarge ? 431 : 400, tooLarge ? "431 Request Header Fields Too Large" : "400 Bad Request"), true);
    }

    /** Writes {@code response}; then serves the next pipelined request, or closes when it must. */
    private void write(ChannelHandlerContext ctx, HttpConnection conn, Exchange exchange, Response response, boolean forceClose) {
        if (response.upgradeHandler() != null) {
            handOver(ctx, conn, response.upgradeHandler());
            return;
        }
        if (response.isStreaming()) {
            writeStreaming(ctx, conn, exchange, response, forceClose);
            return;
        }
        boolean keepAlive = exchange.keepAlive() && mayKeepAlive(conn, forceClose);
        FullHttpResponse out = ResponseHeads.full(exchange, response, keepAlive, config.clock().instant());
        if (log.isDebugEnabled()) {
            log.debug("{} server: {} {} -> {}", config.name(), exchange.method(), exchange.path(), response.status());
        }
        if (!ctx.channel().isActive()) {
            out.release();
            return;
        }
        ctx.writeAndFlush(out).addListener((ChannelFutureListener) f -> afterResponse(ctx, conn, f.isSuccess() && keepAlive));
    }

    /** Whether the connection may stay open after this answer, as far as the server is concerned. */
    private boolean mayKeepAlive(HttpConnection conn, boolean forceClose) {
        return !forceClose && !conn.closeWhenIdle && !shuttingDown;
    }

    /** The response is out: serve the next pipelined request, or close. Event loop only. */
    private void afterResponse(ChannelHandlerContext ctx, HttpConnection conn, boolean keepAlive) {
        if (!keepAlive || !ctx.channel().isActive()) {
            conn.releasePending();
            ctx.close();
            return;
        }
        conn.busy = false;
        FullHttpRequest next = conn.pending.poll();
        if (next != null) {
            serve(ctx, conn, next);
        }
    }

    /**
     * Sends the status and headers of a streaming response, then runs its writer on a virtual thread.
     * HTTP/1.1: {@code Transfer-Encoding: chunked} and the connection stays open afterwards (as Go chunks
     * a response that has no Content-Length); HTTP/1.0 cannot chunk, so the body ends when the connection
     * closes (Go drops the Transfer-Encoding header then). HEAD gets the headers only.
     */
    private void writeStreaming(ChannelHandlerContext ctx, HttpConnection conn, Exchange exchange, Response response, boolean forceClose) {
        ResponseHeads.Streamed streamed =
                ResponseHeads.streamed(exchange, response, mayKeepAlive(conn, forceClose), config.clock().instant());
        boolean head = exchange.method().equals("HEAD");
        boolean closeDelimited = streamed.closeDelimited();
        if (log.isDebugEnabled()) {
            log.debug("{} server: {} {} -> {} (streamed)", config.name(), exchange.method(), exchange.path(), response.status());
        }
        if (!ctx.channel().isActive()) {
            return;
        }
        ctx.writeAndFlush(streamed.head());
        boolean reuse = streamed.keepAlive();
        if (head) {
            ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT)
                    .addListener((ChannelFutureListener) f -> afterResponse(ctx, conn, f.isSuccess() && reuse));
            return;
        }
        ChannelResponseStream stream = new ChannelResponseStream(ctx.channel());
        conn.stream = stream;
        BodyWriter writer = response.writer();
        try {
            handlerExecutor.execute(() -> runWriter(ctx, conn, exchange, stream, writer, reuse, closeDelimited));
        } catch (RejectedExecutionException e) {
            conn.stream = null;
            ctx.close();
        }
    }

    /** Runs on the writer's virtual thread: the body, then its end (last chunk or close). */
    private void runWriter(ChannelHandlerContext ctx, HttpConnection conn, Exchange exchange, ChannelResponseStream stream,
            BodyWriter writer, boolean keepAlive, boolean closeDelimited) {
        boolean complete = false;
        try {
            writer.writeTo(stream);
            stream.finish();
            complete = true;
        } catch (ResponseStream.ClientGoneException e) {
            log.debug("{} server: {} {}: stream ended, {}", config.name(), exchange.method(), exchange.path(), e.getMessage());
        } catch (Exception | LinkageError | AssertionError e) {
            if (!stream.clientGone()) {
                log.warn("{} server: streaming the answer to {} {} failed", config.name(), exchange.method(), exchange.path(), e);
            }
        }
        boolean done = complete;
        ctx.channel().eventLoop().execute(() -> {
            conn.stream = null;
            if (!done || closeDelimited || !ctx.channel().isActive()) {
                // An unfinished body must not look finished: close without the last chunk. HTTP/1.0: the
                // close is what ends the body.
                if (done && ctx.channel().isActive()) {
                    ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener(ChannelFutureListener.CLOSE);
                } else {
                    ctx.close();
                }
                conn.releasePending();
                return;
            }
            ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT)
                    .addListener((ChannelFutureListener) f ->
                            afterResponse(ctx, conn, f.isSuccess() && keepAlive && !conn.closeWhenIdle && !shuttingDown));
        });
    }

    /**
     * Gives the connection to {@code upgrade}: this server reads no more requests from it (the connection
     * stays busy, so neither the HTTP idle timeout nor a shutdown closes it early) and leaves its pipeline.
     */
    private void handOver(ChannelHandlerContext ctx, HttpConnection conn, HttpUpgrade upgrade) {
        conn.upgraded = true;
        conn.releasePending();
        if (ctx.pipeline().get("idle") != null) {
            ctx.pipeline().remove("idle");
        }
        ctx.pipeline().remove(this);
        try {
            upgrade.takeOver(ctx.channel());
        } catch (RuntimeException e) {
            log.warn("{} server: upgrade of a connection from {} failed", config.name(), ctx.channel().remoteAddress(), e);
            ctx.channel().close();
        }
    }
}
