package io.jkubelet.cri;

import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.unix.DomainSocketAddress;

import java.util.concurrent.TimeUnit;

/**
 * One gRPC channel to a CRI endpoint's unix socket, over Netty's epoll transport (the only Netty transport that
 * speaks unix sockets on Linux). Upstream's kubelet allows messages up to 16 MiB; so does this channel.
 */
final class CriChannel implements AutoCloseable {
    /** Upstream's {@code maxMsgSize} for CRI calls (a ListContainers of a full node, an ExecSync's output). */
    static final int MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

    private final CriEndpoint endpoint;
    /** The epoll event loop this channel runs on, or null for a channel made elsewhere. */
    private final EventLoopGroup group;
    private final ManagedChannel channel;

    CriChannel(CriEndpoint endpoint) {
        if (!Epoll.isAvailable()) {
            throw new IllegalStateException("cannot reach CRI endpoint " + endpoint
                    + ": Netty's epoll transport is not available here (" + Epoll.unavailabilityCause() + ")");
        }
        this.endpoint = endpoint;
        this.group = new MultiThreadIoEventLoopGroup(1, Thread.ofPlatform().name("cri-grpc-", 0).daemon().factory(),
                EpollIoHandler.newFactory());
        this.channel = NettyChannelBuilder.forAddress(new DomainSocketAddress(endpoint.socket().toString()))
                .eventLoopGroup(group)
                .channelType(EpollDomainSocketChannel.class)
                .usePlaintext()
                .maxInboundMessageSize(MAX_MESSAGE_BYTES)
                // The authority of a unix socket means nothing; a fixed one keeps HTTP/2 headers valid.
                .overrideAuthority("localhost")
                .build();
    }

    /**
     * A channel made elsewhere, named by {@code endpoint} in errors: the unit tests' in-process fake runtime. It has
     * no event loop of its own; closing shuts the channel down.
     */
    CriChannel(CriEndpoint endpoint, ManagedChannel channel) {
        this.endpoint = endpoint;
        this.group = null;
        this.channel = channel;
    }

    ManagedChannel channel() {
        return channel;
    }

    CriEndpoint endpoint() {
        return endpoint;
    }

    @Override
    public void close() {
        channel.shutdownNow();
        try {
            channel.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (group != null) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }
}
