package io.jkubelet.server.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An HTTP/1.1 server on Netty (NIO transport) that answers through a {@link Router}.
 *
 * <p>Behaviour, matching the kubelet's Go {@code http.Server} where it can be seen from outside:
 * persistent connections (HTTP/1.1 by default, HTTP/1.0 with {@code Connection: keep-alive}), requests
 * on one connection answered one at a time and in order; a connection idle for {@link
 * HttpServerConfig#idleTimeout()} is closed (never while a request is in progress); a request line or
 * header block over {@link HttpServerConfig#maxHeaderBytes()} gets {@code 431 Request Header Fields Too
 * Large} and an unparsable request {@code 400 Bad Request}, both closing the connection; a body over
 * {@link HttpServerConfig#maxContentLength()} gets 413; a handler that throws gets 500 and the connection
 * stays usable. Every response carries {@code Date} and {@code Content-Length}.
 *
 * <p>Handlers that {@linkplain Handler#mayBlock() may block} run on virtual threads; the others on the
 * event loop.
 *
 * <p>Thread-safety: {@link #start} returns a running server; {@link #port()} and {@link #localAddress()}
 * may be called from any thread; {@link #close()} is idempotent and may be called from any thread except
 * a Netty event loop or a handler of this server.
 */
public final class HttpServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(HttpServer.class);

    private final HttpServerConfig config;
    private final EventLoopGroup group;
    private final ExecutorService handlerExecutor;
    private final ChannelGroup connections;
    private final Channel serverChannel;
    private final RequestDispatcher dispatcher;
    private final Object closeLock = new Object();
    private boolean closed;

    private HttpServer(
            HttpServerConfig config,
            EventLoopGroup group,
            ExecutorService handlerExecutor,
            ChannelGroup connections,
            Channel serverChannel,
            RequestDispatcher dispatcher) {
        this.config = config;
        this.group = group;
        this.handlerExecutor = handlerExecutor;
        this.connections = connections;
        this.serverChannel = serverChannel;
        this.dispatcher = dispatcher;
    }

    /**
     * Binds {@code config.bindAddress():config.port()} and starts serving {@code router}.
     *
     * @throws IOException naming the server and address when the address cannot be bound
     */
    public static HttpServer start(HttpServerConfig config, Router router) throws IOException {
        return start(config, router, (Supplier<SslContext>) null, null);
    }

    /**
     * As {@link #start(HttpServerConfig, Router)}, speaking TLS with {@code tls} (null for plain HTTP) and
     * running {@code filter} (null for none) before routing every request.
     */
    public static HttpServer start(HttpServerConfig config, Router router, SslContext tls,
            RequestFilter filter) throws IOException {
        return start(config, router, tls == null ? null : () -> tls, filter);
    }

    /**
     * As {@link #start(HttpServerConfig, Router, io.netty.handler.ssl.SslContext, RequestFilter)}, the TLS context read
     * for each new connection (a rotated serving certificate is served from the next handshake on).
     */
    public static HttpServer start(HttpServerConfig config, Router router,
            Supplier<SslContext> tls, RequestFilter filter) throws IOException {
        EventLoopGroup group =
                new MultiThreadIoEventLoopGroup(
                        config.ioThreads(), new DefaultThreadFactory("jk-" + config.name() + "-io"), NioIoHandler.newFactory());
        ExecutorService executor =
                Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("jk-" + config.name() + "-handler-", 0).factory());
        ChannelGroup connections = new DefaultChannelGroup(config.name() + "-connections", GlobalEventExecutor.INSTANCE);
        RequestDispatcher dispatcher = new RequestDispatcher(config, router, executor, filter);
        // Go reads up to MaxHeaderBytes plus 4096 bytes of slack (initialReadLimitSize) before it answers
        // 431; the same limit applies here to the request line and to the header block.
        int headerLimit = config.maxHeaderBytes() + 4096;
        HttpDecoderConfig decoderConfig =
                new HttpDecoderConfig().setMaxInitialLineLength(headerLimit).setMaxHeaderSize(headerLimit);
        ServerBootstrap bootstrap =
                new ServerBootstrap()
                        .group(group)
                        .channel(NioServerSocketChannel.class)
                        .option(ChannelOption.SO_BACKLOG, 1024)
                        .childOption(ChannelOption.TCP_NODELAY, true)
                        .childHandler(
                                new ChannelInitializer<SocketChannel>() {
                                    @Override
                                    protected void initChannel(SocketChannel ch) {
                                        connections.add(ch);
                                        if (tls != null) {
                                            // The idle handler below also bounds a client that never
                                            // finishes its handshake.
                                            ch.pipeline().addLast("tls", tls.get().newHandler(ch.alloc()));
                                        }
                                        ch.pipeline()
                                                .addLast("idle", new IdleStateHandler(0, 0, config.idleTimeout().toMillis(), TimeUnit.MILLISECONDS))
                                                .addLast("codec", new HttpServerCodec(decoderConfig))
                                                .addLast("aggregator", new HttpObjectAggregator(config.maxContentLength()))
                                                .addLast("dispatcher", dispatcher);
                                    }
                                });
        ChannelFuture bind = bind(bootstrap, config);
        if (!bind.isSuccess()) {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).awaitUninterruptibly();
            executor.shutdownNow();
            throw new IOException(
                    config.name() + " server: cannot listen on " + hostPort(config) + ": " + bind.cause().getMessage(),
                    bind.cause());
        }
        HttpServer server = new HttpServer(config, group, executor, connections, bind.channel(), dispatcher);
        log.info("{} server listening on {}", config.name(), server.localAddress());
        return server;
    }

    private static ChannelFuture bind(ServerBootstrap bootstrap, HttpServerConfig config) {
        return bootstrap.bind(config.bindAddress(), config.port()).awaitUninterruptibly();
    }

    private static String hostPort(HttpServerConfig config) {
        String host = config.bindAddress().getHostAddress();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + config.port();
    }

    /** The address the server listens on, with the real port when 0 was asked for. */
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /** The port the server listens on. */
    public int port() {
        return localAddress().getPort();
    }

    /**
     * Stops accepting, closes idle connections, lets requests in progress finish (up to {@link
     * HttpServerConfig#shutdownTimeout()}, then closes the rest) and releases the port and threads. Like
     * Go's {@code Server.Shutdown}. Idempotent.
     */
    @Override
    public void close() {
        synchronized (closeLock) {
            if (closed) {
                return;
            }
            closed = true;
        }
        serverChannel.close().awaitUninterruptibly();
        dispatcher.beginShutdown(connections);
        boolean drained =
                connections.newCloseFuture().awaitUninterruptibly(config.shutdownTimeout().toMillis());
        if (!drained) {
            log.warn("{} server: closing {} connections still busy after {}", config.name(), connections.size(), config.shutdownTimeout());
        }
        connections.close().awaitUninterruptibly();
        group.shutdownGracefully(0, config.shutdownTimeout().toMillis(), TimeUnit.MILLISECONDS).awaitUninterruptibly();
        handlerExecutor.shutdownNow();
        log.info("{} server on {} stopped", config.name(), serverChannel.localAddress());
    }
}
